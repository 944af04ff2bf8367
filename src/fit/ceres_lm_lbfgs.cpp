// ceres_lm_lbfgs: Levenberg-Marquardt on the residuals, then L-BFGS on
// nlpost from where it ends, when that is short of a stationary point.
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
#include "fit/start_objective.hpp"

namespace odesens::fitting {

LocalRun run_ceres_lm_lbfgs(StartObjective& objective, const OptimizerOptions& options,
                            std::vector<double>& free) {
  LocalRun lm = run_ceres_lm(objective, options, free);
  lm.exit_reason = "ceres_lm: " + lm.exit_reason;
  // Not where LM could not run, was stopped or used the start's budget.
  if (lm.status != Status::ok || objective.interrupted() ||
      lm.iterations >= options.max_iterations)
    return lm;
  OptimizerOptions rest = options;
  rest.max_iterations = options.max_iterations - lm.iterations;
  if (options.max_seconds > 0) rest.max_seconds = options.max_seconds - objective.seconds();
  // Time may have run out since out_of_time(); 0 would mean no limit to L-BFGS.
  if (options.max_seconds > 0 && !(rest.max_seconds > 0)) return lm;
  const LocalRun lbfgs = run_nlopt_lbfgs(objective, rest, free, options.max_iterations);
  LocalRun run;
  run.iterations = lm.iterations + lbfgs.iterations;
  run.exit_reason = lm.exit_reason + "; then nlopt_lbfgs: " + lbfgs.exit_reason;
  return run;
}

}  // namespace odesens::fitting
