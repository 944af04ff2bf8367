// pbsr and exp: the states from CVODES (BDF by default) in one-step mode
// (cvodes/cvodes_stepper.hpp), stopping exactly at every output time, and S carried along the solver's
// own step grid by the SensitivityPropagator. Only the nx-dimensional state
// system is integrated; S costs matrix products per step.
#include "methods/pbs/pbs_methods.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <limits>
#include <string>

#include "integrate/output_grid.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/cvodes/cvodes_session.hpp"
#include "methods/cvodes/cvodes_stepper.hpp"
#include "methods/pbs/sensitivity_propagator.hpp"
#include "odesens/status.hpp"

namespace odesens::pbs {
namespace {

Result run(const Problem& problem, const MethodOptions& options, const Settings& settings) {
  cvodes::Session session(problem, cvodes::read_session_settings(options));
  session.create_integrator(problem);
  const std::size_t nx = session.nx(), np = session.np();
  const double* x = N_VGetArrayPointer(session.state());

  SensitivityPropagator propagator(session.model(), session.params().data(), settings);
  propagator.start(problem.t0, x, session.initial_sensitivity().data());

  // The propagator follows every step of the state solve, which stops
  // exactly at each output time (S is defined on the step grid). It needs
  // nothing of CVODES: any stepper with a StepListener can drive it.
  struct Follow final : integrate::StepListener {
    explicit Follow(SensitivityPropagator& p) : propagator(p) {}
    void step_taken(double t, const double* x_end) override {
      propagator.advance(t, x_end);
      ++grid_points;
    }
    SensitivityPropagator& propagator;
    std::int64_t grid_points = 1;
  } follow(propagator);
  cvodes::CvodesStepper stepper(session, problem.t0, problem.max_steps,
                                /*stop_at_outputs=*/true, &follow);

  const auto& times = problem.output_times;
  methods::ResultBuilder out(problem, nx, np, methods::SensitivityLayout::every_output);
  for (std::size_t k = 0; k < times.size(); ++k) {
    stepper.begin_output();
    integrate::reach_outputs(stepper, &times[k], 1, stepper.grid_settings(), out.x(k));
    out.set_s(k, propagator.s());
  }

  Stats& stats = out.stats();
  cvodes::Session::add_stats(session.mem(), stats);
  const Counters& c = propagator.counters();
  stats.jac_evals += c.jacobian_evals;
  stats.extra["grid_points"] = static_cast<double>(follow.grid_points);
  stats.extra["pbs_intervals"] = static_cast<double>(c.pbs_intervals);
  stats.extra["exp_intervals"] = static_cast<double>(c.exp_intervals);
  stats.extra["pbs_sub_intervals"] = static_cast<double>(c.sub_intervals);
  return out.take();
}

}  // namespace

std::vector<OptionSpec> exp_option_specs() { return cvodes::common_option_specs(); }

std::vector<OptionSpec> pbsr_option_specs() {
  auto specs = cvodes::common_option_specs();
  specs.push_back(bounded({"eps_tol", OptionType::real, 1e-4,
                           "switch to the exponential update when the relative changes of J_x "
                           "and J_p over a step (Frobenius norms) are at most eps_tol (Eq. 45, "
                           "Algorithm 1)",
                           {}},
                          0.0, std::numeric_limits<double>::infinity()));
  specs.push_back(bounded({"n_max", OptionType::integer, std::int64_t{10},
                           "switch to the exponential update when refinement needs more "
                           "sub-intervals",
                           {}},
                          1, 1e9));
  specs.push_back(bounded({"c", OptionType::real, 10.0,
                           "refinement: n_int = ceil(c * dt * |J_x|_F) sub-intervals per step "
                           "(must be positive)",
                           {}},
                          std::numeric_limits<double>::min(),
                          std::numeric_limits<double>::infinity()));
  specs.push_back(flag_option("force_pbs", false,
                              "1: never switch, always the Peano-Baker update with refinement"));
  specs.push_back({"state_interpolation", OptionType::text, std::string("linear"),
                   "states inside a refined step: linear (the paper's choice) or hermite "
                   "(cubic, from x and dx/dt at both ends; one more f evaluation per step)",
                   {"linear", "hermite"}});
  return specs;
}

Result solve_exp(const Problem& problem, const MethodOptions& options) {
  Settings settings;
  settings.algorithm = Algorithm::exp;
  return run(problem, options, settings);
}

// pbsr's options, read once into its Settings.
Result solve_pbsr(const Problem& problem, const MethodOptions& options) {
  Settings settings;
  settings.algorithm = Algorithm::pbsr;
  settings.eps_tol = options.get_double("eps_tol");
  settings.n_max = options.get_int("n_max");
  settings.c = options.get_double("c");
  settings.force_pbs = options.get_int("force_pbs") != 0;
  settings.interpolation = options.get_string("state_interpolation") == "linear"
                               ? StateInterpolation::linear
                               : StateInterpolation::hermite;
  return run(problem, options, settings);
}

}  // namespace odesens::pbs
