#include "integrate/events/evented_solution.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {

EventedSolution::EventedSolution(RestartableSolution& inner, EventRunner& events, std::size_t nx,
                                 std::size_t ns)
    : inner_(inner),
      events_(events),
      nx_(nx),
      ns_(ns),
      t_(inner.t()),
      t_start_(inner.t()),
      y_after_(inner.size()),
      y_scratch_(inner.size()),
      g_new_(events.n_roots()),
      g_start_(events.n_roots()),
      found_(std::max<std::size_t>(events.n_roots(), 1), 0) {
  tolerance_.resize(nx);
  t_sliding_check_ = t_;
  // What happens at t0 (initial values of triggers, events due at t0).
  std::copy(inner.x(), inner.x() + inner.size(), y_after_.begin());
  if (events_.start(t_, y_after_.data(), ns_ > 0 ? y_after_.data() + nx_ : nullptr).restart())
    inner_.restart(t_, y_after_.data());
}

const double* EventedSolution::x() const {
  return restart_pending_ ? y_after_.data() : inner_.x();
}

void EventedSolution::interpolate(double t, double* out) {
  if (restart_pending_ && t >= after_from_ && t <= t_) {
    std::copy(y_after_.begin(), y_after_.end(), out);
    return;
  }
  if (t >= skipped_from_ && t <= skipped_to_) {  // the ulps the restart stepped over
    std::copy(y_skipped_.begin(), y_skipped_.end(), out);
    return;
  }
  inner_.interpolate(t, out);
}

void EventedSolution::instant(double t, double* y, const int* found) {
  if (found) check_crossing_resolved(t, y, found);
  const auto outcome = events_.at(t, y, ns_ > 0 ? y + nx_ : nullptr, found);
  if (found) located_at_ = t;
  t_ = t;
  after_from_ = t;
  if (outcome.restart()) {
    std::copy(y, y + inner_.size(), y_after_.begin());
    restart_pending_ = true;
  }
}

// A solution that comes to a switch of the states only asymptotically
// (x' = -k (x - a) above `x > a`) crosses it in the solver's steps once
// it lies within their error of it, at a g' near 0: dtau/dp = -(g_x S +
// g_p) / g' then takes any size, and so did S and gradients after it
// (cvodes_asa's gradient 302 where it is 0), where the solution may not
// cross at all. Such a crossing is one where g moves by less over the
// step, and since that root last crossed, than the solver's tolerance of
// g (EventRunner::check_crossing_resolved).
void EventedSolution::check_crossing_resolved(double t, const double* y, const int* found) {
  const double h = inner_.locates_roots() ? inner_.last_step() : step_length_;
  if (inner_.state_tolerances(y, tolerance_.data()))
    events_.check_crossing_resolved(t, y, found, h, tolerance_.data());
}

// Bisection on the inner solver's dense output: the earliest time in
// (t0, t1] where root's comparison differs from its value at t0, to the
// resolution of t. Returns the right end (the new side).
double EventedSolution::locate(std::size_t root, double t0, double t1) {
  const auto& r = events_.roots_of_system()[root];
  double lo = t0, hi = t1;
  const int side_lo = side_[root];
  for (int k = 0; k < 200 && hi - lo > 4.0 * std::numeric_limits<double>::epsilon() *
                                              std::max({std::fabs(lo), std::fabs(hi), 1.0});
       ++k) {
    const double mid = 0.5 * (lo + hi);
    inner_.interpolate(mid, y_scratch_.data());
    events_.root_values(mid, y_scratch_.data(), g_new_.data());
    if (comparison_changed(r, side_lo, g_new_[root]))
      hi = mid;
    else
      lo = mid;
  }
  // An output time within the final bracket (after the search's start) is
  // the instant, as CVODES puts a root found at an output time: the output
  // there is then the value after the instant.
  const double* end = output_times_ + output_count_;
  const double* at = std::lower_bound(
      output_times_, end, std::max(lo, std::nextafter(t0, std::numeric_limits<double>::infinity())));
  if (output_times_ && at != end && *at <= hi) return *at;
  return hi;
}

