#include "integrate/events/event_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

// Executions at one instant beyond which the events are taken to loop
// (each one re-fires another): an error instead of a hang.
constexpr std::size_t kMaxExecutionsPerInstant = 100000;

}  // namespace

EventSchedule::EventSchedule(const EventContext& context) : ctx_(context) {
  if (!ctx_.system) return;
  const std::size_t ne = ctx_.system->events().size();
  trigger_.assign(ne, 0);
  trigger_now_.reset(new bool[ne > 0 ? ne : 1]);
}

void EventSchedule::start() {
  warned_.clear();
  const auto& events = ctx_.system->events();
  for (std::size_t k = 0; k < events.size(); ++k) trigger_[k] = events[k].initial_value;
}

double EventSchedule::next_execution() const {
  double next = std::numeric_limits<double>::infinity();
  for (const Pending& e : pending_) next = std::min(next, e.time);
  return next;
}

const EventSchedule::Pending* EventSchedule::first_due(double t) const {
  const Pending* first = nullptr;
  for (const Pending& e : pending_)
    if (e.time <= t && (!first || e.order < first->order)) first = &e;
  return first;
}

void EventSchedule::evaluate_triggers(double t, const double* x, const std::vector<int>& sides,
                                      ForwardJump& jump, InstantRecord& record) {
  const auto& events = ctx_.system->events();
  ctx_.system->triggers(sides.data(), trigger_now_.get());
  for (std::size_t k = 0; k < events.size(); ++k) {
    const bool now = trigger_now_[k];
    if (now && !trigger_[k]) {
      trigger_[k] = 1;
      fire(k, t, x, jump, record);
    } else if (!now && trigger_[k]) {
      trigger_[k] = 0;
      if (!events[k].persistent) cancel(k);
    }
  }
}

void EventSchedule::cancel(std::size_t k) {
  for (std::size_t q = 0; q < pending_.size();) {
    if (pending_[q].event != k) {
      ++q;
      continue;
    }
    spare_.push_back(std::move(pending_[q]));
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(q));
  }
}

void EventSchedule::fire(std::size_t k, double t, const double* x, ForwardJump& jump,
                         InstantRecord& record) {
  const EventSystem::Event& event = ctx_.system->events()[k];
  Pending e;
  if (!spare_.empty()) {  // its vectors keep their capacity
    e = std::move(spare_.back());
    spare_.pop_back();
  }
  e.values.clear();  // empty: no values from the trigger time
  e.dvalues.clear();
  e.event = k;
  e.order = fired_++;
  double d = 0.0;
  if (event.has_delay) {
    d = ctx_.system->delay(k, t, x, ctx_.p, ctx_.ws);
    if (!(d >= 0.0) || !std::isfinite(d))
      throw Error(Status::solver_failed, "event '" + event.id + "' fired at t = " +
                                             number_text(t) + " with delay " + number_text(d) +
                                             " (a delay must be finite and >= 0)");
  }
  e.time = t + d;
  if (e.time > t) scheduled_ = true;
  record.fire(k, e.order, e.time > t, x, e.point);
  if (ctx_.ns > 0) jump.execution_time_derivative(k, event.has_delay, t, x, e.dtime);
  // A delay of exactly 0 that moves with p (a fitted delay at its lower
  // bound): the execution is at the trigger's time, and the solution is
  // not differentiable in the delay there (zero_delay_that_moves()).
  if (event.has_delay && d == 0.0 && ctx_.np > 0 && (ctx_.ns > 0 || record.on()) &&
      delay_reads_p_or_x(k, t, x))
    zero_delay_ = k;
  e.may_move = ctx_.ns > 0 ? std::any_of(e.dtime.begin(), e.dtime.end(),
                                         [](double v) { return v != 0.0; })
                           : instant_moves_ || (event.has_delay && delay_reads_p_or_x(k, t, x));
  if (event.values_from_trigger_time) {  // also without delay: a lower priority may defer it
    const std::size_t m = event.targets.size();
    e.values.assign(m, 0.0);
    ctx_.system->assignment_values(k, t, x, ctx_.p, e.values.data(), ctx_.ws);
    if (ctx_.ns > 0) {
      const double* D = jump.assignment_derivative(k, t, x);
      e.dvalues.assign(D, D + m * ctx_.ns);
    }
  }
  pending_.push_back(std::move(e));
}

