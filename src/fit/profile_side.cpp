// Tracing one side of a profile (profile_side.hpp).
#include "fit/profile_side.hpp"

#include <algorithm>
#include <cmath>

#include "fit/start_objective.hpp"
#include "io/format_double.hpp"

namespace odesens::fitting {
namespace {

// The steps' sizes on the parameter's scale (profile.hpp): ranges that are
// infinite (a lin parameter without bounds) fall back to unit scale.
struct Steps {
  double first, min, max;
};

Steps step_sizes(const ProfileOptions& o, double lower, double upper) {
  const double range = upper - lower;
  const double unit = std::isfinite(range) && range > 0 ? range : 10.0;
  Steps s;
  s.max = o.max_step > 0 ? o.max_step : unit / 10.0;
  s.min = std::min(o.min_step, s.max);
  s.first = std::clamp(o.first_step > 0 ? o.first_step : unit / 100.0, s.min, s.max);
  return s;
}

// The value where the straight line through (a, fa) and (b, fb) reaches f.
double crossing(double a, double fa, double b, double fb, double f) {
  if (!(fb > fa)) return b;
  return a + (b - a) * (f - fa) / (fb - fa);
}

}  // namespace

SideTrace trace_side(const PetabProblem& problem, const std::vector<double>& best,
                     double best_nlpost, std::size_t i, int direction,
                     const ProfileOptions& options, double threshold,
                     const std::atomic<bool>* stop) {
  const double bound = direction < 0 ? problem.lower_scaled()[i] : problem.upper_scaled()[i];
  Steps steps = step_sizes(options, problem.lower_scaled()[i], problem.upper_scaled()[i]);
  std::vector<bool> fixed(best.size(), false);
  fixed[i] = true;
  SideTrace side;
  std::vector<double> x = best;  // the last accepted point: the next start
  double step = steps.first, value = best[i], f = best_nlpost;
  while (side.points.size() < options.max_points) {
    if (stop && stop->load()) {
      side.end = ProfileEnd::stopped;
      side.limit = value;
      return side;
    }
    if (value == bound) {
      side.end = ProfileEnd::bound;
      side.limit = value;
      return side;
    }
    double next = direction < 0 ? std::max(value - step, bound) : std::min(value + step, bound);
    // A step below the spacing of doubles at value (a range a few ulps
    // wide) would retrace value until max_points: the next double instead.
    if (next == value) next = std::nextafter(value, bound);
    std::vector<double> x0 = x;
    x0[i] = next;
    const StartResult r = optimize(problem, x0, fixed, options.optimizer, stop);
    // Stopped or interrupted during it: r is not an optimum of the others,
    // and not a point of the profile.
    const auto& interrupt = options.optimizer.evaluation.interrupt;
    if ((stop && stop->load()) || (interrupt && interrupt())) {
      side.end = ProfileEnd::stopped;
      side.limit = value;
      return side;
    }
    const bool failed = r.status != Status::ok || !std::isfinite(r.nlpost);
    const double rise = r.nlpost - f;
    // Out of time before any evaluation ended: a shorter step takes as long.
    const bool timed_out = failed && fitting::ended_without_value_in_time(r.exit_reason);
    // A failed simulation or too steep a rise: a shorter step, retaken.
    if ((failed || rise > 0.5 * threshold) && step > steps.min && !timed_out) {
      step = std::max(step / 2, steps.min);
      continue;
    }
    if (failed) {
      side.end = ProfileEnd::failed;
      side.limit = value;
      side.failure = "at " + io::format_double(next) + ": " +
                     (r.exit_reason.empty() ? std::string("nlpost ") + io::format_double(r.nlpost)
                                            : r.exit_reason);
      return side;
    }
    side.points.push_back({next, r.nlpost, r.end, r.exit_reason});
    if (r.nlpost - best_nlpost >= threshold) {
      side.end = ProfileEnd::crossed;
      side.limit = crossing(value, f, next, r.nlpost, best_nlpost + threshold);
      return side;
    }
    if (rise < 0.2 * threshold) step = std::min(2 * step, steps.max);
    x = r.end;
    value = next;
    f = r.nlpost;
  }
  side.end = ProfileEnd::max_points;
  side.limit = value;
  return side;
}

}  // namespace odesens::fitting