bool EventedSolution::at_output_time(double t) const {
  return output_times_ && std::binary_search(output_times_, output_times_ + output_count_, t);
}

double EventedSolution::output_time_near(double t_from, double t, double tolerance) const {
  if (!output_times_) return t;
  const double* end = output_times_ + output_count_;
  const double* at = std::lower_bound(output_times_, end, std::max(t_from, t - tolerance));
  return at != end && *at > t_from && *at < t ? *at : t;
}

bool EventedSolution::outputs_in_step(double t0, double tau, bool with_tau) {
  if (!output_times_) return false;
  const double* end = output_times_ + output_count_;
  for (const double* at = std::upper_bound(output_times_, end, t0);
       at != end && (*at < tau || (with_tau && *at == tau)); ++at) {
    inner_.interpolate(*at, y_scratch_.data());
    instant(*at, y_scratch_.data(), nullptr);
    if (restart_pending_) return true;
  }
  return false;
}

void EventedSolution::step_located(double t_limit) {
  const double t0 = inner_.t();
  find_time_switches(t0, t_limit);
  const double next = events_.next_execution();
  // A switch of t alone ahead: the solver stops one ulp before it, as in
  // step_events (CVODES too fails to step across a jump of f at tight
  // tolerances: Oliveira_NatCommun2021 at rtol 1e-10, "could not advance
  // past t = 96.99999999999999").
  const double t_switch = time_switches_.next_after(std::max(t0, fired_switch_));
  const double before_switch = std::nextafter(t_switch, -std::numeric_limits<double>::infinity());
  const bool to_switch = before_switch <= std::min(t_limit, next);
  if (to_switch && (!(before_switch > t0) || switch_within_rounding(t0, t_switch))) {
    fire_time_switch(t_switch);
    return;
  }
  // A delayed execution due where the solver stands, or a few ulps ahead of
  // it (two executions one ulp apart): CVODES does not step that little
  // ("tout too close to t0"), and the state here stands for the state there.
  if (next <= t_limit && next < t_switch && too_close_to_step(t0, next)) {
    std::copy(inner_.x(), inner_.x() + inner_.size(), y_scratch_.begin());
    hold_state_until(next);
    instant(std::max(t0, next), y_scratch_.data(), nullptr);
    return;
  }
  // The stop also where the switch lies beyond t_limit: CVODES' steps pass
  // t_limit and would cross the jump of f.
  const bool switch_ahead = std::isfinite(t_switch) && before_switch > t0;
  inner_.set_stop_time(switch_ahead ? std::min(before_switch, next) : next);
  inner_.step(t_limit);
  const double t1 = inner_.t();
  const int* found = inner_.located_roots();
  if (t1 > t0) {
    instants_here_ = 0;
  } else if (found && ++instants_here_ > kMaxInstantsAtOneTime) {
    throw Error(Status::solver_failed, "the root finder keeps stopping at t = " +
                                           number_text(t1) +
                                           " (a root function that stays at zero?)");
  }
  // A root located just after an output time may be on it: the instant is
  // put there, so that the output is the value after it, as in bisection;
  // not where an execution falls due at the root (`t <= 4` closing as an
  // execution at 4 falls due, an output at 3.999999999999999): moved, the
  // instant left the execution behind it; nor where a root of t alone has
  // not crossed yet (crossings_at).
  double tau = t1;
  if (found) {
    const double near = next > t1 ? output_time_near(t0, t1, inner_.root_tolerance()) : t1;
    const int* crossed_near = near < t1 ? crossings_at(found, near) : nullptr;
    if (crossed_near) tau = near;
    found = crossed_near ? crossed_near : crossings_at(found, t1);
  }
  const bool instant_at_tau = found || next <= t1;
  if (!outputs_in_step(t0, tau, !instant_at_tau) && instant_at_tau) {
    inner_.interpolate(tau, y_scratch_.data());
    instant(tau, y_scratch_.data(), found);
  }
  if (restart_pending_) return;
  t_ = t1;  // nothing changed: outputs come from the step
  if (to_switch && t1 == before_switch) fire_time_switch(t_switch);
}

