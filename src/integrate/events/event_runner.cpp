#include "integrate/events/event_runner.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

using Comparison = EventSystem::Comparison;

// Executions at one instant beyond which the events are taken to loop
// (each one re-fires another): an error instead of a hang.
constexpr std::size_t kMaxExecutionsPerInstant = 100000;

int sign_of(double v) { return EventSystem::side_of(v); }
bool holds(Comparison c, int side) { return EventSystem::holds(c, side); }

// A floor or ceil root's g: how far u is inside its cell [k, k + 1],
// negative once u has left it at either end (NaN where u is).
double into_cell(double u, double k) {
  const double above_lower = u - k, below_upper = k + 1.0 - u;
  return above_lower < below_upper ? above_lower : below_upper;
}

}  // namespace

EventRunner::EventRunner(const Model& model, const double* p, std::size_t ns, Workspace* ws,
                         const double* param_directions)
    : model_(model),
      p_(p),
      param_directions_(param_directions),
      nx_(model.nx()),
      np_(model.np()),
      ns_(ns),
      ws_(ws) {
  system_ = model.event_system();
  if (!system_) return;
  if (ns_ != 0 && ns_ != np_ && !param_directions_)
    throw Error(Status::internal_error, "EventRunner: S must have 0 or np columns");
  const std::size_t ne = system_->events().size();
  n_roots_ = system_->roots().size();
  for (std::size_t i = 0; i < n_roots_; ++i)
    if (system_->roots()[i].kind != EventSystem::Root::Kind::comparison) stepped_.push_back(i);
  cell_.assign(n_roots_, 0.0);
  u_.assign(n_roots_, 0.0);
  g_.assign(n_roots_, 0.0);
  g_before_.assign(n_roots_, 0.0);
  sides_.assign(n_roots_, 0);
  sides_before_.assign(n_roots_, 0);
  trigger_.assign(ne, 0);
  trigger_now_.reset(new bool[ne > 0 ? ne : 1]);
  std::size_t m = 0;
  for (const auto& e : system_->events()) m = std::max(m, e.targets.size());
  dtau_.assign(ns_, 0.0);
  T_.assign(nx_ * ns_, 0.0);
  f_plus_.assign(nx_, 0.0);
  f_minus_.assign(nx_, 0.0);
  x_left_.assign(nx_, 0.0);
  g_left_.assign(n_roots_, 0.0);
  gx_.assign(nx_, 0.0);
  gp_.assign(np_, 0.0);
  hx_.assign(std::max<std::size_t>(m, 1) * nx_, 0.0);
  hp_.assign(std::max<std::size_t>(m, 1) * np_, 0.0);
  ht_.assign(std::max<std::size_t>(m, 1), 0.0);
  D_.assign(std::max<std::size_t>(m, 1) * ns_, 0.0);
  f_settle_.assign(nx_, 0.0);
}

void EventRunner::root_values(double t, const double* x, double* g) {
  if (n_roots_ == 0) return;
  system_->root_values(t, x, p_, g, ws_);
  for (std::size_t i : stepped_) g[i] = into_cell(g[i], cell_[i]);
}

void EventRunner::set_cell(std::size_t i, double k) {
  cell_[i] = k;
  g_[i] = into_cell(u_[i], k);
}

// The value of floor or ceil root i on its cell (f on the cell's branch):
// k for floor, k + 1 for ceil, whatever u is within rounding of the ends.
double EventRunner::cell_value(std::size_t i) const {
  return system_->roots()[i].kind == EventSystem::Root::Kind::floor ? cell_[i] : cell_[i] + 1.0;
}

