// The times at which root functions of t alone (not of the states) change
// their comparison: a rate that switches at t = t_2, or at t = 4 + T0, or
// a pulse `abs(t - 6.1) < 0.02`, is known before the solve gets there. A
// one-step solver that does not locate roots itself steps across such a
// jump of f only with steps of the jump's own size (odesd's collapsed at
// t = 97 on Oliveira_NatCommun2021), and every solver that locates roots
// by the signs at its steps' ends steps over a pulse narrower than a step
// (S of its dose 0 where it is 0.0124); stopping the steps at these times
// instead lets each instant happen at a step's end. Found once per solve:
// a root linear in t from its values at three times; any other from the
// model's enclosures of g over intervals of t (EventSystem::
// root_range_over_time), by bisection; floor and ceil of t alone where their
// argument is linear in t, at each integer it passes (stepped across such a
// jump of f, a state root switching at the same instant was located before
// it on the dense output, and its jump of S taken on the old branch).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "integrate/events/event_runner.hpp"

namespace odesens::integrate {

// Whether root's comparison differs between side `before` (EventSystem::
// side_of) and the value g_after; an equality or inequality also when g
// changes sign without passing through 0 exactly.
bool comparison_changed(const EventSystem::Root& root, int before, double g_after);

// At the instant of a switch of t alone: found[i] the direction root i
// crossed in (+1 rising, -1 falling, 0 unchanged), from each root's side
// before the instant and its value g at it. Whether any root crossed.
bool switch_crossings(const std::vector<EventSystem::Root>& roots, const std::vector<int>& sides,
                      const double* g, int* found);

// A root of t alone has an exact time: one an integrator located (found,
// its flags) where g is still on the side held (sides) has not crossed
// (CVODES reports roots within its root tolerance, about 100 ulps of t,
// and again after a restart short of them). Clears those flags; whether
// any root is left.
bool drop_time_roots_short_of_crossing(const std::vector<EventSystem::Root>& roots,
                                       const std::vector<int>& sides, const double* g,
                                       int* found);
// At a switch of t alone at t_switch: floor(u) and ceil(u) of t take their
// new value where u lands on an integer exactly (floor rising, ceil
// falling), while g, u's distance into its cell, is 0 there and turns
// negative one ulp later. Such a root crosses at t_switch: its g in `g` (the
// roots' values at t_switch, `sides` before it) becomes its value one ulp
// later. Else a state root that switches as f takes its new branch (ceil(c x)
// of an x that starts to grow there) is taken first, with f before it on
// the old branch. scratch: n_roots.
void take_cell_ends_as_crossings(EventRunner& events, double t_switch, const double* x,
                                 const std::vector<int>& sides, double* g,
                                 std::vector<double>& scratch);

// A switch of t alone at t_switch within a few ulps after t: a step there
// is below any solver's resolution of t (CVODES: "the output time lies too
// close to the start time"; floor(10 - t) turns 5 ulps after floor(t) at
// t = 1), so the switch fires at once, with the state at t.
// 64 ulps of t at |t| >= 1 (64 eps below): what the events take as one
// time.
inline double time_rounding(double t) {
  return 64.0 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(t), 1.0);
}
inline bool switch_within_rounding(double t, double t_switch) {
  return t_switch - t <= time_rounding(t);
}

// Whether CVODES refuses a step from a to b as "tout too close to t0":
// |b - a| below 2 units of roundoff of max(|a|, |b|) (cvHin), with a margin.
// Relative, as CVODES' own: a span of 1e-15 from t = 0 is a span to solve.
inline bool too_close_to_step(double a, double b) {
  return std::fabs(b - a) <=
         8.0 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(a), std::fabs(b));
}

class TimeSwitches {
 public:
  // The crossings in (t0, t_end]; x: any state (the roots do not read it).
  void find(EventRunner& events, double t0, double t_end, const double* x);
  bool found() const { return found_; }
  // The earliest crossing after t, or +infinity.
  double next_after(double t) const;
  // The last crossing within rounding of t_switch (switch_within_rounding),
  // t_switch itself where there is none: switches of t a few ulps apart
  // (t > a b with a b = 0.06999999999999999, and t > 0.07) are one instant,
  // whose roots are read there (coincident_switches.hpp orders their jumps).
  double last_within_rounding(double t_switch) const;
  // Where a solver restarts after an instant at t with the state y: at the
  // switch one ulp after t, where there is one, no root's comparison
  // changes there against the sides after the instant, and no delayed
  // execution is due by then; else at t. A comparison that turns just
  // after T (`t <= T`, `t > T`) has g = 0 at T, which counts as its
  // crossing there (the output at T is the value after it), but f at T is
  // still on its old branch: a solver restarted at T stepped across the
  // jump of f, and a stiff one could not (step size collapsed at T). g:
  // scratch of n_roots.
  double restart_time(EventRunner& events, double t, const double* y,
                      std::vector<double>& g) const;

 private:
  // Intervals of t the search for one root's crossings may halve (a pulse
  // `abs(t - 6.1) < 0.02` over [0, 10] takes 66, the five peaks of
  // sin(3 t) > 0.999 there 314), each root its own: a root with thousands
  // of pulses does not leave the next unsearched; and the width, relative
  // to the span, below which an interval is not halved again.
  static constexpr long kMaxEnclosures = 20000;
  static constexpr double kMinWidth = 0x1p-36;
  // floor(t) over [0, 1000] passes 1000 integers; floor(1e6 t) far more,
  // and a list of them would outgrow the solve: left to the steps' ends.
  static constexpr double kMaxCellCrossings = 10000;

  // A root whose values g0, g1 at t0, t_end and at the midpoint lie on a
  // line: its crossing; false where the enclosures contradict the line.
  bool add_linear_crossing(EventRunner& events, std::size_t i, double t0, double t_end,
                           double g0, double g1, const double* x);
  // A floor or ceil root of t alone whose u is linear in t: each time u
  // passes an integer (false, and none, where u is not linear or passes
  // more than kMaxCellCrossings).
  bool add_cell_crossings(EventRunner& events, std::size_t i, double t0, double t_end,
                          const double* x);
  // Any other root of t alone: its crossings by bisection on enclosures.
  void add_enclosed_crossings(EventRunner& events, std::size_t i, double t0, double t_end,
                              const double* x);
  // A change of root i's comparison at t undone within rounding of t.
  bool blip(EventRunner& events, std::size_t i, double t, const double* x);
  double first_change_between(EventRunner& events, std::size_t i, double a, double b,
                              const double* x);
  // The first representable time near t_guess where root i's comparison
  // differs from its value at t0, or NaN when none within a few ulps.
  double first_changed_time(EventRunner& events, std::size_t i, int side0, double t_guess,
                            const double* x);

  bool found_ = false;
  std::vector<double> times_;  // sorted
  std::vector<double> g_;
};

}  // namespace odesens::integrate