// The located roots that crossed at tau (drop_time_roots_short_of_crossing):
// an instant of `t > 4` put on an output at 3.99999999999999, where t > 4 is
// false, fired there, and again at 4 after an output in between had read
// the side back (y doubled twice). g = 0 at 4 has crossed: the output there
// is the value after it.
const int* EventedSolution::crossings_at(const int* found, double tau) {
  std::copy(found, found + events_.n_roots(), found_.begin());
  events_.root_values(tau, inner_.x(), g_new_.data());  // roots of t alone read no x
  return drop_time_roots_short_of_crossing(events_.roots_of_system(), events_.sides(),
                                           g_new_.data(), found_.data())
             ? found_.data()
             : nullptr;
}

void EventedSolution::find_time_switches(double t0, double t_limit) {
  if (time_switches_.found()) return;
  const double t_last =
      output_count_ > 0 ? std::max(t_limit, output_times_[output_count_ - 1]) : t_limit;
  // A little past the last output: `t > T` with T on it switches one ulp
  // after it, and g = 0 at T counts as its crossing (the output the value
  // after it; with T = 1e-15 CVODES kept the root past its last output).
  time_switches_.find(events_, t0, t_last + time_rounding(t_last), inner_.x());
}

void EventedSolution::step(double t_limit) {
  try {
    step_events(t_limit);
  } catch (const Error& e) {
    if (e.status() == Status::interrupted) throw;
    // A solver that fails after events began to accumulate fails because of
    // them; one that fails on a switch f points into from both sides, because
    // the solution slides along it.
    const std::string* accumulation = events_.accumulation();
    if (accumulation) {
      if (std::string(e.what()).find(*accumulation) != std::string::npos) throw;
      throw Error(e.status(), std::string(e.what()) + ", after " + *accumulation);
    }
    const bool stuck = e.status() == Status::too_much_work || e.status() == Status::solver_failed;
    const std::string sliding = stuck ? events_.sliding_switch(inner_.t(), x()) : std::string();
    if (sliding.empty()) throw;
    throw Error(e.status(), std::string(e.what()) + ": " + sliding);
  }
  watch_for_sliding();
}

// A solution that slides along a switch of f makes the solver cross it at
// every step, or step along it without an instant where the switch lies
// within the solver's tolerance of the state: pbsr and cvodes_fsa at rtol
// 1e-5 on x' = piecewise(-k, x > a, k) took 3 million steps, under the
// step limit of each output interval, and returned S(T) = -2 and -0.5
// where it is 0, without a word. Every kSlidingCheckSteps steps the state
// is checked for a switch that f points into from both sides.
// A state that only comes close to such a switch (x' = -k (x - a) above
// x = a) is no slide: g must reach 0 along f within ten of the mean steps
// since the last check.
void EventedSolution::watch_for_sliding() {
  constexpr int kSlidingCheckSteps = 1000;
  if (++steps_since_sliding_check_ < kSlidingCheckSteps) return;
  steps_since_sliding_check_ = 0;
  const double mean_step = std::fabs(inner_.t() - t_sliding_check_) / kSlidingCheckSteps;
  t_sliding_check_ = inner_.t();
  const std::string sliding =
      events_.sliding_switch(inner_.t(), inner_.x(), 10.0 * mean_step);
  if (!sliding.empty())
    throw Error(Status::too_much_work,
                "the solver took " + std::to_string(kSlidingCheckSteps) + " steps up to t = " +
                    number_text(inner_.t()) + " next to a switch of f: " + sliding);
}

