#include "methods/odesd/odesd_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/number_text.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "odesens/status.hpp"

namespace odesens::odesd {

std::vector<OptionSpec> option_specs() {
  const double inf = std::numeric_limits<double>::infinity();
  return {
      flag_option("sensitivities", true,
                  "1: S at every output time by direct sensitivities (Eqs. 13-15); 0: the "
                  "states alone"),
      flag_option("sens_error_control", true,
                  "1: S takes part in the error test (the g5 estimate applied to S with the same "
                  "LU, atol_i/|p_j| as cvodes_fsa); 0: only the states do"),
      bounded({"fixed_step", OptionType::real, 0.0,
               "> 0: every step this long (the last one of the solve shorter), no error "
               "control, Newton failure or a singular M is solver_failed; 0: adaptive steps",
               {}},
              0.0, inf),
      bounded({"h0", OptionType::real, 0.0,
               "first step size; 0: from the weighted norms of f(t0) and its derivative a(t0)",
               {}},
              0.0, inf),
      bounded({"h_max", OptionType::real, 0.0, "largest step size; 0: no bound", {}}, 0.0, inf),
      {"output", OptionType::text, std::string("step_end"),
       "how x and S at output times are found: step_end (steps are clipped to end on each "
       "output time; our default) or hermite (the paper's quintic Hermite interpolant from x, "
       "f, a and S, dS/dt, d2S/dt2 at both ends of the covering step: no extra steps, but "
       "stiff components the rule leaves undamped (|R(-inf)| = 1) enter f and a multiplied by "
       "the stiff eigenvalues, and the interpolant inside the step inherits them; method "
       "auto takes it where its probe solved the whole span non-stiff and nothing switches)",
       {"step_end", "hermite"}},
      {"predictor", OptionType::text, std::string("quintic"),
       "Newton's starting point (the paper's is explicit, unspecified): quintic (Hermite "
       "through x, f, a at the last two step ends, taylor on the first step) or taylor "
       "(x0 + h f0 + h^2/2 a0); after a failed Newton iteration always x0 itself",
       {"quintic", "taylor"}},
      {"jacobian_update", OptionType::text, std::string("every_step"),
       "every_step: one Jacobian set per step (at the accepted x with sensitivities, the "
       "paper's reuse; at the predictor without, or at the step's start x for 50 steps "
       "after the predictor's set made Newton fail); lazy (states only, beyond the paper): keep "
       "J and J_a while Newton contracts by at least 0.3 per iteration, and their LU while h "
       "stays within 30% of the h it was made for (Newton and the error estimate then use "
       "that LU)",
       {"every_step", "lazy"}},
      bounded({"newton_max_iterations", OptionType::integer, std::int64_t{4},
               "Newton iterations per step before the step is retried", {}},
              1, 100),
      bounded({"newton_tolerance", OptionType::real, 0.01,
               "Newton stops when |delta| rho/(1-rho) is below this in the error norm (ours: "
               "0.1 leaves errors in stiff components, which the rule does not damp, "
               "|R(-inf)| = 1, several times larger at about the same cost)",
               {}},
              1e-10, 1.0),
      bounded({"step_factor_min", OptionType::real, 0.2,
               "smallest h_new/h (the step factor is (1/(2 err))^(1/5), Eq. 12)", {}},
              0.01, 1.0),
      bounded({"step_factor_max", OptionType::real, 5.0, "largest h_new/h", {}}, 1.0, 100.0),
      {"linear_solver", OptionType::text, std::string("automatic"),
       "Newton matrix I - h/2 J + h^2/12 J_a: dense (LAPACK LU), klu (SuiteSparse on the "
       "union pattern of I, J and J_a) or automatic (klu from sparse_threshold states when "
       "the model gives J's pattern, M has at most 20% non-zeros and KLU's analysis foresees "
       "factors with at most 25%; the products J_a fills in can make the dense LU faster)",
       {"automatic", "dense", "klu"}},
      bounded({"sparse_threshold", OptionType::integer, std::int64_t{100},
               "linear_solver=automatic: the fewest states for which KLU is used", {}},
              1, 1e9),
      bounded({"max_total_steps", OptionType::integer, std::int64_t{0},
               "step attempts over the whole solve (max_steps bounds those between two output "
               "times) before it ends with too_much_work; 0: no bound. Where the rule's "
               "undamped stiff components (|R(-inf)| = 1) multiply the steps, a BDF solve "
               "takes far fewer: method auto sets it in PEtab evaluations and in a session's "
               "runs after the first, and runs its fallback beyond it (docs/methods/auto.md)",
               {}},
              0, 1e12),
      methods::state_check_option(
          false, "off by default; the states again by odesd without S: 1.04 to 1.45 times "
                 "the time on the shared models, median 1.19; on with method auto"),
  };
}

Settings read_settings(const Problem& problem, const MethodOptions& options) {
  Settings s;
  s.tolerances.rtol = *problem.rtol;
  if (problem.atol.size() == 1)
    s.tolerances.atol = problem.atol[0];
  else
    s.tolerances.atol_per_state = problem.atol;
  const std::vector<double> p = effective_params(problem);
  s.param_scale.resize(p.size());
  for (std::size_t j = 0; j < p.size(); ++j)
    s.param_scale[j] = p[j] != 0.0 ? std::fabs(p[j]) : 1.0;

  s.sensitivities = options.get_int("sensitivities") != 0;
  s.sens_error_control = options.get_int("sens_error_control") != 0;
  s.stop_at_outputs = options.get_string("output") == "step_end";
  s.fixed_step = options.get_double("fixed_step");
  s.h0 = options.get_double("h0");
  s.h_max = options.get_double("h_max");
  if (s.h_max > 0.0 && s.h0 > s.h_max)
    throw Error(Status::option_type, "option h0 (" + number_text(s.h0) +
                                         ") exceeds option h_max (" + number_text(s.h_max) +
                                         ")");
  s.factor_min = options.get_double("step_factor_min");
  s.factor_max = options.get_double("step_factor_max");
  s.newton_max_iterations = static_cast<int>(options.get_int("newton_max_iterations"));
  s.newton_tolerance = options.get_double("newton_tolerance");
  s.predictor = options.get_string("predictor") == "taylor" ? PredictorKind::taylor
                                                            : PredictorKind::quintic;
  s.jacobian_update = options.get_string("jacobian_update") == "lazy" ? JacobianUpdate::lazy
                                                                       : JacobianUpdate::every_step;
  const std::string& solver = options.get_string("linear_solver");
  s.linear_solver.backend = solver == "dense" ? integrate::NewtonBackendKind::dense_lu
                            : solver == "klu" ? integrate::NewtonBackendKind::klu
                                              : integrate::NewtonBackendKind::automatic;
  s.linear_solver.sparse_threshold = static_cast<std::size_t>(options.get_int("sparse_threshold"));
  // max_steps bounds the step attempts between two output times (the
  // output grid starts each interval's budget).
  s.max_attempts = static_cast<long>(problem.max_steps);
  s.max_total_attempts = static_cast<long>(options.get_int("max_total_steps"));
  return s;
}

}  // namespace odesens::odesd