// Each floor or ceil root's cell: the integers u is between. On an
// integer, the cell u moves into along f, where floor(u) and ceil(u) keep
// the value the integrator sees from t on (the value at the integer itself
// holds at t alone); the root is then on its cell's end, where its
// comparison (ge) holds, so nothing switches as u moves in (floor(a t) and
// ceil(a t) from t0 = 0). Where u does not move, floor's value holds above
// the integer and ceil's below.
void EventRunner::place_cells(double t, const double* x) {
  if (stepped_.empty()) return;
  system_->root_values(t, x, p_, u_.data(), ws_);
  bool have_rate = false;
  for (std::size_t i : stepped_) {
    const double u = u_[i];
    double k = std::floor(u);
    if (u == k) {
      if (!have_rate) model_.rhs(t, x, p_, f_plus_.data(), ws_);
      have_rate = true;
      double u_t = 0.0;
      system_->root_gradient(i, t, x, p_, &u_t, gx_.data(), gp_.data(), ws_);
      for (std::size_t j = 0; j < nx_; ++j)
        if (gx_[j] != 0.0) u_t += gx_[j] * f_plus_[j];
      const bool floor = system_->roots()[i].kind == EventSystem::Root::Kind::floor;
      if (u_t < 0.0 || (u_t == 0.0 && !floor)) k = u - 1.0;
    }
    set_cell(i, k);
    sides_[i] = sign_of(g_[i]);
  }
}

// After an instant, each floor or ceil root whose u left its cell (the
// integrator located the crossing, or an assignment moved u) takes the
// next cell on the side u left at, or the cell u is in when an assignment
// moved it further. u is then on the new cell's end (update_sides took a
// located crossing only where u had left the cell), and keeps the side it
// crossed to: inside.
void EventRunner::move_cells(double t, const double* x) {
  if (stepped_.empty()) return;
  system_->root_values(t, x, p_, u_.data(), ws_);
  const auto& roots = system_->roots();
  for (std::size_t i : stepped_) {
    const double u = u_[i], k = cell_[i];
    if (holds(roots[i].comparison, sides_[i]) || !std::isfinite(u)) continue;
    set_cell(i, u >= k + 0.5 ? std::max(k + 1.0, std::floor(u))
                             : std::min(k - 1.0, std::ceil(u) - 1.0));
    sides_[i] = 1;
  }
}

double EventRunner::along(const double* grad_p, std::size_t stride, std::size_t j) const {
  if (!param_directions_) return grad_p[j * stride];
  const double* r = param_directions_ + j * np_;
  double v = 0.0;
  for (std::size_t k = 0; k < np_; ++k)
    if (r[k] != 0.0) v += grad_p[k * stride] * r[k];
  return v;
}

void EventRunner::warn(const std::string& message) {
  if (std::find(warnings_.begin(), warnings_.end(), message) == warnings_.end())
    warnings_.push_back(message);
}

double EventRunner::next_execution() const {
  double next = std::numeric_limits<double>::infinity();
  for (const Pending& e : pending_) next = std::min(next, e.time);
  return next;
}

void EventRunner::update_sides(double t, const double* x, const int* found) {
  root_values(t, x, g_.data());
  const auto& roots = system_->roots();
  bool have_rate = false;
  for (std::size_t i = 0; i < n_roots_; ++i) {
    // A floor or ceil root reported while u is still inside its cell (a
    // root located a little early on a dense output, with the step taken
    // again to end there) has not switched yet: f and the jump of S wait
    // for u to cross, where it is located again.
    const bool stepped = roots[i].kind != EventSystem::Root::Kind::comparison;
    if (found && found[i] != 0 && !(stepped && g_[i] > 0.0)) {
      // Located by the integrator: the side it crossed to, except that an
      // equality holds (and an inequality fails) at the crossing itself.
      const bool equality = roots[i].comparison == Comparison::eq ||
                            roots[i].comparison == Comparison::ne;
      sides_[i] = equality ? 0 : (found[i] > 0 ? 1 : -1);
    } else if (g_[i] == 0.0 && !stepped && (sides_[i] == 1 || sides_[i] == -1) &&
               motion_side(i, t, x, have_rate) == sides_[i]) {
      // At exactly 0 but moving on into the side it is on: settled there at
      // an instant just now (an output at the same time), not a crossing.
    } else {
      sides_[i] = sign_of(g_[i]);
    }
  }
}