// The instant of root i in (t_from, t1] at the sides side_ and the ends'
// values g_start_, g_end_; NaN for none.
double EventedSolution::instant_of_root(std::size_t i, double t_from, double t1) {
  const EventSystem::Root& root = events_.roots_of_system()[i];
  const bool ordered = side_[i] != 0 && side_[i] != EventSystem::kUnordered && t_from < t1;
  // A g of t and p exactly 0 at the step's end (an output or stop time
  // on it) counts as a crossing there, as CVODES counts it, also for a
  // strict comparison that turns true just after. A g of the states
  // only at an output time, where the output is the value after the
  // instant in every method; elsewhere exactly 0 is rounding, which the
  // next step settles. Never a g that was 0 already: a state resting on
  // its threshold would cross it at every step.
  if (ordered && still_arriving(i, g_end_[i])) return std::numeric_limits<double>::quiet_NaN();
  // A root of t alone read already, with the switches a few ulps before it,
  // at fired_switch_ (RootSides::read_time_roots_until): a step ending
  // before it finds it on its old side, which is no crossing back.
  if (!root.reads_state && t1 <= fired_switch_) return std::numeric_limits<double>::quiet_NaN();
  // A root of t alone exactly 0 over the whole step: ulps where rounding
  // keeps g at 0 (`t/3 > 4/3` at 4 - 1 ulp and at 4), whose first counted
  // as the crossing; read back as one, its event fired again after 4.
  if (!root.reads_state && g_start_[i] == 0.0 && g_end_[i] == 0.0)
    return std::numeric_limits<double>::quiet_NaN();
  const bool zero_at_end = (!root.reads_state || at_output_time(t1)) && g_end_[i] == 0.0 &&
                           g_start_[i] != 0.0 && ordered;
  // At an output time, a g of the states left by rounding a few ulps
  // short of 0, coming to it from the step's start, is an instant there
  // too: which side the step's state rounds to depends on the method,
  // and the output must be the value after the instant in all of them.
  const bool short_at_output =
      !zero_at_end && root.reads_state && at_output_time(t1) && ordered &&
      EventSystem::side_of(g_end_[i]) == side_[i] &&
      std::fabs(g_end_[i]) < std::fabs(g_start_[i]) &&
      std::fabs(g_end_[i]) <=
          64.0 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(g_start_[i]), 1.0);
  if (short_at_output) return t1;
  if (!zero_at_end && !comparison_changed(root, side_[i], g_end_[i]))
    return std::numeric_limits<double>::quiet_NaN();
  return locate(i, t_from, t1);
}

// A g of the states that an instant took across early (on an output time
// where it rounded a few ulps short of 0: short_at_output above), still
// coming to 0 from the old side since the step's start (or no farther from
// it: one ulp of t may not move the state), or reaching it: no
// crossing back (u >= 4 of u' = 1 put on the output 3.999999999999999, then
// a step to 4 where u still rounds below 4, or is 4 for `u > 4`, and the
// event fired again after it).
bool EventedSolution::still_arriving(std::size_t i, double g) const {
  const int start_side = EventSystem::side_of(g_start_[i]);
  const int side = EventSystem::side_of(g);
  if (!events_.roots_of_system()[i].reads_state || !(side_[i] == 1 || side_[i] == -1))
    return false;
  // Or at 0 at both ends: `y > 5` taken at y = 5 on the output
  // 3.999999999999999, where y' = 1 still rounds to 5 at 4.
  if (start_side == 0 && side == 0) return true;
  return start_side == -side_[i] && (side == start_side || side == 0) &&
         std::fabs(g) <= std::fabs(g_start_[i]);
}

// The solver starts again after an instant, on the switch just after t_
// where the instant took its crossing (TimeSwitches::restart_time): f there
// is on its new branch.
void EventedSolution::restart_after_instant() {
  if (time_switches_.found()) {
    const double t_restart = time_switches_.restart_time(events_, t_, y_after_.data(), g_new_);
    if (t_restart > t_) {
      // An output in the ulps between the instant and the restart (t > a b
      // and t > 0.07 at a b = 0.06999999999999999, an output at 0.07) takes
      // the state after the instant: no step ends or starts there.
      skipped_from_ = t_;
      skipped_to_ = t_restart;
      y_skipped_ = y_after_;
      t_ = t_restart;
      fired_switch_ = t_restart;
    }
  }
  enter_sides();
  inner_.restart(t_, y_after_.data());
  restart_pending_ = false;
}

