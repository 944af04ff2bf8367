// pbsr and exp: the states from CVODES (BDF by default) in one-step mode,
// stopping exactly at every output time, and S carried along the solver's
// own step grid by the SensitivityPropagator. Only the nx-dimensional state
// system is integrated; S costs matrix products per step.
#include "methods/pbs/pbs_methods.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <limits>
#include <string>

#include "methods/cvodes/cvodes_session.hpp"
#include "methods/pbs/sensitivity_propagator.hpp"
#include "odesens/status.hpp"

namespace odesens::pbs {
namespace {

Result run(const Problem& problem, const MethodOptions& options, const Settings& settings) {
  cvodes::Session session(problem, options);
  session.create_integrator(problem, options);
  const std::size_t nx = session.nx(), np = session.np();
  void* mem = session.mem();
  N_Vector y = session.state();
  const double* x = N_VGetArrayPointer(y);

  SensitivityPropagator propagator(session.model(), session.params().data(), settings);
  propagator.start(problem.t0, x, session.initial_sensitivity().data());

  const auto& times = problem.output_times;
  Result result;
  result.nx = nx;
  result.np = np;
  result.times = times;
  result.s_times = times;
  result.x.resize(nx * times.size());
  result.s.resize(nx * np * times.size());
  std::int64_t grid_points = 1;
  for (std::size_t k = 0; k < times.size(); ++k) {
    sunrealtype t = problem.t0;
    if (times[k] > problem.t0) {
      session.check(CVodeSetStopTime(mem, times[k]), "CVodeSetStopTime");
      std::int64_t steps = 0;
      do {
        if (++steps > problem.max_steps)
          throw Error(Status::too_much_work,
                      "maximum number of steps (" + std::to_string(problem.max_steps) +
                          ") taken before reaching t = " + std::to_string(times[k]));
        session.check(CVode(mem, times[k], y, &t, CV_ONE_STEP), "CVode");
        propagator.advance(t, x);
        ++grid_points;
      } while (t < times[k]);
    }
    std::copy(x, x + nx, result.x.begin() + static_cast<std::ptrdiff_t>(k * nx));
    std::copy(propagator.s(), propagator.s() + nx * np,
              result.s.begin() + static_cast<std::ptrdiff_t>(k * nx * np));
  }

  cvodes::Session::add_stats(mem, result.stats);
  const Counters& c = propagator.counters();
  result.stats.jac_evals += c.jacobian_evals;
  result.stats.extra["grid_points"] = static_cast<double>(grid_points);
  result.stats.extra["pbs_intervals"] = static_cast<double>(c.pbs_intervals);
  result.stats.extra["exp_intervals"] = static_cast<double>(c.exp_intervals);
  result.stats.extra["pbs_sub_intervals"] = static_cast<double>(c.sub_intervals);
  return result;
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
