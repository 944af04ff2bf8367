#include "integrate/events/time_switches.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/number_text.hpp"

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

bool drop_time_roots_short_of_crossing(const std::vector<EventSystem::Root>& roots,
                                       const std::vector<int>& sides, const double* g,
                                       int* found) {
  bool any = false;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (found[i] != 0 && !roots[i].reads_state && sides[i] != 0 &&
        EventSystem::side_of(g[i]) == sides[i])
      found[i] = 0;
    any = any || found[i] != 0;
  }
  return any;
}

void take_cell_ends_as_crossings(EventRunner& events, double t_switch, const double* x,
                                 const std::vector<int>& sides, double* g,
                                 std::vector<double>& scratch) {
  const auto& roots = events.roots_of_system();
  scratch.resize(roots.size());
  for (std::size_t i = 0; i < roots.size(); ++i) {
    // Side 0: u started on the end of its cell at t0 (RootSides::place_cells).
    if (roots[i].kind == EventSystem::Root::Kind::comparison || roots[i].reads_state ||
        g[i] != 0.0 || sides[i] == -1)
      continue;
    // u may stay on the integer for an ulp of t or two (its own ulp is the
    // larger): the first t after where it has left.
    double after = t_switch, value = 0.0;
    for (int k = 0; k < 64 && value == 0.0; ++k) {
      after = std::nextafter(after, std::numeric_limits<double>::infinity());
      events.root_values(after, x, scratch.data());
      value = scratch[i];
    }
    if (value < 0.0) g[i] = value;
  }
}

namespace {

bool holds(const EventSystem::Root& root, double g) {
  return EventSystem::holds(root.comparison, EventSystem::side_of(g));
}

// Whether a comparison of g has one truth over every g in [lo, hi].
bool decided_over(EventSystem::Comparison c, double lo, double hi) {
  using C = EventSystem::Comparison;
  if (std::isnan(lo) || std::isnan(hi)) return true;  // NaN at every t: side kUnordered
  switch (c) {
    case C::lt: case C::ge: return hi < 0.0 || lo >= 0.0;
    case C::le: case C::gt: return hi <= 0.0 || lo > 0.0;
    default: return hi < 0.0 || lo > 0.0 || (lo == 0.0 && hi == 0.0);  // eq, ne
  }
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
    if (r.reads_state) continue;
    if (r.kind != EventSystem::Root::Kind::comparison) {
      add_cell_crossings(events, i, t0, t_end, x);
      continue;
    }
    // Linear in t: the midpoint's value is the mean of the ends' to
    // rounding; one crossing at most, where the line says.
    const double scale = std::max({std::fabs(g0[i]), std::fabs(g1[i]), std::fabs(g_mid[i])});
    const bool linear = std::isfinite(g0[i]) && std::isfinite(g_mid[i]) &&
                        std::isfinite(g1[i]) &&
                        std::fabs(g_mid[i] - 0.5 * (g0[i] + g1[i])) <= 1e-12 * scale;
    if (linear && add_linear_crossing(events, i, t0, t_end, g0[i], g1[i], x)) continue;
    add_enclosed_crossings(events, i, t0, t_end, x);
  }
  std::sort(times_.begin(), times_.end());
  times_.erase(std::unique(times_.begin(), times_.end()), times_.end());
}

// Three values on a line do not make g linear: sin(2 pi t / 24) over a
// whole number of periods, tanh(10 (t - 5)) over [0, 10]. Where the model
// encloses g, the line's answer stands only where the enclosures decide
// the comparison on both sides of the crossing it gives (or over the span,
// where it gives none); else the caller bisects.
bool TimeSwitches::add_linear_crossing(EventRunner& events, std::size_t i, double t0,
                                       double t_end, double g0, double g1, const double* x) {
  const EventSystem::Root& r = events.roots_of_system()[i];
  const auto decided = [&](double a, double b) {
    double lo = 0.0, hi = 0.0;
    if (!(a <= b) || !events.root_range_over_time(i, a, b, &lo, &hi)) return true;
    return decided_over(r.comparison, lo, hi);
  };
  const double slope = (g1 - g0) / (t_end - t0);
  if (holds(r, g0) == holds(r, g1) || slope == 0.0) return decided(t0, t_end);
  const double t =
      first_changed_time(events, i, EventSystem::side_of(g0), t0 - g0 / slope, x);
  if (!(t > t0 && t <= t_end)) return decided(t0, t_end);
  const double before = std::nextafter(t, -std::numeric_limits<double>::infinity());
  if (!decided(t0, before) || !decided(t, t_end)) return false;
  times_.push_back(t);
  return true;
}