EventRunner::Outcome EventRunner::start(double t0, double* x, double* S) {
  Outcome outcome;
  if (!active()) return outcome;
  place_cells(t0, x);
  root_values(t0, x, g_.data());
  for (std::size_t i = 0; i < n_roots_; ++i) sides_[i] = sign_of(g_[i]);
  const auto& events = system_->events();
  for (std::size_t k = 0; k < events.size(); ++k) trigger_[k] = events[k].initial_value;
  std::fill(dtau_.begin(), dtau_.end(), 0.0);
  if (ns_ > 0) std::copy(S, S + nx_ * ns_, T_.begin());
  begin_record(t0, x, n_roots_);
  if (recording_) model_.rhs(t0, x, p_, instant_.f_minus.data(), ws_);
  evaluate_triggers(t0, x);
  outcome.state_changed = execute_due(t0, x);
  outcome.state_changed = settle_and_execute(t0, x) || outcome.state_changed;
  if (outcome.state_changed) place_cells(t0, x);  // an assignment may have moved u
  outcome.scheduled = scheduled_;
  if (outcome.state_changed && ns_ > 0) std::copy(T_.begin(), T_.end(), S);
  if (recording_) {
    model_.rhs(t0, x, p_, instant_.f_plus.data(), ws_);
    instant_.x_plus.assign(x, x + nx_);
  }
  return outcome;
}

EventRunner::Outcome EventRunner::at(double t, double* x, double* S, const int* found) {
  Outcome outcome;
  if (!active()) return outcome;
  sides_before_ = sides_;
  update_sides(t, x, found);
  const bool due = next_execution() <= t;
  bool equality_located = false;  // == and != change just after their crossing too
  for (std::size_t i = 0; found && i < n_roots_; ++i)
    equality_located = equality_located ||
                       (found[i] != 0 && (system_->roots()[i].comparison == Comparison::eq ||
                                          system_->roots()[i].comparison == Comparison::ne));
  if (!due && !equality_located && cause_root(found) == n_roots_)
    return outcome;  // no comparison changed
  const std::size_t cause = cause_root(found);
  begin_record(t, x, cause);
  if (recording_ && cause == n_roots_) {
    // As instant_time_derivative: the due execution fired first times it.
    const Pending* first = nullptr;
    for (const Pending& e : pending_)
      if (e.time <= t && (!first || e.order < first->order)) first = &e;
    if (first && first->instant != instants_) {
      instant_.timed_by_firing = true;
      instant_.timed_by = first->order;
    }
  }
  if (ns_ > 0 || recording_) left_rate(t, x, cause);
  if (recording_) std::copy(f_minus_.begin(), f_minus_.end(), instant_.f_minus.begin());
  if (ns_ > 0) {
    instant_time_derivative(t, x, S, cause);
    for (std::size_t j = 0; j < ns_; ++j)
      for (std::size_t i = 0; i < nx_; ++i)
        T_[i + j * nx_] = S[i + j * nx_] + (dtau_[j] != 0.0 ? f_minus_[i] * dtau_[j] : 0.0);
  }
  scheduled_ = false;
  evaluate_triggers(t, x);
  outcome.state_changed = execute_due(t, x);
  // An == or != located here held (failed) only at the crossing: just after
  // it g has the sign it crossed to, and the triggers are evaluated again
  // at the same instant (so != fires now, and == is false from now on).
  bool equality_crossed = false;
  const auto& all_roots = system_->roots();
  for (std::size_t i = 0; i < n_roots_; ++i)
    if (found && found[i] != 0 && sides_[i] == 0 &&
        (all_roots[i].comparison == Comparison::eq || all_roots[i].comparison == Comparison::ne)) {
      sides_[i] = found[i] > 0 ? 1 : -1;
      equality_crossed = true;
    }
  if (equality_crossed) {
    evaluate_triggers(t, x);
    outcome.state_changed = execute_due(t, x) || outcome.state_changed;
  }
  outcome.state_changed = settle_and_execute(t, x) || outcome.state_changed;
  outcome.scheduled = scheduled_;
  const auto& roots = system_->roots();
  for (std::size_t i = 0; i < n_roots_; ++i)
    if (roots[i].switches_rhs &&
        holds(roots[i].comparison, sides_before_[i]) != holds(roots[i].comparison, sides_[i]))
      outcome.rhs_switched = true;
  if (outcome.rhs_switched) move_cells(t, x);  // f after the instant: on the new cells
  if (outcome.state_changed || outcome.rhs_switched)
    carry_sensitivities(t, x, S);
  if (recording_) {
    rhs_on_sides(t, x, sides_, instant_.f_plus.data());
    instant_.x_plus.assign(x, x + nx_);
  }
  return outcome;
}

