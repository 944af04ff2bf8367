#include "methods/internal_diff/internal_diff_solve.hpp"

#include <memory>
#include <optional>
#include <vector>

#include "core/finite_values.hpp"
#include "methods/common/start_derivatives.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "methods/internal_diff/external_differences.hpp"
#include "methods/internal_diff/internal_differences.hpp"
#include "methods/internal_diff/perturbation_scale.hpp"
#include "methods/internal_diff/sensitivity_output.hpp"
#include "methods/internal_diff/solve_setup.hpp"
#include "model/initial_state_check.hpp"
#include "odesens/status.hpp"

namespace odesens::internal_diff {
namespace {

// R from Problem::sens_directions, or the option's set (with dx0/dp for
// the parameter columns: the problem's initial_sensitivity, or the model's,
// formed only when it may be non-zero).
SensitivityDirections directions_of(const Problem& problem, DirectionSet set,
                                    const std::vector<double>& p, Workspace& ws) {
  const Model& model = *problem.model;
  const std::size_t nx = model.nx(), np = model.np();
  if (!problem.sens_directions.empty())
    return SensitivityDirections(problem.sens_directions, nx, np);
  if (set != DirectionSet::states && !problem.initial_sensitivity.empty())
    return SensitivityDirections(set, nx, np, problem.initial_sensitivity);
  std::vector<double> dx0_dp;
  if (set != DirectionSet::states && problem.initial_state.empty() &&
      model.initial_state_depends_on_params()) {
    dx0_dp.resize(nx * np);
    model.initial_sensitivity(p.data(), dx0_dp.data(), &ws);
    // Said here: it would only show as a perturbed x0 that is not finite.
    if (!all_finite(dx0_dp.size(), dx0_dp.data()))
      throw Error(Status::not_finite, "the initial sensitivity dx0/dp contains NaN or Inf");
  }
  return SensitivityDirections(set, nx, np, dx0_dp);
}

// has_events: the model has events or switches of f (events_executed is
// reported then, 0 included, as by every method).
void report(const RunTally& tally, const SensitivityDirections& d, int lanes, bool has_events,
            Stats& stats) {
  stats.steps = tally.bundle.accepted;
  stats.error_test_failures = tally.bundle.rejected;
  stats.rhs_evals = tally.rhs_evaluations;
  stats.jac_evals = tally.bundle.jacobians + tally.nominal.jacobians;
  stats.linear_setups = tally.bundle.factorizations + tally.nominal.factorizations;
  stats.extra["directions"] = static_cast<double>(d.count());
  stats.extra["lanes"] = lanes;
  stats.extra["rhs_batches"] = static_cast<double>(tally.rhs_calls);
  stats.extra["rejected_steps"] = static_cast<double>(tally.bundle.rejected);
  stats.extra["reperturbations"] = static_cast<double>(tally.reperturbations);
  stats.extra["sensitivity_limited_steps"] = static_cast<double>(tally.sensitivity_limited);
  stats.extra["runs"] = static_cast<double>(tally.runs);
  if (has_events)
    stats.extra["events_executed"] = static_cast<double>(tally.events_executed);
  if (tally.nominal.steps > 0) {
    stats.extra["nominal_steps"] = static_cast<double>(tally.nominal.accepted);
    stats.extra["nominal_rejected_steps"] = static_cast<double>(tally.nominal.rejected);
  }
}

// The states' global error (methods/common/state_error_ratio.hpp). The
// explicit engine (dopri8s) solves the states again itself, without
// directions, at tolerances 10 times tighter: on the small models a CVODES
// solve's set-up alone took several times dopri8s' own solve. The
// Rosenbrock engine (grk4as) leaves it to CVODES' BDF: its fourth-order
// error does not fall tenfold with tolerances 10 times tighter (on
// Lotka-Volterra over [0, 1000] its own check read 80 where CVODES reads
// over 300, the states being as far off).
void check_states(const Problem& problem, const InternalDiffSettings& settings,
                  const BundleIntegratorFactory& factory, Result& r) {
  if (!settings.non_stiff) {
    methods::check_state_error(problem, methods::default_state_solve_settings(), "S", r);
    return;
  }
  const Problem tighter = methods::tightened(problem);
  InternalDiffSettings alone = settings;
  alone.state_check = false;
  alone.states_only = true;
  alone.lanes = 1;  // one trajectory: SIMD lanes would carry padding
  alone.h_fixed.reset();  // fixed steps again would repeat the same solve: adaptive ones
  alone.differences = Differences::internal;
  alone.nominal = Nominal::shared;
  alone.tolerances = tolerances_of(tighter);
  std::optional<Result> fine;
  try {
    fine = solve(tighter, alone, factory);
  } catch (const Error& e) {
    if (e.status() == Status::interrupted) throw;  // the caller's, not the check's
    // dopri8s' stiffness test or its step collapsing says nothing of the
    // states: BDF checks them instead, and says so where it fails too. The
    // step limit (the caller's max_steps) leaves them unchecked, as there.
    if (e.status() == Status::stiff || e.status() == Status::solver_failed ||
        e.status() == Status::not_finite) {
      methods::check_state_error(problem, methods::default_state_solve_settings(), "S", r);
      return;
    }
  }
  methods::report_state_error(problem, fine, "S", r);
}

}  // namespace

Result solve(const Problem& problem, const InternalDiffSettings& settings,
             const BundleIntegratorFactory& factory) {
  const Model& model = *problem.model;
  const std::vector<double> p = effective_params(problem);
  if (settings.nominal == Nominal::accurate && model.event_system())
    throw Error(Status::unsupported,
                "nominal=accurate does not run events or switches of f (the model has them); "
                "use nominal=shared");
  const std::unique_ptr<Workspace> ws = model.make_workspace(settings.lanes);
  std::vector<double> x0(model.nx());
  if (problem.initial_state.empty()) {
    model.initial_state(p.data(), x0.data(), ws.get());
    require_finite_initial_state(model, x0.data());
  } else {
    x0 = problem.initial_state;
  }
  const SensitivityDirections directions =
      settings.states_only ? SensitivityDirections(std::vector<double>{}, model.nx(), model.np())
                           : directions_of(problem, settings.directions, p, *ws);
  if (!settings.states_only)
    methods::require_finite_start_derivatives(
        model, problem.t0, x0, p, directions.state_part(0), directions.count(),
        settings.non_stiff ? "dopri8s" : "grk4as", ws.get());

  SensitivityOutput out(problem, directions);
  const std::vector<char> read_by_f = parameters_read_by_f(model);
  const SolveSetup setup{problem, model, settings, factory, directions, p, x0, read_by_f, *ws};
  const RunTally tally = settings.differences == Differences::external
                             ? run_external_differences(setup, out)
                             : run_internal_differences(setup, out);
  report(tally, directions, ws->lane_width(), model.event_system() != nullptr,
         out.builder().stats());
  for (const auto& w : tally.warnings) out.builder().warn(w);
  Result r = out.take();
  if (settings.state_check) check_states(problem, settings, factory, r);
  return r;
}

}  // namespace odesens::internal_diff