// An instant leaves t and the state within rounding of the switches it
// crossed, where f evaluated as it is may still take the old branch (`c >
// 10` and `t > 10` at c = t = 10; an instant put on an output time, with
// the state a few ulps short of the switch): the solver would start with
// f and J of the old branches. t moves on the few ulps to where the
// switches of t alone hold their new sides, the state within rounding onto
// the new sides of those of the states (RootSides::onto_sides).
void EventedSolution::enter_sides() {
  const double t_on = events_.time_onto_sides(t_, y_after_.data());
  if (t_on > t_) {
    skipped_from_ = t_;
    skipped_to_ = t_on;
    y_skipped_ = y_after_;
    t_ = t_on;
    fired_switch_ = std::max(fired_switch_, t_on);
  }
  if (events_.onto_sides(t_, y_after_.data(), y_scratch_.data()))
    std::copy(y_scratch_.begin(), y_scratch_.begin() + static_cast<std::ptrdiff_t>(nx_),
              y_after_.begin());
  // Beyond rounding on the old side: the crossing was seen on the dense
  // output only (a state that comes to the switch asymptotically, within
  // the interpolant's error of it), and the sensitivities across it rest on
  // a dtau/dp of 1 / (g' there), which may be any size.
  if (events_.off_sides(t_, y_after_.data()) && !warned_off_sides_) {
    warned_off_sides_ = true;
    events_.warn("at t = " + number_text(t_) + " a switch of f was crossed on the solver's "
                 "interpolant while the state stays on its old side (the solution comes to "
                 "the switch only within the interpolant's error): S and gradients after it "
                 "may be inaccurate; tighter tolerances or fewer output times inside such "
                 "stretches avoid it");
  }
}

std::size_t EventedSolution::earliest_root(double t_from, double t1, double& tau) {
  const std::size_t n = events_.roots_of_system().size();
  std::size_t first = n;
  tau = t1;
  root_instants_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double t_i = instant_of_root(i, t_from, t1);
    root_instants_[i] = t_i;
    if (std::isnan(t_i)) continue;
    if (t_i < tau || first == n) {
      tau = t_i;
      first = i;
    }
  }
  return first;
}

// Every root that crossed by the instant is located there (the earliest,
// any other whose own instant is the same to rounding, and any other whose
// g changed sign or whose comparison changed too); g_new_ holds the root
// values at the instant. A root whose instant is this one (t > 10 and
// t > T at T = 10, both exactly 0 at a step's end) crosses here with the
// first: its time derivative enters the jump (coincident_switches.hpp).
void EventedSolution::mark_crossed(std::size_t first, double tau) {
  const auto& roots = events_.roots_of_system();
  std::fill(found_.begin(), found_.end(), 0);
  const double rounding = time_rounding(tau);
  for (std::size_t i = 0; i < roots.size(); ++i) {
    const int before = side_[i], now = EventSystem::side_of(g_new_[i]);
    const bool same_instant = std::fabs(root_instants_[i] - tau) <= rounding;
    if (i != first && ((!same_instant && before * now >= 0 &&
                        !comparison_changed(roots[i], before, g_new_[i])) ||
                       still_arriving(i, g_new_[i])))
      continue;
    found_[i] = before != 0 && before != EventSystem::kUnordered ? -before
                                                                 : (g_new_[i] > 0.0 ? 1 : -1);
  }
}

// After the solver took the step again to end on the instant tau. Located
// on the dense output, the crossing may still lie just ahead of the step's
// state: the next step, which starts right before it, locates it again (a
// few times at most), so that the state at the instant is on the side it
// crossed to (after those few times, the step's state stands: f on either
// side is taken on its branches). True to relocate. Where tau is within
// rounding of the step's start (the solver takes no step to it), the dense
// output's state in y_scratch_ (on the new side) stands; else the step's.
bool EventedSolution::relocate_after_retake(std::size_t first, double tau) {
  const bool at_start = inner_.t() < tau;  // it stopped within rounding of tau
  events_.root_values(tau, inner_.x(), g_new_.data());
  const auto& roots = events_.roots_of_system();
  if (!at_start && !comparison_changed(roots[first], side_[first], g_new_[first]) &&
      ++relocations_ <= kMaxRelocations)
    return true;
  if (!at_start) std::copy(inner_.x(), inner_.x() + inner_.size(), y_scratch_.begin());
  return false;
}