int EventRunner::motion_side(std::size_t i, double t, const double* x, bool& have_rate) {
  if (!have_rate) rhs_on_sides(t, x, sides_, f_settle_.data());
  have_rate = true;
  double rate = 0.0;
  system_->root_gradient(i, t, x, p_, &rate, gx_.data(), gp_.data(), ws_);
  for (std::size_t j = 0; j < nx_; ++j)
    if (gx_[j] != 0.0) rate += gx_[j] * f_settle_[j];
  const int side = sign_of(rate);
  return side == 1 || side == -1 ? side : 0;
}

bool EventRunner::settle_zero_sides(double t, const double* x) {
  const auto& roots = system_->roots();
  bool have_rate = false, changed = false;
  for (std::size_t i = 0; i < n_roots_; ++i) {
    if (roots[i].kind != EventSystem::Root::Kind::comparison || g_[i] != 0.0) continue;
    const int side = motion_side(i, t, x, have_rate);
    if (side == 0) continue;  // resting on the threshold, or NaN
    const Comparison c = roots[i].comparison;
    changed = changed || holds(c, side) != holds(c, sides_[i]);
    sides_[i] = side;
  }
  return changed;
}

bool EventRunner::settle_and_execute(double t, double* x) {
  bool state_changed = false;
  root_values(t, x, g_.data());
  // Each round settles roots an assignment of the round before put on 0;
  // a settled root keeps its side, so the rounds end (at most one a root).
  for (std::size_t round = 0; round <= n_roots_ && settle_zero_sides(t, x); ++round) {
    evaluate_triggers(t, x);
    state_changed = execute_due(t, x) || state_changed;
    root_values(t, x, g_.data());
  }
  return state_changed;
}

// A root whose comparison changed its truth, one the integrator located
// first; a side that changes without changing the comparison (from exactly
// 0 at t0 to the sign g moves to) changes nothing.
std::size_t EventRunner::cause_root(const int* found) const {
  const auto& roots = system_->roots();
  auto changed = [&](std::size_t i) {
    return holds(roots[i].comparison, sides_[i]) != holds(roots[i].comparison, sides_before_[i]);
  };
  for (std::size_t i = 0; i < n_roots_; ++i)
    if (found && found[i] != 0 && changed(i)) return i;
  for (std::size_t i = 0; i < n_roots_; ++i)
    if (changed(i)) return i;
  return n_roots_;
}

void EventRunner::rhs_on_sides(double t, const double* x, const std::vector<int>& sides,
                               double* out) {
  const auto& branches = system_->branch_roots();
  if (branches.empty()) {
    model_.rhs(t, x, p_, out, ws_);
    return;
  }
  branch_truth_.resize(branches.size());
  for (std::size_t i = 0; i < branches.size(); ++i) {
    const std::size_t r = branches[i];
    branch_truth_[i] = system_->roots()[r].kind != EventSystem::Root::Kind::comparison
                           ? cell_value(r)
                           : holds(system_->roots()[r].comparison, sides[r]) ? 1.0 : 0.0;
  }
  system_->rhs_points_on_branches(1, &t, x, p_, branch_truth_.data(), out, ws_);
}

