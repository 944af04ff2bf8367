// odesd: states and S at every output time from one solve of the
// two-derivative rule with its direct sensitivities; outputs are read from
// the quintic Hermite interpolant of the step that covers them.
#include "methods/odesd/odesd_method.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "integrate/events/evented_solution.hpp"
#include "integrate/output_grid.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/odesd/odesd_options.hpp"
#include "methods/odesd/odesd_stepper.hpp"
#include "model/initial_state_check.hpp"
#include "odesens/status.hpp"
#include "problem/initial_values.hpp"

namespace odesens::odesd {

namespace {

// The states again by odesd itself, without S, at tolerances 10 times
// tighter (about half the cost of a CVODES state solve on the small shared
// models, and like compared with like).
void check_states(const Problem& problem, Result& r) {
  Problem tighter = methods::tightened(problem);
  tighter.options.set("sensitivities", std::int64_t{0});
  tighter.options.set("state_check", std::int64_t{0});
  std::optional<Result> fine;
  try {
    fine = solve(tighter, MethodOptions("odesd", option_specs(), tighter.options));
  } catch (const Error& e) {
    if (e.status() == Status::interrupted) throw;  // the caller's, not the check's
    // odesd could not follow the solution at the tighter tolerances: BDF
    // checks the states instead, and says so where it cannot either. The
    // step limit (the caller's max_steps) leaves them unchecked, as there.
    if (e.status() == Status::solver_failed || e.status() == Status::not_finite) {
      methods::check_state_error(problem, methods::default_state_solve_settings(), "S", r);
      return;
    }
  }
  methods::report_state_error(problem, fine, "S", r);
}

// x(t0) and, with sensitivities, S(t0) = dx0/dp: the model's, or the one
// given with the initial state (zero when none is).
void initial_values(const Problem& problem, const std::vector<double>& p, bool sensitivities,
                    Workspace* ws, std::vector<double>& x0, std::vector<double>& S0) {
  const Model& model = *problem.model;
  const std::size_t nx = model.nx(), np = model.np();
  x0 = initial_state_of(problem, p, ws);
  if (problem.initial_state.empty()) require_finite_initial_state(model, x0.data());
  if (!sensitivities) return;
  S0.assign(nx * np, 0.0);
  if (!problem.initial_sensitivity.empty())
    S0 = problem.initial_sensitivity;
  else if (problem.initial_state.empty() && model.initial_state_depends_on_params() && np > 0)
    model.initial_sensitivity(p.data(), S0.data(), ws);
}

void fill_stats(const OdesdStepper& stepper, Stats& stats) {
  const StepperStats& s = stepper.stats();
  const EvaluationCounts& e = stepper.evaluations();
  const integrate::NewtonMatrixStats& m = stepper.matrix_stats();
  stats.steps = static_cast<std::int64_t>(s.steps);
  stats.rhs_evals = static_cast<std::int64_t>(e.f);
  stats.jac_evals = static_cast<std::int64_t>(e.jacobian_sets);
  stats.linear_setups = static_cast<std::int64_t>(m.factorizations + m.refactorizations);
  stats.error_test_failures = static_cast<std::int64_t>(s.error_test_failures);
  stats.extra["xddot_evals"] = static_cast<double>(e.a);
  stats.extra["parameter_jacobians"] = static_cast<double>(e.parameter_jacobians);
  stats.extra["newton_iterations"] = static_cast<double>(s.newton_iterations);
  stats.extra["newton_failures"] = static_cast<double>(s.newton_failures);
  stats.extra["singular_matrices"] = static_cast<double>(s.singular_matrices);
  stats.extra["sensitivity_refinements"] = static_cast<double>(s.sensitivity_refinements);
  stats.extra["spurious_roots"] = static_cast<double>(s.spurious_roots);
  stats.extra["step_attempts"] = static_cast<double>(s.attempts);
  stats.extra["lu_solves"] = static_cast<double>(m.solves);
  stats.extra["klu"] = stepper.backend() == integrate::NewtonBackendKind::klu ? 1.0 : 0.0;
  stats.extra["nnz_jac_x"] = static_cast<double>(stepper.nnz_j());
  stats.extra["nnz_jac_a"] = static_cast<double>(stepper.nnz_ja());
  stats.extra["sparse_parameter_jacobians"] = stepper.sparse_parameter_jacobians() ? 1.0 : 0.0;
  stats.extra["nnz_matrix"] = static_cast<double>(m.nnz_matrix);
  stats.extra["nnz_factors"] = static_cast<double>(m.nnz_factors);
}

}  // namespace

Result solve(const Problem& problem, const MethodOptions& options) {
  const Model& model = *problem.model;
  const std::size_t nx = model.nx(), np = model.np(), nt = problem.output_times.size();
  const Settings settings = read_settings(problem, options);
  const std::vector<double> p = effective_params(problem);
  auto ws = model.make_workspace(1);

  std::vector<double> x0, S0;
  initial_values(problem, p, settings.sensitivities, ws.get(), x0, S0);

  const double t_end = problem.output_times.back();
  OdesdStepper stepper(model, p.data(), ws.get(), settings, problem.t0, x0.data(),
                       settings.sensitivities ? S0.data() : nullptr, t_end);
  integrate::OutputGridSettings grid;
  grid.direction = 1;
  grid.stop_at_outputs = settings.stop_at_outputs;
  if (problem.interrupt) grid.interrupt = &problem.interrupt;
  // Events and switches of f: the stepper restarts at every instant.
  integrate::EventRunner events(model, p.data(), settings.sensitivities ? np : 0, ws.get());
  std::unique_ptr<integrate::EventedSolution> evented;
  if (events.active())
    evented = std::make_unique<integrate::EventedSolution>(stepper, events, nx,
                                                           settings.sensitivities ? np : 0);
  if (evented) evented->set_output_times(problem.output_times.data(), nt);
  integrate::SteppedSolution& solution =
      evented ? static_cast<integrate::SteppedSolution&>(*evented) : stepper;
  methods::ResultBuilder out(problem, nx, np,
                             settings.sensitivities ? methods::SensitivityLayout::every_output
                                                    : methods::SensitivityLayout::none);
  // Each output into the result as it is reached: a buffer of them all (nt copies
  // of x and S) beside the result's own S was a second large allocation,
  // whose pages every solve faulted in again (DETEST C5, a 30 x 30 S at
  // 101 outputs: 0.75 MB, 335 page faults and about 3 ms a solve of 0.6).
  integrate::reach_outputs(solution, problem.output_times.data(), nt, grid,
                           [&](std::size_t k, const double* y) {
                             out.set_x(k, y);
                             if (settings.sensitivities) out.set_s(k, y + nx);
                           });

  for (const auto& w : events.warnings()) out.warn(w);
  if (events.active())
    out.stats().extra["events_executed"] = static_cast<double>(events.events_executed());
  fill_stats(stepper, out.stats());
  Result r = out.take();
  if (options.get_int("state_check") != 0) check_states(problem, r);
  return r;
}

}  // namespace odesens::odesd
