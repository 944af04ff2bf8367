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
// up to kMaxCycles, within the start's iterations and wall time; and, where
// L-BFGS ran first because LM could not start, LM from wherever L-BFGS
// ended.
#include <algorithm>
#include <cmath>
#include <limits>

#include "fit/start_objective.hpp"
#include "io/format_double.hpp"

namespace odesens::fitting {
namespace {

constexpr int kMaxCycles = 8;

// What is left of the start's iterations, `used` of them charged: false
// where nothing is. The wall time is the start's own (each optimizer
// measures it from the start's beginning); false where it is up.
bool left_over(const OptimizerOptions& options, const StartObjective& objective,
               std::int64_t used, OptimizerOptions& rest) {
  rest = options;
  rest.max_iterations = options.max_iterations - used;
  if (rest.max_iterations <= 0) return false;
  return !(options.max_seconds > 0 && !(options.max_seconds - objective.seconds() > 0));
}

}  // namespace

LocalRun run_ceres_lm_lbfgs(StartObjective& objective, const OptimizerOptions& options,
                            std::vector<double>& free) {
  LocalRun run;
  // Iterations charged against the start's limit: LM's steps and every
  // evaluation of L-BFGS (whose limit counts evaluations), so that cycles
  // do not multiply the start's budget.
  std::int64_t charged = 0;
  double before = std::numeric_limits<double>::infinity();
  for (int cycle = 0; cycle < kMaxCycles; ++cycle) {
    OptimizerOptions rest;
    if (!left_over(options, objective, charged, rest)) {
      if (cycle == 0)  // the limit came before the first step: said, as ceres_lm says it
        run.exit_reason = "Maximum solver time reached: the start's " +
                          io::format_double(options.max_seconds) + " s are used up";
      break;
    }
    const std::string head = cycle == 0 ? "" : "cycle " + std::to_string(cycle + 1) + ": ";
    LocalRun lm = run_ceres_lm(objective, rest, free, options.max_iterations);
    run.iterations += lm.iterations;
    charged += lm.iterations;
    // A start whose least-squares form is not finite (a sigma below
    // 5.5e-12, where sqrt(log(2 pi sigma^2) + C) has no value: Blasi_CellSystems2016's
    // noise parameter reaches 1e-12) may still have a finite nlpost: L-BFGS,
    // which needs no such form, runs first, and LM from where it ends.
    const bool lbfgs_first = cycle == 0 && lm.status == Status::not_finite;
    if (lm.status != Status::ok && !lbfgs_first) {
      if (cycle == 0) {  // the start could not run
        run.status = lm.status;
        run.exit_reason = "ceres_lm: " + lm.exit_reason;
      } else {  // the cycle before stands, with its point
        run.exit_reason += "; " + head + "ceres_lm could not run from there: " + lm.exit_reason;
      }
      break;
    }
    // The exit reason is the last cycle's.
    run.exit_reason = head + "ceres_lm: " + lm.exit_reason;
    // Not where LM was stopped or used the start's budget. An interruption
    // met here, after LM ended on its own, is said as well.
    if (objective.interrupted()) {
      if (lm.exit_reason != objective.interruption_reason())
        run.exit_reason += "; " + objective.interruption_reason();
      break;
    }
    if (!left_over(options, objective, charged, rest)) break;
    const std::int64_t evaluations = objective.evaluations();
    const std::vector<double> lm_end = free;
    const LocalRun lbfgs = run_nlopt_lbfgs(objective, rest, free, options.max_iterations);
    run.iterations += lbfgs.iterations;
    charged += std::max(lbfgs.iterations, objective.evaluations() - evaluations);
    if (lbfgs_first && !std::isfinite(lbfgs.value)) {  // no finite point for L-BFGS either
      run.status = lm.status;
      run.exit_reason += "; nlopt_lbfgs found no point of finite nlpost from there either";
      break;
    }
    run.exit_reason += "; then nlopt_lbfgs: " + lbfgs.exit_reason;
    if (lbfgs.status != Status::ok) {  // no finite point: LM's end stands
      free = lm_end;
      break;
    }
    // Again only from a point L-BFGS left short of a stationary one, and
    // where the cycle lowered nlpost; where L-BFGS ran first, LM from
    // wherever it ended (its line search may give up where LM goes on: on
    // Blasi_CellSystems2016, from a noise parameter of 1e-12, L-BFGS gave up
    // at nllh 111.09 and LM from there reached -1090.56 in 0.06 s).
    if (!lbfgs.stopped_short && !lbfgs_first) break;
    const double after = lbfgs.value;
    if (!(before - after > options.function_tolerance * std::fabs(after))) break;
    before = after;
    if (cycle + 1 == kMaxCycles)
      run.exit_reason += "; " + std::to_string(kMaxCycles) +
                         " cycles done, the last still lowering nlpost";
  }
  return run;
}

}  // namespace odesens::fitting