// f just before the instant. Where a root put it there f may jump, and
// f(t, x) may already be on the new branch (the root is located to within
// rounding, and an integrator's last step may be as short as that). Where
// the model evaluates f on given branches, f is taken at the instant on
// the branches of the sides before it; else (or where that f is not
// finite) at (t - delta, x - delta f(t, x)), for the first of a few
// growing delta where the root function is back on its old side, an error
// O(delta), delta >= 1e-10 |t|.
void EventRunner::left_rate(double t, const double* x, std::size_t cause) {
  if (cause == n_roots_) {
    model_.rhs(t, x, p_, f_minus_.data(), ws_);
    return;
  }
  // f on the branches of before the instant, at the instant itself: exact
  // where the model evaluates f on given branches and f is finite there.
  rhs_on_sides(t, x, sides_before_, f_minus_.data());
  bool finite_there = true;
  for (double v : f_minus_) finite_there = finite_there && std::isfinite(v);
  const auto& branches = system_->branch_roots();
  const bool cause_on_branches =
      !system_->roots()[cause].switches_rhs ||
      std::find(branches.begin(), branches.end(), cause) != branches.end();
  if (finite_there && !branches.empty() && cause_on_branches) return;
  model_.rhs(t, x, p_, f_minus_.data(), ws_);
  std::copy(f_minus_.begin(), f_minus_.end(), f_plus_.begin());
  const double scale = std::max(std::fabs(t), 1.0);
  for (double delta = 1e-10 * scale; delta <= 1e-3 * scale; delta *= 10.0) {
    const double t_left = t - delta;
    for (std::size_t i = 0; i < nx_; ++i) x_left_[i] = x[i] - delta * f_plus_[i];
    root_values(t_left, x_left_.data(), g_left_.data());
    const auto c = system_->roots()[cause].comparison;
    if (holds(c, sign_of(g_left_[cause])) != holds(c, sides_before_[cause])) continue;
    model_.rhs(t_left, x_left_.data(), p_, f_minus_.data(), ws_);
    bool finite = true;
    for (double v : f_minus_) finite = finite && std::isfinite(v);
    if (finite) return;
  }
  model_.rhs(t, x, p_, f_minus_.data(), ws_);
  warn("at t = " + number_text(t) + " the solution does not reach the " +
       system_->roots()[cause].text +
       " from its old side along f (it slides along the switch?); the sensitivities across "
       "this instant use f after it");
}

void EventRunner::instant_time_derivative(double t, const double* x, const double* S,
                                          std::size_t cause) {
  std::fill(dtau_.begin(), dtau_.end(), 0.0);
  if (cause == n_roots_) {
    const Pending* first = nullptr;
    for (const Pending& e : pending_)
      if (e.time <= t && (!first || e.order < first->order)) first = &e;
    if (first) dtau_ = first->dtime;
    return;
  }
  double g_t = 0.0;
  system_->root_gradient(cause, t, x, p_, &g_t, gx_.data(), gp_.data(), ws_);
  double rate = g_t;
  for (std::size_t i = 0; i < nx_; ++i)
    if (gx_[i] != 0.0) rate += gx_[i] * f_minus_[i];
  // dtau/dp_j = -(g_x s_j + g_p_j) / (g_x f- + g_t)
  bool moves = false;
  for (std::size_t j = 0; j < ns_; ++j) {
    double num = along(gp_.data(), 1, j);
    for (std::size_t i = 0; i < nx_; ++i) num += gx_[i] * S[i + j * nx_];
    dtau_[j] = num;
    moves = moves || num != 0.0;
  }
  if (!moves) return;  // the instant does not move with p
  if (!(std::fabs(rate) > 0.0) || !std::isfinite(rate)) {
    std::fill(dtau_.begin(), dtau_.end(), 0.0);
    warn("at t = " + number_text(t) + " the solution touches the " +
         system_->roots()[cause].text +
         " without crossing it (dg/dt = 0): the sensitivities across this instant are not "
         "defined and were carried as if the instant did not move with p");
    return;
  }
  for (std::size_t j = 0; j < ns_; ++j) dtau_[j] = -dtau_[j] / rate;
}

void EventRunner::evaluate_triggers(double t, const double* x) {
  const auto& events = system_->events();
  system_->triggers(sides_.data(), trigger_now_.get());
  for (std::size_t k = 0; k < events.size(); ++k) {
    const bool now = trigger_now_[k];
    if (now && !trigger_[k]) {
      trigger_[k] = 1;
      fire(k, t, x);
    } else if (!now && trigger_[k]) {
      trigger_[k] = 0;
      if (!events[k].persistent)
        pending_.erase(std::remove_if(pending_.begin(), pending_.end(),
                                      [k](const Pending& e) { return e.event == k; }),
                       pending_.end());
    }
  }
}