bool EventSchedule::delay_reads_p_or_x(std::size_t k, double t, const double* x) {
  delay_gx_.resize(ctx_.nx);
  delay_gp_.resize(ctx_.np);
  double d_t = 0.0;
  ctx_.system->delay_gradient(k, t, x, ctx_.p, &d_t, delay_gx_.data(), delay_gp_.data(), ctx_.ws);
  const auto nonzero = [](double v) { return v != 0.0; };
  return std::any_of(delay_gx_.begin(), delay_gx_.end(), nonzero) ||
         std::any_of(delay_gp_.begin(), delay_gp_.end(), nonzero);
}

double EventSchedule::priority_of(const Pending& e, double t, const double* x) const {
  return ctx_.system->events()[e.event].has_priority
             ? ctx_.system->priority(e.event, t, x, ctx_.p, ctx_.ws)
             : 0.0;
}

std::size_t EventSchedule::most_urgent(double t, const double* x) const {
  // The due event of highest priority; firing order among equals.
  std::size_t best = pending_.size();
  double best_priority = 0.0;
  for (std::size_t q = 0; q < pending_.size(); ++q) {
    const Pending& e = pending_[q];
    if (!(e.time <= t)) continue;
    const double priority = priority_of(e, t, x);
    if (best == pending_.size() || priority > best_priority ||
        (priority == best_priority && e.order < pending_[best].order)) {
      best = q;
      best_priority = priority;
    }
  }
  return best;
}

// x after executing e at t on the copy x (the values from its firing, or
// from x as it is when it executes).
void EventSchedule::assign_on_copy(const Pending& e, double t, std::vector<double>& x) {
  const std::vector<std::size_t>& targets = ctx_.system->events()[e.event].targets;
  const double* values = values_of(e, t, x.data());
  for (std::size_t r = 0; r < targets.size(); ++r) x[targets[r]] = values[r];
}

// The values e assigns: from its firing, or from x as it is now (into
// values_, which keeps its capacity).
const double* EventSchedule::values_of(const Pending& e, double t, const double* x) {
  if (!e.values.empty()) return e.values.data();
  values_.assign(ctx_.system->events()[e.event].targets.size(), 0.0);
  ctx_.system->assignment_values(e.event, t, x, ctx_.p, values_.data(), ctx_.ws);
  return values_.data();
}

// Whether executing a then b leaves other states than b then a: a trigger
// one turns false cancels the other where that is not persistent (SBML test
// case 00953), so such a pair counts as order-dependent.
bool EventSchedule::order_matters(const Pending& a, const Pending& b, double t, const double* x) {
  const auto& events = ctx_.system->events();
  if (!events[a.event].persistent || !events[b.event].persistent) return true;
  order_ab_.assign(x, x + ctx_.nx);
  order_ba_.assign(x, x + ctx_.nx);
  assign_on_copy(a, t, order_ab_);
  assign_on_copy(b, t, order_ab_);
  assign_on_copy(b, t, order_ba_);
  assign_on_copy(a, t, order_ba_);
  for (std::size_t i = 0; i < ctx_.nx; ++i) {
    const double u = order_ab_[i], v = order_ba_[i];
    // Sums taken in the other order may differ in their last bits.
    if (!(std::fabs(u - v) <= 1e-14 * (std::fabs(u) + std::fabs(v))) && !(u == v)) return true;
  }
  return false;
}

