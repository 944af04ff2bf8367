#include "methods/internal_diff/internal_diff_settings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/number_text.hpp"
#include "methods/common/lane_option.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "methods/internal_diff/perturbation_scale.hpp"
#include "odesens/status.hpp"

namespace odesens::internal_diff {

std::vector<OptionSpec> option_specs() {
  const double inf = std::numeric_limits<double>::infinity();
  return {
      {"directions", OptionType::text, std::string("params"),
       "sensitivity directions R of S*R: params (R = [dx0/dp; I]: S = dx/dp in Result::s), "
       "states (R = [I; 0]: dx/dx0 in Result::sr), all (R = [I, dx0/dp; 0, I]: dx/dx0 then "
       "dx/dp in Result::sr, dx/dp also in Result::s); Problem::sens_directions, when given, "
       "overrides it",
       {"params", "states", "all"}},
      flag_option("rescale", true,
                  "1: the perturbation sizes eps_j follow the solution, eps_j = sqrt(eps_mach) / "
                  "(v + sqrt(eps_mach)) with v from sigma and x on the states (see scaling) and "
                  "max |r_p / p| on the parameters f reads (the paper's (12), (13), (17)); a trajectory is "
                  "re-perturbed (one more f evaluation) when its eps moves by more than a factor "
                  "2. 0: the eps_j of t0 throughout"),
      {"scaling", OptionType::text, std::string("normwise"),
       "how the perturbation sizes weigh sigma against the solution (the max norm either "
       "way): normwise, v = max|sigma| / (max|x| + 1), a perturbation of sqrt(eps_mach) "
       "relative to the solution as a whole, so that no component loses sigma to rounding; "
       "componentwise, v = max_k |sigma_k| / (|x_k| + 1) (the paper's (12) as written), no "
       "component moved by more than sqrt(eps_mach) of its own size, which shrinks eps_j "
       "where a component crosses zero (on DETEST C5, 40 times the error)",
       {"normwise", "componentwise"}},
      restricted(
          bounded({"sens_rtol", OptionType::real, 0.0,
                   "relative tolerance TOLS of S*R: every step keeps the error estimate of each "
                   "direction, Delta_j = (d_j - d)/eps_j (the paper's (14)), below sens_atol + "
                   "sens_rtol*|sigma|. Must exceed sqrt(eps_mach) = 1.5e-8 (a difference "
                   "quotient is no more accurate, the paper's (8)). 0: max(rtol, 1e-7)",
                   {}},
                  0.0, 0.5),
          "0, or above sqrt(eps) = 1.5e-8 and <= 0.5",
          [](double v) { return v == 0.0 || v > internal_delta(); }),
      bounded({"sens_atol", OptionType::real, 0.0,
               "absolute tolerance of S*R (see sens_rtol); 0: equal to sens_rtol", {}},
              0.0, inf),
      {"nominal", OptionType::text, std::string("shared"),
       "shared: the nominal is one trajectory of the bundle, all at rtol/atol; accurate (the "
       "paper's section 2.4): the bundle steps at the sensitivity tolerances (states at sens_rtol and "
       "atol*sens_rtol/rtol), each step starting from a nominal solution integrated alone at "
       "rtol/atol (the states in the result)",
       {"shared", "accurate"}},
      {"differences", OptionType::text, std::string("internal"),
       "internal: all trajectories on one shared step sequence; external: the paper's "
       "baseline, 1 + n_s independent solves at rtol/atol, each with its own steps, "
       "perturbed by the same formulas with sqrt(eps_mach) replaced by sens_rtol",
       {"internal", "external"}},
      methods::lane_option(
          "SIMD lanes of the batched f over the 1 + n_s trajectories, for models with "
          "lanes (.ode, SBML, recorded): 0 the widest the CPU has, 1, 4 or 8; results are "
          "bitwise the same, except where f calls pow, exp and the like (libm at width 1, "
          "SLEEF at 4 and 8: an ulp apart now and then, which S*R divides by ~1e-8)"),
      bounded({"fixed_step", OptionType::real, 0.0,
               "fixed step size without error control (convergence studies); 0: adaptive steps",
               {}},
              0.0, inf),
      bounded({"h0", OptionType::real, 0.0, "first step size; 0: the HNW starting-step guess", {}},
              0.0, inf),
      bounded({"h_max", OptionType::real, 0.0, "largest step size; 0: no bound", {}}, 0.0, inf),
      methods::state_check_option(
          false,
          "off by default; dopri8s' 1.04 to 1.39 times its time on the non-stiff shared "
          "models (median 1.15), grk4as' 0.99 to 1.13 times (median 1.05); on with method auto",
          "dopri8s by itself without directions, grk4as by CVODES' BDF"),
  };
}

namespace {

double sensitivity_rtol(double given, double rtol) {
  if (given == 0.0) return std::max(rtol, 1e-7);
  const double floor = internal_delta();
  if (!(given > floor))
    throw Error(Status::option_type,
                "option 'sens_rtol' = " + number_text(given) + " must be above sqrt(eps) = " +
                    number_text(floor) +
                    ": a difference quotient is never more accurate than that (Franz & Kiehl (8))");
  return given;
}

}  // namespace

integrate::Tolerances tolerances_of(const Problem& problem) {
  integrate::Tolerances t;
  t.rtol = *problem.rtol;
  if (problem.atol.size() == 1)
    t.atol = problem.atol[0];
  else
    t.atol_per_state = problem.atol;
  return t;
}

InternalDiffSettings read_settings(const Problem& problem, const MethodOptions& options) {
  InternalDiffSettings s;
  s.directions = parse_direction_set(options.get_string("directions"));
  s.rescale = options.get_int("rescale") != 0;
  s.scaling = options.get_string("scaling") == "componentwise" ? Scaling::componentwise
                                                                : Scaling::normwise;
  s.tolerances = tolerances_of(problem);
  s.sensitivity.rtol = sensitivity_rtol(options.get_double("sens_rtol"), *problem.rtol);
  const double sens_atol = options.get_double("sens_atol");
  s.sensitivity.atol = sens_atol > 0.0 ? sens_atol : s.sensitivity.rtol;
  s.nominal = options.get_string("nominal") == "accurate" ? Nominal::accurate : Nominal::shared;
  s.differences =
      options.get_string("differences") == "external" ? Differences::external : Differences::internal;
  const std::int64_t lanes = options.get_int("lanes");
  if (lanes != 0 && lanes != 1 && lanes != 4 && lanes != 8)
    throw Error(Status::option_type,
                "option 'lanes' must be 0 (the widest), 1, 4 or 8, got " + std::to_string(lanes));
  s.lanes = static_cast<int>(lanes);
  const double fixed = options.get_double("fixed_step");
  if (fixed > 0.0) s.h_fixed = fixed;
  s.h0 = options.get_double("h0");
  s.h_max = options.get_double("h_max");
  // max_steps bounds the step attempts between two output times (the output
  // grid starts each interval's budget).
  s.max_steps = static_cast<long>(problem.max_steps);
  s.state_check = options.get_int("state_check") != 0;
  return s;
}

}  // namespace odesens::internal_diff