void EventRunner::fire(std::size_t k, double t, const double* x) {
  const EventSystem::Event& event = system_->events()[k];
  Pending e;
  e.event = k;
  e.order = fired_++;
  double d = 0.0;
  if (event.has_delay) {
    d = system_->delay(k, t, x, p_, ws_);
    if (!(d >= 0.0) || !std::isfinite(d))
      throw Error(Status::solver_failed, "event '" + event.id + "' fired at t = " +
                                             number_text(t) + " with delay " + number_text(d) +
                                             " (a delay must be finite and >= 0)");
  }
  e.time = t + d;
  if (e.time > t) scheduled_ = true;
  if (recording_) {
    e.x_fired.assign(x, x + nx_);
    e.source = executed_here_;
    e.instant = instants_;
    if (e.time > t) instant_.fired.push_back({k, e.order, executed_here_, e.x_fired});
  }
  if (ns_ > 0) {
    e.dtime = dtau_;
    if (event.has_delay) {
      // dtau_e = dtau + d_t dtau + d_x T + d_p
      double d_t = 0.0;
      system_->delay_gradient(k, t, x, p_, &d_t, gx_.data(), gp_.data(), ws_);
      for (std::size_t j = 0; j < ns_; ++j) {
        double v = dtau_[j] * (1.0 + d_t) + along(gp_.data(), 1, j);
        for (std::size_t i = 0; i < nx_; ++i) v += gx_[i] * T_[i + j * nx_];
        e.dtime[j] = v;
      }
    }
  }
  if (event.values_from_trigger_time) {  // also without delay: a lower priority may defer it
    const std::size_t m = event.targets.size();
    e.values.assign(m, 0.0);
    system_->assignment_values(k, t, x, p_, e.values.data(), ws_);
    if (ns_ > 0) {
      total_assignment_derivative(k, t, x, D_.data());
      e.dvalues.assign(D_.begin(), D_.begin() + static_cast<std::ptrdiff_t>(m * ns_));
    }
  }
  pending_.push_back(std::move(e));
}

void EventRunner::total_assignment_derivative(std::size_t k, double t, const double* x,
                                              double* D) {
  const std::size_t m = system_->events()[k].targets.size();
  system_->assignment_jacobians(k, t, x, p_, ht_.data(), hx_.data(), hp_.data(), ws_);
  for (std::size_t j = 0; j < ns_; ++j)
    for (std::size_t r = 0; r < m; ++r) {
      double v = along(hp_.data() + r, m, j) + ht_[r] * dtau_[j];
      for (std::size_t i = 0; i < nx_; ++i) v += hx_[r + i * m] * T_[i + j * nx_];
      D[r + j * m] = v;
    }
}

bool EventRunner::execute_due(double t, double* x) {
  bool changed = false;
  std::size_t executions = 0;
  while (true) {
    // The due event of highest priority; firing order among equals.
    std::size_t best = pending_.size();
    double best_priority = 0.0;
    for (std::size_t q = 0; q < pending_.size(); ++q) {
      const Pending& e = pending_[q];
      if (!(e.time <= t)) continue;
      const double priority = system_->events()[e.event].has_priority
                                  ? system_->priority(e.event, t, x, p_, ws_)
                                  : 0.0;
      if (best == pending_.size() || priority > best_priority ||
          (priority == best_priority && e.order < pending_[best].order)) {
        best = q;
        best_priority = priority;
      }
    }
    if (best == pending_.size()) break;
    if (++executions > kMaxExecutionsPerInstant)
      throw Error(Status::solver_failed,
                  "events keep firing at t = " + number_text(t) + ": more than " +
                      std::to_string(kMaxExecutionsPerInstant) +
                      " executions at one instant (an assignment re-triggers its own event?)");
    const Pending e = std::move(pending_[best]);
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(best));
    execute(e, t, x);
    changed = changed || !system_->events()[e.event].targets.empty();
    // The roots whose g the assignment moved take their new sides; the
    // others keep the side the integrator located them on.
    g_before_ = g_;
    root_values(t, x, g_.data());
    for (std::size_t i = 0; i < n_roots_; ++i)
      if (g_[i] != g_before_[i]) sides_[i] = sign_of(g_[i]);
    evaluate_triggers(t, x);
  }
  return changed;
}