void EventedSolution::step_events(double t_limit) {
  if (restart_pending_) {
    restart_after_instant();
    if (t_limit <= t_) return;  // an output in the ulps the restart stepped over
  }
  if (inner_.locates_roots()) {
    step_located(t_limit);
    return;
  }
  const double t0 = inner_.t();
  find_time_switches(t0, t_limit);
  events_.root_values(t0, inner_.x(), g_start_.data());
  const double next = events_.next_execution();
  double target = std::min(t_limit, next > t0 ? next : t_limit);
  // A switch of t alone before the target: the step ends one ulp before it,
  // where f is still on the step's branch (at the switch time itself f is
  // on the new one, and a step ending there fails its error test however
  // short), and the instant happens at the switch.
  const double t_switch = time_switches_.next_after(std::max(t0, fired_switch_));
  const double before_switch = std::nextafter(t_switch, -std::numeric_limits<double>::infinity());
  const bool to_switch = t_switch <= target;
  if (to_switch && (!(before_switch > t0) || switch_within_rounding(t0, t_switch))) {
    fire_time_switch(t_switch);
    return;
  }
  if (to_switch) target = before_switch;
  inner_.step(target);
  const double t1 = inner_.t();
  // A step that relocates a crossing starts right before it: the step
  // that found it tells how far g moves in a step.
  if (relocations_ == 0) step_length_ = std::fabs(t1 - t0);
  events_.root_values(t1, inner_.x(), g_new_.data());
  g_end_ = g_new_;  // locate() overwrites g_new_
  if (instants_in_step(t0, t1)) return;
  t_ = t1;
  if (next <= t1) {  // a delayed execution is due at the step's end
    std::copy(inner_.x(), inner_.x() + inner_.size(), y_scratch_.begin());
    instant(t1, y_scratch_.data(), nullptr);
    return;
  }
  if (to_switch && t1 == target) fire_time_switch(t_switch);
}

// Instants in the step (t0, t1], earliest first, until one restarts the
// solver (the step then ends there: true, t_ set) or none is left. Sides as
// the runner knows them: a g left at exactly 0 by an instant keeps the side
// it crossed to.
bool EventedSolution::instants_in_step(double t0, double t1) {
  double t_from = t0;
  side_ = events_.sides();
  for (int instants = 0;; ++instants) {
    double tau = t1;
    const std::size_t first = earliest_root(t_from, t1, tau);
    if (first == events_.roots_of_system().size()) return false;
    if (instants == kMaxInstantsInOneStep)
      throw Error(Status::solver_failed,
                  "the root finder located " + std::to_string(kMaxInstantsInOneStep) +
                      " crossings in one step, the last at t = " + number_text(tau) +
                      " (a root function that stays at zero?)");
    // Within rounding of the step's end: the instant is there (a step of a
    // few ulps to the end would be below any solver's smallest step).
    if (t1 - tau <= time_rounding(t1)) tau = t1;
    inner_.interpolate(tau, y_scratch_.data());
    events_.root_values(tau, y_scratch_.data(), g_new_.data());
    // A solver that can take the step again to end on the instant gives
    // the state there from a step (its dense output may be less accurate,
    // across a switch of f much less; an adjoint needs the step).
    const bool retaken = tau < t1 && inner_.retake(tau);
    mark_crossed(first, tau);
    if (retaken && relocate_after_retake(first, tau)) {
      t_ = tau;
      return true;
    }
    relocations_ = 0;
    instant(tau, y_scratch_.data(), found_.data());
    if (restart_pending_ || retaken) {  // the inner solver is at tau
      t_ = tau;
      return true;
    }
    if (!(tau < t1)) return false;  // nothing changed there: look on in the step
    t_from = tau;
    side_ = events_.sides();
  }
}

