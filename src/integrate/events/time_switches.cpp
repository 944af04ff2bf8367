#include "integrate/events/time_switches.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace odesens::integrate {

bool comparison_changed(const EventSystem::Root& root, int before, double g_after) {
  const int after = EventSystem::side_of(g_after);
  if (EventSystem::holds(root.comparison, before) != EventSystem::holds(root.comparison, after))
    return true;
  const bool equality = root.comparison == EventSystem::Comparison::eq ||
                        root.comparison == EventSystem::Comparison::ne;
  return equality && before * after < 0;
}

bool switch_crossings(const std::vector<EventSystem::Root>& roots, const std::vector<int>& sides,
                      const double* g, int* found) {
  bool any = false;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    found[i] = 0;
    if (!comparison_changed(roots[i], sides[i], g[i])) continue;
    const int before = sides[i];
    found[i] = before != 0 && before != EventSystem::kUnordered ? -before : (g[i] > 0.0 ? 1 : -1);
    any = true;
  }
  return any;
}

namespace {

bool holds(const EventSystem::Root& root, double g) {
  return EventSystem::holds(root.comparison, EventSystem::side_of(g));
}

}  // namespace

void TimeSwitches::find(EventRunner& events, double t0, double t_end, const double* x) {
  found_ = true;
  times_.clear();
  const auto& roots = events.roots_of_system();
  if (roots.empty() || !(t_end > t0)) return;
  const std::size_t n = roots.size();
  std::vector<double> g0(n), g_mid(n), g1(n);
  g_.resize(n);
  const double t_mid = t0 + 0.5 * (t_end - t0);
  events.root_values(t0, x, g0.data());
  events.root_values(t_mid, x, g_mid.data());
  events.root_values(t_end, x, g1.data());
  for (std::size_t i = 0; i < n; ++i) {
    const EventSystem::Root& r = roots[i];
    if (r.reads_state || r.kind != EventSystem::Root::Kind::comparison) continue;
    if (!std::isfinite(g0[i]) || !std::isfinite(g_mid[i]) || !std::isfinite(g1[i])) continue;
    // Linear in t: the midpoint's value is the mean of the ends' to rounding.
    const double scale = std::max({std::fabs(g0[i]), std::fabs(g1[i]), std::fabs(g_mid[i])});
    if (std::fabs(g_mid[i] - 0.5 * (g0[i] + g1[i])) > 1e-12 * scale) continue;
    if (holds(r, g0[i]) == holds(r, g1[i])) continue;  // no change in (t0, t_end]
    const double slope = (g1[i] - g0[i]) / (t_end - t0);
    if (slope == 0.0) continue;
    const double t = first_changed_time(events, i, EventSystem::side_of(g0[i]),
                                        t0 - g0[i] / slope, x);
    if (t > t0 && t <= t_end) times_.push_back(t);
  }
  std::sort(times_.begin(), times_.end());
}

double TimeSwitches::first_changed_time(EventRunner& events, std::size_t i, int side0,
                                        double t_guess, const double* x) {
  const EventSystem::Root& r = events.roots_of_system()[i];
  const bool before = EventSystem::holds(r.comparison, side0);
  const auto changed = [&](double t) {
    events.root_values(t, x, g_.data());
    return holds(r, g_[i]) != before;
  };
  constexpr double kUp = std::numeric_limits<double>::infinity();
  double t = t_guess;
  for (int k = 0; k < 64 && !changed(t); ++k) t = std::nextafter(t, kUp);
  if (!changed(t)) return NAN;
  for (int k = 0; k < 64 && changed(std::nextafter(t, -kUp)); ++k) t = std::nextafter(t, -kUp);
  return t;
}

double TimeSwitches::next_after(double t) const {
  const auto it = std::upper_bound(times_.begin(), times_.end(), t);
  return it == times_.end() ? std::numeric_limits<double>::infinity() : *it;
}

double TimeSwitches::restart_time(EventRunner& events, double t, const double* y,
                                  std::vector<double>& g) const {
  const double t_switch = next_after(t);
  if (t_switch != std::nextafter(t, std::numeric_limits<double>::infinity())) return t;
  if (events.next_execution() <= t_switch) return t;  // a delayed execution due there
  const auto& roots = events.roots_of_system();
  g.resize(roots.size());
  events.root_values(t_switch, y, g.data());
  const std::vector<int>& sides = events.sides();
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (comparison_changed(roots[i], sides[i], g[i])) return t;  // the switch is an instant
  return t_switch;
}

}  // namespace odesens::integrate