// u passes integer m where floor(u) or ceil(u) first takes its new value:
// rising, floor at u >= m and ceil at u > m; falling, floor at u < m and
// ceil at u <= m. The steps end before that t, where f is still on its old
// branch; at it, u may be on m exactly, which EventedSolution::
// fire_time_switch takes as the crossing.
bool TimeSwitches::add_cell_crossings(EventRunner& events, std::size_t i, double t0,
                                      double t_end, const double* x) {
  const std::size_t n = events.roots_of_system().size();
  std::vector<double> u0(n), u_mid(n), u1(n);
  events.root_arguments(t0, x, u0.data());
  events.root_arguments(t0 + 0.5 * (t_end - t0), x, u_mid.data());
  events.root_arguments(t_end, x, u1.data());
  const double a = u0[i], b = u1[i];
  const double scale = std::max({std::fabs(a), std::fabs(b), std::fabs(u_mid[i])});
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(u_mid[i]) || a == b ||
      std::fabs(u_mid[i] - 0.5 * (a + b)) > 1e-12 * scale)
    return false;
  const bool rising = b > a;
  // The integers passed: rising, floor(a) + 1 ... floor(b); falling,
  // ceil(a) - 1 ... ceil(b) (an integer u starts on is the end of the cell
  // it moves into).
  const double first = rising ? std::floor(a) + 1.0 : std::ceil(a) - 1.0;
  const double last = rising ? std::floor(b) : std::ceil(b);
  const double count = rising ? last - first + 1.0 : first - last + 1.0;
  if (!(count > 0.0)) return true;
  if (count > kMaxCellCrossings) return false;
  const double slope = (b - a) / (t_end - t0);
  const bool floor = events.roots_of_system()[i].kind == EventSystem::Root::Kind::floor;
  const auto beyond = [&](double t, double m) {
    events.root_arguments(t, x, u0.data());
    const double v = u0[i];
    return rising ? (floor ? v >= m : v > m) : (floor ? v < m : v <= m);
  };
  constexpr double kUp = std::numeric_limits<double>::infinity();
  for (double k = 0.0; k < count; k += 1.0) {
    const double m = rising ? first + k : first - k;
    double t = std::clamp(t0 + (m - a) / slope, t0, t_end);
    for (int step = 0; step < 64 && !beyond(t, m) && t < t_end; ++step) t = std::nextafter(t, kUp);
    if (!beyond(t, m)) continue;  // at t_end or past it: the steps' ends see it
    for (int step = 0; step < 64 && t > t0 && beyond(std::nextafter(t, -kUp), m); ++step)
      t = std::nextafter(t, -kUp);
    if (t > t0 && t <= t_end) times_.push_back(t);
  }
  return true;
}

// Bisection of [t0, t_end] on the model's enclosures of g over intervals
// of t: an interval whose enclosure decides the comparison holds no
// switch; one that does not is halved, down to kMinWidth of the span,
// where the ends' values say whether the comparison changes. What is
// missed: an even number of changes within kMinWidth of the span (a pulse
// of relative width 1e-11). Models without enclosures keep the old
// behaviour (the steps' ends find what they can).
void TimeSwitches::add_enclosed_crossings(EventRunner& events, std::size_t i, double t0,
                                          double t_end, const double* x) {
  const EventSystem::Root& r = events.roots_of_system()[i];
  const double min_width = (t_end - t0) * kMinWidth;
  std::vector<std::pair<double, double>> pending{{t0, t_end}};
  double lo = 0.0, hi = 0.0;
  long budget = kMaxEnclosures;
  while (!pending.empty()) {
    const auto [a, b] = pending.back();
    pending.pop_back();
    if (!events.root_range_over_time(i, a, b, &lo, &hi)) return;
    if (decided_over(r.comparison, lo, hi)) continue;
    const double m = a + 0.5 * (b - a);
    if (b - a <= min_width || !(m > a && m < b)) {
      const double t = first_change_between(events, i, a, b, x);
      if (t > t0 && t <= t_end && !blip(events, i, t, x)) times_.push_back(t);
      continue;
    }
    if (--budget < 0) {
      events.warn("the switches of t alone of the " + r.text + " in (" + number_text(t0) + ", " +
                  number_text(t_end) + "] were not all located before the solve (more than " +
                  std::to_string(kMaxEnclosures) +
                  " halvings of t): a pulse narrower than the steps may have been stepped over");
      return;
    }
    pending.push_back({m, b});
    pending.push_back({a, m});
  }
}

// A change of root i's comparison at t that is undone within rounding of
// t: the comparison differs on a few ulps only ((t - c)^2 > 0 fails at
// t = c alone, where g touches 0). Not a switch: f takes the other branch
// on no interval, and the steps need not end there (two switches an ulp
// apart left a solver one ulp short of an output on t = c).
bool TimeSwitches::blip(EventRunner& events, std::size_t i, double t, const double* x) {
  const EventSystem::Root& r = events.roots_of_system()[i];
  const double w = time_rounding(t);
  events.root_values(t - w, x, g_.data());
  const bool before = holds(r, g_[i]);
  events.root_values(t + w, x, g_.data());
  return holds(r, g_[i]) == before;
}

// The first representable t in (a, b] where root i's comparison differs
// from its value at a, by bisection on the values; NaN where the ends
// agree.
double TimeSwitches::first_change_between(EventRunner& events, std::size_t i, double a,
                                          double b, const double* x) {
  const EventSystem::Root& r = events.roots_of_system()[i];
  const auto truth = [&](double t) {
    events.root_values(t, x, g_.data());
    return holds(r, g_[i]);
  };
  const bool at_a = truth(a);
  if (truth(b) == at_a) return NAN;
  for (double m = a + 0.5 * (b - a); m > a && m < b; m = a + 0.5 * (b - a))
    (truth(m) == at_a ? a : b) = m;
  return b;
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

double TimeSwitches::last_within_rounding(double t_switch) const {
  double last = t_switch;
  for (double next = next_after(last); switch_within_rounding(t_switch, next);
       next = next_after(next))
    last = next;
  return last;
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
