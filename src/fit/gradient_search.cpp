// The quasi-Newton optimizers' shared bookkeeping (gradient_search.hpp).
#include "fit/gradient_search.hpp"

#include <algorithm>
#include <cmath>

#include "core/finite_values.hpp"
#include "io/format_double.hpp"

namespace odesens::fitting {

namespace {
constexpr int kFailedInARowToEnd = 10;
}

GradientSearch::GradientSearch(StartObjective& objective, const OptimizerOptions& options)
    : objective_(objective),
      options_(options),
      lower_(objective.free_lower()),
      upper_(objective.free_upper()) {}

GradientSearch::Outcome GradientSearch::evaluate(const double* x, double* g, double& value) {
  const std::size_t n = lower_.size();
  try {
    const PetabResult r = objective_.evaluate(x, false, false, g != nullptr);
    if (!std::isfinite(r.nlpost)) throw Error(Status::not_finite, "nlpost is not finite");
    // A point whose gradient is not finite (sqrt(B) at B = 0) is no point
    // to step from, nor to end on.
    if (g && !all_finite(r.gradient.size(), r.gradient.data()))
      throw Error(Status::not_finite,
                  "the gradient is not finite" +
                      (r.warnings.empty() ? std::string() : ": " + r.warnings.front()));
    failures_in_a_row_ = 0;
    if (g) objective_.free_entries(r.gradient, 1, g);
    value = r.nlpost;
    if (!(r.nlpost < best_)) return Outcome::value;
    best_ = r.nlpost;
    best_x_.assign(x, x + n);
    ++improvements_;
    return Outcome::new_best;
  } catch (const Error& e) {
    if (e.status() == Status::interrupted) {
      stop_reason_ = objective_.interruption_reason();
      return Outcome::interrupted;
    }
    last_failure_ = e.what();
    if (++failures_in_a_row_ >= kFailedInARowToEnd)
      stop_reason_ = std::to_string(kFailedInARowToEnd) +
                     " simulations in a row failed, the last: " + last_failure_;
    if (g) std::fill(g, g + n, 0.0);
    return Outcome::failed;
  }
}

void GradientSearch::note_start(const double* x) {
  double value = HUGE_VAL;
  const Outcome outcome = evaluate(x, nullptr, value);
  if (outcome == Outcome::new_best) --improvements_;
  if (outcome == Outcome::failed) {
    failures_in_a_row_ = 0;
    last_failure_.clear();
    stop_reason_.clear();
  }
}

bool GradientSearch::gradient_tolerance_met(const double* x, const double* g) const {
  const std::size_t n = lower_.size();
  return projected_gradient_norm(std::vector<double>(g, g + n), std::vector<double>(x, x + n),
                                 lower_, upper_) <= options_.gradient_tolerance;
}

std::string GradientSearch::gradient_tolerance_text() const {
  return "gradient tolerance reached: projected gradient below " +
         io::format_double(options_.gradient_tolerance);
}

LocalRun GradientSearch::finish(std::vector<double>& free, std::string exit_reason) const {
  LocalRun run;
  run.iterations = improvements_;
  run.exit_reason = std::move(exit_reason);
  if (!best_x_.empty()) {
    free = best_x_;
    run.value = best_;
  } else if (!last_failure_.empty() &&
             !(objective_.out_of_time() || objective_.stop_requested())) {
    run.status = Status::not_finite;
    run.exit_reason = "no point with a finite nlpost and gradient: " + last_failure_;
  }
  return run;
}

}  // namespace odesens::fitting
