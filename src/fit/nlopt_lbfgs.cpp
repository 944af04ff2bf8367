// nlopt_lbfgs: NLopt's L-BFGS (LD_LBFGS) on nlpost and its gradient, with
// the box of the estimated parameters as NLopt's bounds.
#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "fit/gradient_search.hpp"
#include "io/format_double.hpp"

namespace odesens::fitting {
namespace {

struct Context {
  GradientSearch* search = nullptr;
  StartObjective* objective = nullptr;
  nlopt_opt opt = nullptr;
  const std::vector<double>* start = nullptr;
  bool start_checked = false;
  bool forced = false;  // the objective stopped NLopt (search->stop_reason() says why)
};

// NLopt's L-BFGS moves a start value within a small distance of its bound
// onto the bound before its first evaluation. Where the value there is
// higher, or not finite (a noise parameter that LM left at 7.7e-10 above
// its bound 0, where sigma = 0), the start's own value would be lost and
// with it the point ceres_lm ended on. So where the first point differs
// from the start, the start is evaluated too (its value alone) and counts
// as a point L-BFGS found, though not as an iteration (one evaluation
// beyond NLopt's limit).
void evaluate_moved_start(Context& c, const double* x) {
  if (c.start_checked) return;
  c.start_checked = true;
  const std::vector<double>& start = *c.start;
  if (!std::equal(start.begin(), start.end(), x)) c.search->note_start(start.data());
}

double force_stop(Context& c) {
  c.forced = true;
  nlopt_force_stop(c.opt);
  return HUGE_VAL;
}

// A failed simulation is +inf with no gradient: the line search takes a
// shorter step, as it does at a point of higher value.
double nlpost_objective(unsigned, const double* x, double* gradient, void* data) {
  Context& c = *static_cast<Context*>(data);
  // Stopped or out of time: no further evaluation (one can take seconds;
  // one under way ends before its next experiment); the best point so far
  // is kept (run_nlopt_lbfgs).
  if (c.objective->interrupted()) {
    c.search->stop(c.objective->interruption_reason());
    return force_stop(c);
  }
  evaluate_moved_start(c, x);
  if (!c.search->stop_reason().empty()) return force_stop(c);
  double value = HUGE_VAL;
  const GradientSearch::Outcome outcome = c.search->evaluate(x, gradient, value);
  if (!c.search->stop_reason().empty()) return force_stop(c);
  if (outcome == GradientSearch::Outcome::failed) return HUGE_VAL;
  // Only at the best point: a line search's trial point above it may be
  // stationary too, but the start returns the best point.
  if (gradient && outcome == GradientSearch::Outcome::new_best &&
      c.search->gradient_tolerance_met(x, gradient)) {
    c.search->stop(c.search->gradient_tolerance_text());
    force_stop(c);
  }
  return value;
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
  GradientSearch search(objective, options);
  Context c;
  c.search = &search;
  c.objective = &objective;
  c.opt = opt.get();
  const std::vector<double> start = free;  // NLopt writes its points into `free`
  c.start = &start;
  nlopt_set_lower_bounds(opt.get(), search.lower().data());
  nlopt_set_upper_bounds(opt.get(), search.upper().data());
  nlopt_set_min_objective(opt.get(), nlpost_objective, &c);
  nlopt_set_ftol_rel(opt.get(), options.function_tolerance);
  nlopt_set_xtol_rel(opt.get(), options.step_tolerance);
  nlopt_set_maxeval(opt.get(),
                    static_cast<int>(std::min<std::int64_t>(options.max_iterations, 1 << 30)));
  if (options.max_seconds > 0) nlopt_set_maxtime(opt.get(), options.max_seconds);
  double value = HUGE_VAL;
  const nlopt_result result = nlopt_optimize(opt.get(), free.data(), &value);
  // A forced stop at the first evaluation is NLopt's FAILURE (its start
  // point has no finite value), not FORCED_STOP: the reason is ours.
  std::string reason;
  if (c.forced) reason = search.stop_reason();
  else if (result == NLOPT_FAILURE && !search.last_failure().empty())
    reason = "NLopt failed; the last failed simulation: " + search.last_failure();
  else reason = result_text(result, options, start_iterations);
  // The best point evaluated, whatever NLopt left in `free` (a forced stop
  // ends at the point of the last evaluation, which need not be the best);
  // the start where no point had a finite value.
  LocalRun run = search.finish(free, reason);
  if (!std::isfinite(run.value)) free = start;
  run.stopped_short = !c.forced && (result == NLOPT_FTOL_REACHED || result == NLOPT_XTOL_REACHED);
  return run;
}

}  // namespace odesens::fitting
