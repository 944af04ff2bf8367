// ceres_lm_lbfgs: Levenberg-Marquardt on the residuals, then L-BFGS on
// nlpost from where it ends, when that is short of a stationary point;
// again while a cycle of the two still lowers nlpost.
//
// Where the Gauss-Newton matrix is a poor model of the Hessian (a large
// residual, a curved valley of parameters that act together), LM's trust
// region shrinks until each accepted step lowers the cost by less than the
// function tolerance, and the solve ends there with the projected gradient
// far above its tolerance. On Elowitz_Nature2000 every one of 35 LM starts
// ended so (gradients 0.002 to 8, none by the gradient rule); L-BFGS, whose
// curvature comes from the gradients themselves, goes on from such points
// (from the best of 329 LM ends, nllh -48.05 with a gradient of 3.2, to
// -56.49 with 0.004). Where LM did reach a stationary point, L-BFGS stops at
// its first evaluation (the gradient rule).
//
// LM from the point L-BFGS ends on can go on where LM stopped before: on
// Brannmark_JBC2010 one start ended at nlpost 144.12 by the function
// tolerance of both, and LM again from there went on to 142.23 in 171
// iterations. So the pair runs again where L-BFGS ended on its function
// or step tolerance (not by the gradient rule, a limit or a failure) and
// the cycle lowered nlpost by more than the function tolerance (relative),
// up to kMaxCycles, within the start's iterations and wall time.
#include <cmath>
#include <limits>

#include "fit/start_objective.hpp"

namespace odesens::fitting {
namespace {

constexpr int kMaxCycles = 8;

// nlpost at `free`, NaN where it cannot be simulated or was interrupted.
double nlpost_at(StartObjective& objective, const std::vector<double>& free) {
  try {
    return objective.evaluate(free.data(), false, false, false).nlpost;
  } catch (const Error&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
}

// What is left of the start's iterations and wall time; false where
// nothing is.
bool left_over(const OptimizerOptions& options, const StartObjective& objective,
               std::int64_t used, OptimizerOptions& rest) {
  rest = options;
  rest.max_iterations = options.max_iterations - used;
  if (rest.max_iterations <= 0) return false;
  if (options.max_seconds > 0) {
    rest.max_seconds = options.max_seconds - objective.seconds();
    // 0 would mean no limit.
    if (!(rest.max_seconds > 0)) return false;
  }
  return true;
}

}  // namespace

LocalRun run_ceres_lm_lbfgs(StartObjective& objective, const OptimizerOptions& options,
                            std::vector<double>& free) {
  LocalRun run;
  double before = std::numeric_limits<double>::infinity();
  for (int cycle = 0; cycle < kMaxCycles; ++cycle) {
    OptimizerOptions rest;
    if (!left_over(options, objective, run.iterations, rest)) break;
    // The exit reason is the last cycle's.
    const std::string head = cycle == 0 ? "" : "cycle " + std::to_string(cycle + 1) + ": ";
    LocalRun lm = run_ceres_lm(objective, rest, free);
    run.iterations += lm.iterations;
    run.exit_reason = head + "ceres_lm: " + lm.exit_reason;
    // Not where LM could not run, was stopped or used the start's budget.
    if (lm.status != Status::ok) {
      if (cycle == 0) run.status = lm.status;
      break;
    }
    if (objective.interrupted() || !left_over(options, objective, run.iterations, rest)) break;
    const LocalRun lbfgs = run_nlopt_lbfgs(objective, rest, free, options.max_iterations);
    run.iterations += lbfgs.iterations;
    run.exit_reason += "; then nlopt_lbfgs: " + lbfgs.exit_reason;
    // Again only from a point L-BFGS left short of a stationary one, and
    // where the cycle lowered nlpost.
    if (!lbfgs.stopped_short) break;
    const double after = objective.interrupted() ? NAN : nlpost_at(objective, free);
    if (objective.interrupted()) {  // before the next cycle
      run.exit_reason = objective.interruption_reason();
      break;
    }
    if (!(before - after > options.function_tolerance * std::fabs(after))) break;
    before = after;
    if (cycle + 1 == kMaxCycles)
      run.exit_reason += "; " + std::to_string(kMaxCycles) + " cycles done, the last still "
                         "lowering nlpost";
  }
  return run;
}

}  // namespace odesens::fitting