void EventRunner::execute(const Pending& e, double t, double* x) {
  const EventSystem::Event& event = system_->events()[e.event];
  const std::size_t m = event.targets.size();
  ++executed_;
  if (recording_) {
    const bool fired_values = !e.values.empty();
    instant_.steps.push_back({e.event,
                              fired_values ? e.x_fired : std::vector<double>(x, x + nx_),
                              fired_values ? e.source : executed_here_, e.order,
                              e.instant != instants_, fired_values});
  }
  ++executed_here_;
  if (m == 0) return;
  std::vector<double> values = e.values;
  const double* D = e.dvalues.data();
  if (values.empty()) {
    values.assign(m, 0.0);
    system_->assignment_values(e.event, t, x, p_, values.data(), ws_);
    if (ns_ > 0) {
      total_assignment_derivative(e.event, t, x, D_.data());
      D = D_.data();
    }
  }
  for (std::size_t r = 0; r < m; ++r) {
    const std::size_t i = event.targets[r];
    if (!std::isfinite(values[r]))
      throw Error(Status::not_finite, "event '" + event.id + "' at t = " + number_text(t) +
                                          " assigns " + number_text(values[r]) + " to '" +
                                          model_.state_names()[i] + "'");
    x[i] = values[r];
    for (std::size_t j = 0; j < ns_; ++j) T_[i + j * nx_] = D[r + j * m];
  }
}

void EventRunner::begin_record(double t, const double* x, std::size_t cause) {
  executed_here_ = 0;
  if (!recording_) return;
  instant_.t = t;
  instant_.x_minus.assign(x, x + nx_);
  instant_.cause = cause;
  instant_.f_minus.assign(nx_, 0.0);
  instant_.f_plus.assign(nx_, 0.0);
  instant_.steps.clear();
  instant_.fired.clear();
  instant_.timed_by_firing = false;
  ++instants_;
}

EventRunner::DelayedAdjoint& EventRunner::owed_to(std::vector<DelayedAdjoint>& owed,
                                                 std::size_t order, std::size_t m) {
  for (DelayedAdjoint& d : owed)
    if (d.order == order) {
      if (d.nu.size() < m) d.nu.resize(m, 0.0);
      return d;
    }
  owed.push_back({order, 0.0, std::vector<double>(m, 0.0)});
  return owed.back();
}