// The instant of a switch of t alone at t_switch, with the state one ulp
// before it (where the step ended) as the state there.
// A root of the states located at an instant put on an output time a few
// ulps before a switch of t (its state a rounding short of the threshold:
// u >= 4 of u' = 1 at u = 3.9999999999999991 on the output t = 4) took its
// new side there. The switch reads the same state, whose g is on the old
// side by that rounding: taken as a crossing back, it made the next step
// cross again, and the event fired twice (erk_adjoint; `t <= 4` ending a
// window at the same time).
bool EventedSolution::keep_settled_state_roots(double t_switch) {
  if (!switch_within_rounding(located_at_, t_switch)) return true;
  const auto& roots = events_.roots_of_system();
  bool any = false;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    if (roots[i].reads_state) found_[i] = 0;
    any = any || found_[i] != 0;
  }
  return any;
}

// An instant within rounding ahead of the solver, taken without a step
// (`t > 1e-15` from t0 = 0): an output in between is the state where the
// solver stands, as the instant's own state is (dopri8s, with no step
// since its start, failed to interpolate at 1e-15).
void EventedSolution::hold_state_until(double t_instant) {
  if (!(t_instant > inner_.t())) return;
  skipped_from_ = inner_.t();
  skipped_to_ = t_instant;
  y_skipped_.assign(inner_.x(), inner_.x() + inner_.size());
}

// A comparison that turns just after T (`t > T`) has its switch at the
// ulp after T, and g = 0 at T counts as its crossing there
// (docs/events.md): an output on T is the value after the instant. Where
// a step ended on T the roots were usually located there; fired from
// the solver at t_solver, on T or a few ulps before it, the instant's value
// is given from T on.
void EventedSolution::take_zeros_as_crossed(double t_solver, double t_switch) {
  const double at_zero = std::nextafter(t_switch, -std::numeric_limits<double>::infinity());
  if (!restart_pending_ || !(at_zero >= t_solver)) return;
  events_.root_values(at_zero, y_after_.data(), g_new_.data());  // roots of t alone
  const auto& roots = events_.roots_of_system();
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (found_[i] != 0 && (roots[i].reads_state || g_new_[i] != 0.0)) return;
  after_from_ = at_zero;
}

void EventedSolution::fire_time_switch(double t_switch) {
  const double t_read = time_switches_.last_within_rounding(t_switch);
  fired_switch_ = t_read;
  events_.read_time_roots_until(t_read);
  std::copy(inner_.x(), inner_.x() + inner_.size(), y_scratch_.begin());
  events_.root_values(t_read, y_scratch_.data(), g_new_.data());
  side_ = events_.sides();
  take_cell_ends_as_crossings(events_, t_read, y_scratch_.data(), side_, g_new_.data(),
                              g_after_switch_);
  if (switch_crossings(events_.roots_of_system(), side_, g_new_.data(), found_.data()) &&
      keep_settled_state_roots(t_switch)) {
    const double t_solver = inner_.t();
    hold_state_until(t_switch);
    instant(t_switch, y_scratch_.data(), found_.data());
    take_zeros_as_crossed(t_solver, t_switch);
    return;
  }
  // No side changed here. For a switch at t0 itself (`t <= t_end` with
  // t_end = t0) the side was settled at the start to the one after it,
  // but the inner solver evaluates f itself, and its f, Jacobians and
  // history were taken at t0 exactly, on the branch before: it starts
  // again here, on the new one. Else a one-step method uses f's value at
  // t0 over its whole first step (Fujita_SciSignal2010: EGF = EGF_0 for
  // t <= 0, dx/dEGF_0 of 1e3 where it is 0). Later switches without a
  // crossing were taken at an instant already (a second root on the same
  // time): a restart there would be a second instant, which erk_adjoint's
  // backward pass takes as a second jump.
  const bool first_after_start =
      std::nextafter(t_switch, -std::numeric_limits<double>::infinity()) <= t_start_;
  if (first_after_start && !restart_pending_) {
    t_ = t_switch;
    std::copy(y_scratch_.begin(), y_scratch_.end(), y_after_.begin());
    restart_pending_ = true;
  }
}

}  // namespace odesens::integrate