// Two due executions of different events that assign a common state, in an
// order SBML leaves open (equal priorities, or either without one; here the
// one fired first executes first, then the one declared first:
// docs/events.md), where that order changes the result: said once per pair.
void EventSchedule::warn_if_order_open(std::size_t best, double t, const double* x,
                                       EventWarnings& warnings) {
  const auto& events = ctx_.system->events();
  const Pending& a = pending_[best];
  const std::vector<std::size_t>& ta = events[a.event].targets;
  const auto assigned_by_a = [&](std::size_t i) {
    return std::find(ta.begin(), ta.end(), i) != ta.end();
  };
  for (const Pending& b : pending_) {
    if (b.event == a.event || !(b.time <= t)) continue;
    const std::vector<std::size_t>& tb = events[b.event].targets;
    if (std::none_of(tb.begin(), tb.end(), assigned_by_a)) continue;
    const std::pair<std::size_t, std::size_t> pair{std::min(a.event, b.event),
                                                   std::max(a.event, b.event)};
    if (std::find(warned_.begin(), warned_.end(), pair) != warned_.end()) continue;
    const bool prioritized = events[a.event].has_priority && events[b.event].has_priority;
    if (prioritized && priority_of(a, t, x) != priority_of(b, t, x)) continue;
    if (!order_matters(a, b, t, x)) continue;
    warned_.push_back(pair);
    std::string shared;
    for (std::size_t i : tb)
      if (assigned_by_a(i))
        shared += (shared.empty() ? "'" : ", '") + ctx_.model.state_names()[i] + "'";
    warnings.warn("events '" + events[pair.first].id + "' and '" + events[pair.second].id +
                  "' execute at one instant with " +
                  (prioritized ? "equal priorities" : "no priority on one or both") +
                  " and both assign " + shared +
                  ": SBML leaves their order open, and here it changes the result (the later "
                  "assignment stands, or the first cancels the other); the event fired first "
                  "executes first, then the one declared first");
  }
}

bool EventSchedule::execute_due(double t, double* x, RootSides& roots, ForwardJump& jump,
                                InstantRecord& record, EventWarnings& warnings) {
  bool changed = false;
  std::size_t executions = 0;
  while (true) {
    const std::size_t best = most_urgent(t, x);
    if (best == pending_.size()) break;
    if (++executions > kMaxExecutionsPerInstant)
      throw Error(Status::solver_failed,
                  "events keep firing at t = " + number_text(t) + ": more than " +
                      std::to_string(kMaxExecutionsPerInstant) +
                      " executions at one instant (an assignment re-triggers its own event?)");
    warn_if_order_open(best, t, x, warnings);
    Pending e = std::move(pending_[best]);
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(best));
    execute(e, t, x, jump, record);
    changed = changed || !ctx_.system->events()[e.event].targets.empty();
    spare_.push_back(std::move(e));
    roots.take_moved_sides(t, x);
    evaluate_triggers(t, x, roots.sides(), jump, record);
  }
  return changed;
}

void EventSchedule::execute(const Pending& e, double t, double* x, ForwardJump& jump,
                            InstantRecord& record) {
  const EventSystem::Event& event = ctx_.system->events()[e.event];
  const std::size_t m = event.targets.size();
  ++executed_;
  record.execute(e.event, e.order, e.point, !e.values.empty(), x);
  if (m == 0) return;
  const double* values = values_of(e, t, x);
  const double* D = e.dvalues.data();
  if (e.values.empty() && ctx_.ns > 0) D = jump.assignment_derivative(e.event, t, x);
  for (std::size_t r = 0; r < m; ++r) {
    const std::size_t i = event.targets[r];
    if (!std::isfinite(values[r]))
      throw Error(Status::not_finite, "event '" + event.id + "' at t = " + number_text(t) +
                                          " assigns " + number_text(values[r]) + " to '" +
                                          ctx_.model.state_names()[i] + "'");
    x[i] = values[r];
    jump.assign(i, D, r, m);
  }
}

}  // namespace odesens::integrate
