// nlopt_lbfgs: NLopt's L-BFGS (LD_LBFGS) on nlpost and its gradient, with
// the box of the estimated parameters as NLopt's bounds.
#include <nlopt.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/finite_values.hpp"
#include "fit/start_objective.hpp"
#include "io/format_double.hpp"

namespace odesens::fitting {
namespace {

// Consecutive failed simulations after which a start ends: the line search
// has backed off as far as it will.
constexpr int kMaxFailuresInARow = 10;

struct Context {
  StartObjective* objective = nullptr;
  const OptimizerOptions* options = nullptr;
  std::vector<double> lower, upper;
  nlopt_opt opt = nullptr;
  double best = HUGE_VAL;
  std::vector<double> best_x;  // where `best` was found
  std::int64_t improvements = 0;
  int failures_in_a_row = 0;
  std::string last_failure;
  std::string stop_reason;  // why the objective forced the stop; empty: NLopt stopped
};

void force_stop(Context& c, const std::string& reason) {
  c.stop_reason = reason;
  nlopt_force_stop(c.opt);
}

// A failed simulation is +inf with no gradient: the line search takes a
// shorter step, as it does at a point of higher value.
double nlpost_objective(unsigned n, const double* x, double* gradient, void* data) {
  Context& c = *static_cast<Context*>(data);
  // Stopped or out of time: no further evaluation (one can take seconds;
  // one under way ends before its next experiment); the best point so far
  // is kept (run_nlopt_lbfgs).
  if (c.objective->interrupted()) {
    force_stop(c, c.objective->interruption_reason());
    return HUGE_VAL;
  }
  try {
    const PetabResult r = c.objective->evaluate(x, false, false, gradient != nullptr);
    if (!std::isfinite(r.nlpost)) throw Error(Status::not_finite, "nlpost is not finite");
    // A point whose gradient is not finite (sqrt(B) at B = 0) is no point
    // to step from, nor to end on.
    if (gradient && !all_finite(r.gradient.size(), r.gradient.data()))
      throw Error(Status::not_finite,
                  "the gradient is not finite" +
                      (r.warnings.empty() ? std::string() : ": " + r.warnings.front()));
    c.failures_in_a_row = 0;
    const bool best = r.nlpost < c.best;
    if (best) {
      c.best = r.nlpost;
      c.best_x.assign(x, x + n);
      ++c.improvements;
    }
    if (gradient) {
      c.objective->free_entries(r.gradient, 1, gradient);
      const std::vector<double> g(gradient, gradient + n), at(x, x + n);
      // Only at the best point: a line search's trial point above it may be
      // stationary too, but the start returns the best point.
      if (best &&
          projected_gradient_norm(g, at, c.lower, c.upper) <= c.options->gradient_tolerance)
        force_stop(c, "gradient tolerance reached: projected gradient below " +
                          io::format_double(c.options->gradient_tolerance));
    }
    return r.nlpost;
  } catch (const Error& e) {
    if (e.status() == Status::interrupted) {
      force_stop(c, c.objective->interruption_reason());
      return HUGE_VAL;
    }
    c.last_failure = e.what();
    if (++c.failures_in_a_row >= kMaxFailuresInARow)
      force_stop(c, std::to_string(kMaxFailuresInARow) +
                        " simulations in a row failed, the last: " + c.last_failure);
    if (gradient)
      for (unsigned i = 0; i < n; ++i) gradient[i] = 0.0;
    return HUGE_VAL;
  }
}

std::string result_text(nlopt_result r, const OptimizerOptions& o, std::int64_t start_iterations) {
  switch (r) {
    case NLOPT_FTOL_REACHED:
      return "function tolerance reached: relative change of nlpost below " +
             io::format_double(o.function_tolerance);
    case NLOPT_XTOL_REACHED:
      return "step tolerance reached: relative step below " + io::format_double(o.step_tolerance);
    case NLOPT_MAXEVAL_REACHED:
      if (start_iterations > 0)
        return "the start's " + std::to_string(start_iterations) + " iterations are used up (" +
               std::to_string(o.max_iterations) + " evaluations were left)";
      return "maximum number of iterations (evaluations) reached: " +
             std::to_string(o.max_iterations);
    case NLOPT_MAXTIME_REACHED: return "maximum time reached";
    case NLOPT_ROUNDOFF_LIMITED: return "round-off limited: no further progress possible";
    case NLOPT_SUCCESS: return "converged";
    // LD_LBFGS (Luksan's PLIS) says FAILURE when its line search ends
    // without a lower value, also along the steepest descent it restarts
    // with.
    case NLOPT_FAILURE:
      return "NLopt's L-BFGS gave up (FAILURE): its line search found no lower nlpost, "
             "even along steepest descent (lbfgsb may go on from there)";
    default: return std::string("NLopt ended: ") + nlopt_result_to_string(r);
  }
}

}  // namespace

LocalRun run_nlopt_lbfgs(StartObjective& objective, const OptimizerOptions& options,
                         std::vector<double>& free, std::int64_t start_iterations) {
  const auto n = static_cast<unsigned>(free.size());
  std::unique_ptr<nlopt_opt_s, void (*)(nlopt_opt)> opt(nlopt_create(NLOPT_LD_LBFGS, n),
                                                        nlopt_destroy);
  if (!opt) throw Error(Status::out_of_memory, "NLopt could not create its optimizer");
  Context c;
  c.objective = &objective;
  c.options = &options;
  c.lower = objective.free_lower();
  c.upper = objective.free_upper();
  c.opt = opt.get();
  nlopt_set_lower_bounds(opt.get(), c.lower.data());
  nlopt_set_upper_bounds(opt.get(), c.upper.data());
  nlopt_set_min_objective(opt.get(), nlpost_objective, &c);
  nlopt_set_ftol_rel(opt.get(), options.function_tolerance);
  nlopt_set_xtol_rel(opt.get(), options.step_tolerance);
  nlopt_set_maxeval(opt.get(), static_cast<int>(std::min<std::int64_t>(options.max_iterations, 1 << 30)));
  if (options.max_seconds > 0) nlopt_set_maxtime(opt.get(), options.max_seconds);
  double value = HUGE_VAL;
  const nlopt_result result = nlopt_optimize(opt.get(), free.data(), &value);
  // The best point evaluated, whatever NLopt left in `free` (a forced stop
  // ends at the point of the last evaluation, which need not be the best).
  if (!c.best_x.empty()) free = c.best_x;
  LocalRun run;
  run.iterations = c.improvements;
  // A forced stop at the first evaluation is NLopt's FAILURE (its start
  // point has no finite value), not FORCED_STOP: the reason is ours.
  if (!c.stop_reason.empty()) run.exit_reason = c.stop_reason;
  else if (result == NLOPT_FAILURE && !c.last_failure.empty())
    run.exit_reason = "NLopt failed; the last failed simulation: " + c.last_failure;
  else run.exit_reason = result_text(result, options, start_iterations);
  run.stopped_short =
      c.stop_reason.empty() && (result == NLOPT_FTOL_REACHED || result == NLOPT_XTOL_REACHED);
  if (!c.best_x.empty()) run.value = c.best;
  // Not one evaluation had a finite nlpost and gradient (NLopt may call
  // that success): the start failed there, and says why.
  if (c.best_x.empty() && !c.last_failure.empty() &&
      !(objective.out_of_time() || objective.stop_requested())) {
    run.status = Status::not_finite;
    run.exit_reason = "no point with a finite nlpost and gradient: " + c.last_failure;
  }
  return run;
}

}  // namespace odesens::fitting
