#include "integrate/events/event_runner.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"

namespace odesens::integrate {

EventRunner::EventRunner(const Model& model, const double* p, std::size_t ns, Workspace* ws,
                         const double* param_directions)
    : ctx_(model, p, ns, ws, param_directions),
      roots_(ctx_),
      schedule_(ctx_),
      jump_(ctx_),
      record_(ctx_.nx, ctx_.np),
      adjoint_(ctx_),
      coincident_(ctx_) {
  const std::size_t events = ctx_.system ? ctx_.system->events().size() : 0;
  triggers_before_.reset(new bool[events + 1]);
  triggers_after_.reset(new bool[events + 1]);
}

EventRunner::Outcome EventRunner::start(double t0, double* x, double* S) {
  Outcome outcome;
  if (!active()) return outcome;
  roots_.start(t0, x);
  root_crossed_at_.assign(ctx_.n_roots, t0);
  unresolved_pending_.clear();
  schedule_.start();
  schedule_.set_instant_moves(false);  // t0 does not move
  jump_.start(S);
  record_.begin(t0, x, ctx_.n_roots);
  if (record_.on()) ctx_.model.rhs(t0, x, ctx_.p, record_.f_minus(), ctx_.ws);
  evaluate_triggers(t0, x);
  outcome.state_changed = execute_due(t0, x);
  outcome.state_changed = settle_and_execute(t0, x) || outcome.state_changed;
  if (outcome.state_changed) roots_.place_cells(t0, x);  // an assignment may have moved u
  outcome.scheduled = schedule_.scheduled();
  if (outcome.state_changed) jump_.finish_start(S);
  if (record_.on()) {
    ctx_.model.rhs(t0, x, ctx_.p, record_.f_plus(), ctx_.ws);
    record_.end(x);
  }
  return outcome;
}

EventRunner::Outcome EventRunner::at(double t, double* x, double* S, const int* found) {
  Outcome outcome;
  if (!active()) return outcome;
  const std::string unresolved = std::move(unresolved_pending_);
  unresolved_pending_.clear();
  roots_.remember_sides();
  roots_.update_sides(t, x, found);
  for (std::size_t i = 0; found && i < ctx_.n_roots; ++i)
    if (found[i] != 0) root_crossed_at_[i] = t;
  const bool due = schedule_.next_execution() <= t;
  std::size_t cause = roots_.cause_root(found);
  if (!due && !roots_.equality_located(found) && cause == ctx_.n_roots)
    return outcome;  // no comparison changed
  // Which switch moves first with p matters only where something moves
  // with p (S carried, or an adjoint's record) and there is a p.
  if (ctx_.np > 0 && (ctx_.ns > 0 || record_.on()))
    cause = coincident_.begin(t, x, ctx_.ns > 0 ? S : nullptr, cause, roots_, warnings_);
  else
    coincident_.clear();
  if (due && cause < ctx_.n_roots && !coincident_.active()) {
    const std::size_t timed_by = cause_with_due_execution(cause);
    if (timed_by == cause) warn_if_execution_parts(t, cause);
    cause = timed_by;
  }
  if (cause < ctx_.n_roots && ctx_.system->roots()[cause].reads_state &&
      moving_instants_++ == 0)
    first_moving_root_ = ctx_.system->roots()[cause].text;
  enter_instant(t, x, S, cause);
  if (coincident_.active()) part_before(t, x);
  schedule_.begin_instant();
  evaluate_triggers(t, x);
  outcome.state_changed = execute_due(t, x);
  // An == or != located here held (failed) only at the crossing: the
  // triggers are evaluated again at the same instant on the side it
  // crossed to (so != fires now, and == is false from now on).
  if (roots_.cross_located_equalities(found)) {
    evaluate_triggers(t, x);
    outcome.state_changed = execute_due(t, x) || outcome.state_changed;
  }
  outcome.state_changed = settle_and_execute(t, x) || outcome.state_changed;
  if (outcome.state_changed && zeno_.instant(t)) warnings_.warn(zeno_.message());
  outcome.scheduled = schedule_.scheduled();
  outcome.rhs_switched = roots_.rhs_switched();
  watch_sliding(t, cause, outcome);
  if (coincident_.active()) part_after(t, x);  // before the cells move on
  if (outcome.rhs_switched) roots_.move_cells(t, x);  // f after the instant: on the new cells
  if (outcome.state_changed || outcome.rhs_switched) jump_.carry_sensitivities(t, x, S, roots_);
  if (coincident_.active() && ctx_.ns > 0)
    for (std::size_t k = 0; k < parted_.size(); ++k) S[k] += parted_[k];
  if (record_.on()) {
    roots_.rhs_on_sides(t, x, roots_.sides(), record_.f_plus());
    record_.end(x);
  }
  // Only where the crossing changed something (f, the state, a schedule):
  // a crossing inside a trigger that stays false moves nothing.
  if (!unresolved.empty() && outcome.restart() && !warned_unresolved_) {
    warned_unresolved_ = true;
    warnings_.warn(unresolved);
  }
  return outcome;
}

// A crossing where a delayed execution falls due (the window `t >= 1 &&
// t <= T` of the event itself closes as its execution, after a delay D =
// T - 1, falls due): under a perturbation of p the two part, and the
// crossing, which changes neither f nor what executes, jumps nothing,
// whether or not it moves with p. The instant moves with the execution
// (its d(time)/dp), not with the crossing: dy/dD was 0 where it is -1, and
// dy/dT -1 where it is 0.
std::size_t EventRunner::cause_with_due_execution(std::size_t cause) const {
  const auto& list = ctx_.system->roots();
  const std::vector<int>& before = roots_.sides_before();
  const std::vector<int>& after = roots_.sides();
  for (std::size_t i = 0; i < ctx_.n_roots; ++i) {
    const bool crossed = i == cause || EventSystem::holds(list[i].comparison, before[i]) !=
                                           EventSystem::holds(list[i].comparison, after[i]);
    if (crossed && list[i].switches_rhs) return cause;
  }
  ctx_.system->triggers(before.data(), triggers_before_.get());
  ctx_.system->triggers(after.data(), triggers_after_.get());
  for (std::size_t e = 0; e < ctx_.system->events().size(); ++e)
    if (!triggers_before_[e] && triggers_after_[e]) return cause;
  return ctx_.n_roots;
}

// The crossing kept as the cause (it switches f, or turns a trigger true)
// does not move with p, but the due execution may: along p they part, and
// the jumps of this instant, all taken at the crossing's time, are one of
// the one-sided derivatives or neither (a delay D = 3 from t = 1 ending as
// `t <= 4` switches f: dy/dD is -1, the instant gives 0). Said, as for
// switches that part (coincident_switches.hpp). Where the crossing moves
// too, its time derivative may be the execution's: not said.
void EventRunner::warn_if_execution_parts(double t, std::size_t cause) {
  const EventSchedule::Pending* first = schedule_.first_due(t);
  const auto& root = ctx_.system->roots()[cause];
  if (!first || root.moves || ctx_.np == 0 || !first->may_move) return;
  warnings_.warn("at t = " + number_text(t) + " an execution of event '" +
                 ctx_.system->events()[first->event].id + "' falls due as the " + root.text +
                 " is crossed, and their times move differently with p: the sensitivities "
                 "across this instant take the time derivative of the " + root.text +
                 " (one of the one-sided derivatives, or neither)");
}

// An instant that only switched f, caused by a comparison of f: a step
// of a run of crossings back and forth (sliding_watch.hpp).
void EventRunner::watch_sliding(double t, std::size_t cause, const Outcome& outcome) {
  const auto& roots = ctx_.system->roots();
  const bool switch_of_f = cause < ctx_.n_roots && roots[cause].switches_rhs &&
                           roots[cause].reads_state &&
                           roots[cause].kind == EventSystem::Root::Kind::comparison &&
                           outcome.rhs_switched && !outcome.state_changed;
  if (!switch_of_f) {
    sliding_.other_instant();
    return;
  }
  if (sliding_.switched(t, cause, roots_.sides()[cause], roots[cause].text))
    warnings_.warn(sliding_.message());
}

std::string EventRunner::sliding_switch(double t, const double* x, double reach_within) {
  return active() ? roots_.sliding_switch(t, x, reach_within) : std::string();
}

void EventRunner::check_crossing_resolved(double t, const double* x, const int* found, double h,
                                          const double* tol) {
  if (warned_unresolved_ || !active() || !found) return;
  for (std::size_t i = 0; i < ctx_.n_roots; ++i) {
    double rate = 0.0, g_tolerance = 0.0;
    if (found[i] == 0 || !roots_.crossing_motion(i, t, x, tol, rate, g_tolerance)) continue;
    // The time g had to move: the step, or all the time since this root
    // last crossed (or t0): a step cut short by an output or a restart
    // says little, nor does an instant of another root (a dose).
    const double span = std::max(h, std::fabs(t - root_crossed_at_[i]));
    if (!(std::fabs(rate) * span < g_tolerance)) continue;
    // Built only to warn: no allocation at a crossing (test_erk_allocations).
    unresolved_pending_ =
        "at t = " + number_text(t) + " the solution crossed the " + roots_of_system()[i].text +
        " where its g moves by less since it last crossed (|g'| = " + number_text(rate) +
        " over " + number_text(span) + ") than the solver's tolerance of g (" +
        number_text(g_tolerance) +
        "): where it crosses, and whether it crosses at all, lies within the solver's error "
        "(a solution that comes to the switch only asymptotically?), and so do S and "
        "gradients after it; tighter tolerances resolve a crossing that is there";
    return;
  }
}

void EventRunner::enter_instant(double t, const double* x, const double* S, std::size_t cause) {
  record_.begin(t, x, cause);
  // Without a root, the due execution fired first times the instant.
  const bool timed = cause == ctx_.n_roots && (record_.on() || ctx_.ns > 0);
  const EventSchedule::Pending* first = timed ? schedule_.first_due(t) : nullptr;
  if (first) record_.timed_by(first->order, first->point.instant);
  schedule_.set_instant_moves(cause < ctx_.n_roots ? ctx_.system->roots()[cause].moves
                                                   : first && first->may_move);
  if (ctx_.ns > 0 || record_.on()) jump_.left_rate(t, x, cause, roots_, warnings_);
  if (record_.on()) std::copy(jump_.f_minus().begin(), jump_.f_minus().end(), record_.f_minus());
  if (ctx_.ns > 0) {
    jump_.instant_time_derivative(t, x, S, cause, first ? &first->dtime : nullptr, warnings_);
    jump_.enter(S);
  }
}

// Switches crossed here whose times part from the cause's: their jumps
// before the cause into T (and the record), and after it into parted_,
// which S+ takes (coincident_switches.hpp).
void EventRunner::part_before(double t, const double* x) {
  if (ctx_.ns > 0) {
    parted_.assign(ctx_.nx * ctx_.ns, 0.0);
    coincident_.before_cause(t, x, roots_, false, parted_.data());
    jump_.shift_T(parted_.data());
  }
  if (record_.on()) coincident_.before_cause(t, x, roots_, true, record_.parted_dT());
}

void EventRunner::part_after(double t, const double* x) {
  if (ctx_.ns > 0) coincident_.after_cause(t, x, roots_, false, parted_.data());
  if (record_.on()) coincident_.after_cause(t, x, roots_, true, record_.parted_dS());
}

void EventRunner::evaluate_triggers(double t, const double* x) {
  schedule_.evaluate_triggers(t, x, roots_.sides(), jump_, record_);
  warn_if_zero_delay_moves();
}

bool EventRunner::execute_due(double t, double* x) {
  const bool changed = schedule_.execute_due(t, x, roots_, jump_, record_, warnings_);
  warn_if_zero_delay_moves();
  return changed;
}

// A delay that is 0 where it fires and moves with p: the delay cannot go
// below 0, and above it the execution moves with it (dy/dD = -1 at D =
// 1e-9 for y' = 1 and a dose, 0 at D = 0): the result takes the one-sided
// derivative of an execution held at the trigger's time.
void EventRunner::warn_if_zero_delay_moves() {
  const std::size_t k = schedule_.take_zero_delay_that_moves();
  if (k >= ctx_.system->events().size()) return;
  warnings_.warn("event '" + ctx_.system->events()[k].id +
                 "' fired with a delay of 0 that moves with p: the sensitivities hold its "
                 "execution at the trigger's time, and are not those of a delay above 0, with "
                 "which the execution moves (the solution is not differentiable in the delay "
                 "at 0)");
}

bool EventRunner::settle_and_execute(double t, double* x) {
  bool state_changed = false;
  roots_.refresh(t, x);
  // Each round settles roots an assignment of the round before put on 0;
  // a settled root keeps its side, so the rounds end (at most one a root).
  for (std::size_t round = 0; round <= ctx_.n_roots && roots_.settle_zero_sides(t, x); ++round) {
    evaluate_triggers(t, x);
    state_changed = execute_due(t, x) || state_changed;
    roots_.refresh(t, x);
  }
  return state_changed;
}

}  // namespace odesens::integrate