void EventRunner::adjoint_jump(const Instant& instant, const double* lambda_plus,
                               double* lambda_minus, double* gradient, double cost_jump,
                               std::vector<DelayedAdjoint>* owed) {
  const std::size_t E = instant.steps.size();
  const double t = instant.t;
  const bool delays = instant.timed_by_firing || !instant.fired.empty() ||
                      std::any_of(instant.steps.begin(), instant.steps.end(),
                                  [](const ExecutedStep& s) { return s.delayed; });
  if (delays && !owed)
    throw Error(Status::internal_error, "adjoint_jump across delayed events needs their debts");
  // M[e]: the adjoint of T after e executions (T_0 = S- + f- dtau).
  std::vector<double> M((E + 1) * nx_, 0.0);
  std::copy(lambda_plus, lambda_plus + nx_, M.begin() + static_cast<std::ptrdiff_t>(E * nx_));
  double a = cost_jump;  // the adjoint of dtau, as a factor of dtau/dp
  for (std::size_t i = 0; i < nx_; ++i) a -= lambda_plus[i] * instant.f_plus[i];
  // Events fired here and executed later: what the later instants owe them.
  // Their execution time moved by dtau (1 + d_t) + d_x T + d_p, and values
  // from the trigger time by h_x T + h_p + h_t dtau, T after `source`
  // executions here.
  for (const Firing& f : instant.fired) {
    auto it = std::find_if(owed->begin(), owed->end(),
                           [&](const DelayedAdjoint& d) { return d.order == f.order; });
    if (it == owed->end()) continue;  // never executed (cancelled, or after the end)
    double* Msrc = M.data() + f.source * nx_;
    if (it->a != 0.0) {
      double d_t = 0.0;
      system_->delay_gradient(f.event, t, f.x_fired.data(), p_, &d_t, gx_.data(), gp_.data(), ws_);
      for (std::size_t i = 0; i < nx_; ++i) Msrc[i] += it->a * gx_[i];
      for (std::size_t j = 0; j < np_; ++j) gradient[j] += it->a * gp_[j];
      a += it->a * (1.0 + d_t);
    }
    const auto& targets = system_->events()[f.event].targets;
    const std::size_t m = targets.size();
    if (m > 0 && std::any_of(it->nu.begin(), it->nu.end(), [](double v) { return v != 0.0; })) {
      system_->assignment_jacobians(f.event, t, f.x_fired.data(), p_, ht_.data(), hx_.data(),
                                    hp_.data(), ws_);
      for (std::size_t r = 0; r < m; ++r) {
        for (std::size_t i = 0; i < nx_; ++i) Msrc[i] += hx_[r + i * m] * it->nu[r];
        for (std::size_t j = 0; j < np_; ++j) gradient[j] += hp_[r + j * m] * it->nu[r];
        a += ht_[r] * it->nu[r];
      }
    }
    owed->erase(it);
  }
  for (std::size_t e = E; e >= 1; --e) {
    const ExecutedStep& step = instant.steps[e - 1];
    const auto& targets = system_->events()[step.event].targets;
    const std::size_t m = targets.size();
    double* Me = M.data() + e * nx_;
    double* Mprev = M.data() + (e - 1) * nx_;
    double* Msrc = M.data() + step.source * nx_;
    std::vector<double> nu(m);
    for (std::size_t r = 0; r < m; ++r) nu[r] = Me[targets[r]];
    std::vector<char> assigned(nx_, 0);
    for (std::size_t r = 0; r < m; ++r) assigned[targets[r]] = 1;
    for (std::size_t i = 0; i < nx_; ++i)
      if (!assigned[i]) Mprev[i] += Me[i];
    if (m == 0) continue;
    if (step.delayed && step.values_fired) {  // values of an earlier instant: owed there
      DelayedAdjoint& d = owed_to(*owed, step.order, m);
      for (std::size_t r = 0; r < m; ++r) d.nu[r] += nu[r];
      continue;
    }
    system_->assignment_jacobians(step.event, t, step.x_eval.data(), p_, ht_.data(), hx_.data(),
                                  hp_.data(), ws_);
    for (std::size_t r = 0; r < m; ++r) {
      for (std::size_t i = 0; i < nx_; ++i) Msrc[i] += hx_[r + i * m] * nu[r];
      for (std::size_t j = 0; j < np_; ++j) gradient[j] += hp_[r + j * m] * nu[r];
      a += ht_[r] * nu[r];
    }
  }
  std::copy(M.begin(), M.begin() + static_cast<std::ptrdiff_t>(nx_), lambda_minus);
  if (instant.cause >= n_roots_) {
    // A delayed execution time moves with its firing: owed there.
    if (instant.timed_by_firing) {
      for (std::size_t i = 0; i < nx_; ++i) a += M[i] * instant.f_minus[i];
      owed_to(*owed, instant.timed_by, 0).a += a;
    }
    return;  // else the instant does not move (t0)
  }
  for (std::size_t i = 0; i < nx_; ++i) a += M[i] * instant.f_minus[i];
  double g_t = 0.0;
  system_->root_gradient(instant.cause, t, instant.x_minus.data(), p_, &g_t, gx_.data(),
                         gp_.data(), ws_);
  double rate = g_t;
  for (std::size_t i = 0; i < nx_; ++i)
    if (gx_[i] != 0.0) rate += gx_[i] * instant.f_minus[i];
  if (!(std::fabs(rate) > 0.0) || !std::isfinite(rate)) {
    warn("at t = " + number_text(t) + " the solution touches the " +
         system_->roots()[instant.cause].text +
         " without crossing it (dg/dt = 0): the gradient across this instant is not defined "
         "and was carried as if the instant did not move with p");
    return;
  }
  const double c = a / rate;  // dtau/dp = -(g_x S- + g_p) / rate
  for (std::size_t i = 0; i < nx_; ++i) lambda_minus[i] -= c * gx_[i];
  for (std::size_t j = 0; j < np_; ++j) gradient[j] -= c * gp_[j];
}

void EventRunner::carry_sensitivities(double t, const double* x, double* S) {
  if (ns_ == 0) return;
  rhs_on_sides(t, x, sides_, f_plus_.data());  // the state may lag the located side by rounding
  for (std::size_t j = 0; j < ns_; ++j)
    for (std::size_t i = 0; i < nx_; ++i)
      S[i + j * nx_] = T_[i + j * nx_] - (dtau_[j] != 0.0 ? f_plus_[i] * dtau_[j] : 0.0);
}

}  // namespace odesens::integrate
