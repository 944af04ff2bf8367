#include "integrate/events/evented_solution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace odesens::integrate {
namespace {

bool comparison_changed(const EventSystem::Root& root, double g_before, double g_after) {
  return EventSystem::holds(root.comparison, EventSystem::side_of(g_before)) !=
         EventSystem::holds(root.comparison, EventSystem::side_of(g_after));
}

}  // namespace

EventedSolution::EventedSolution(RestartableSolution& inner, EventRunner& events, std::size_t nx,
                                 std::size_t ns)
    : inner_(inner),
      events_(events),
      nx_(nx),
      ns_(ns),
      t_(inner.t()),
      y_after_(inner.size()),
      y_scratch_(inner.size()),
      g_(events.n_roots()),
      g_new_(events.n_roots()),
      found_(std::max<std::size_t>(events.n_roots(), 1), 0) {
  // What happens at t0 (initial values of triggers, events due at t0).
  std::copy(inner.x(), inner.x() + inner.size(), y_after_.begin());
  if (events_.start(t_, y_after_.data(), ns_ > 0 ? y_after_.data() + nx_ : nullptr).restart())
    inner_.restart(t_, y_after_.data());
  refresh_sides(t_, inner_.x());
}

const double* EventedSolution::x() const {
  return restart_pending_ ? y_after_.data() : inner_.x();
}

void EventedSolution::refresh_sides(double t, const double* y) {
  events_.root_values(t, y, g_.data());
}

void EventedSolution::interpolate(double t, double* out) {
  if (restart_pending_ && t == t_) {
    std::copy(y_after_.begin(), y_after_.end(), out);
    return;
  }
  inner_.interpolate(t, out);
}

void EventedSolution::instant(double t, double* y, const int* found) {
  const auto outcome = events_.at(t, y, ns_ > 0 ? y + nx_ : nullptr, found);
  t_ = t;
  if (outcome.restart()) {
    std::copy(y, y + inner_.size(), y_after_.begin());
    restart_pending_ = true;
  }
}

// Bisection on the inner solver's dense output: the earliest time in
// (t0, t1] where root's comparison differs from its value at t0, to the
// resolution of t. Returns the right end (the new side).
double EventedSolution::locate(std::size_t root, double t0, double t1) {
  const auto& r = events_.roots_of_system()[root];
  double lo = t0, hi = t1;
  const double g_lo = g_[root];
  for (int k = 0; k < 200 && hi - lo > 4.0 * std::numeric_limits<double>::epsilon() *
                                              std::max({std::fabs(lo), std::fabs(hi), 1.0});
       ++k) {
    const double mid = 0.5 * (lo + hi);
    inner_.interpolate(mid, y_scratch_.data());
    events_.root_values(mid, y_scratch_.data(), g_new_.data());
    if (comparison_changed(r, g_lo, g_new_[root]))
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

void EventedSolution::step(double t_limit) {
  if (restart_pending_) {
    inner_.restart(t_, y_after_.data());
    restart_pending_ = false;
    refresh_sides(t_, inner_.x());
  }
  const double t0 = inner_.t();
  const double next = events_.next_execution();
  inner_.step(std::min(t_limit, next > t0 ? next : t_limit));
  const double t1 = inner_.t();
  events_.root_values(t1, inner_.x(), g_new_.data());
  const auto& roots = events_.roots_of_system();
  // The earliest root whose comparison changed over the step.
  std::size_t first = roots.size();
  double tau = t1;
  g_end_ = g_new_;  // locate() overwrites g_new_
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (!comparison_changed(roots[i], g_[i], g_end_[i])) continue;
    const double t_i = locate(i, t0, t1);
    if (t_i < tau || first == roots.size()) {
      tau = t_i;
      first = i;
    }
  }
  if (first < roots.size()) {
    std::fill(found_.begin(), found_.end(), 0);
    inner_.interpolate(tau, y_scratch_.data());
    events_.root_values(tau, y_scratch_.data(), g_new_.data());
    found_[first] = g_new_[first] > g_[first] ? 1 : -1;
    g_ = g_new_;
    instant(tau, y_scratch_.data(), found_.data());
    if (restart_pending_) return;
    g_ = g_end_;  // nothing changed there: the step stands
  }
  t_ = t1;
  g_ = g_end_;
  if (next <= t1) {  // a delayed execution is due at the step's end
    std::copy(inner_.x(), inner_.x() + inner_.size(), y_scratch_.begin());
    instant(t1, y_scratch_.data(), nullptr);
  }
}

}  // namespace odesens::integrate
