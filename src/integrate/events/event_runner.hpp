// Running a model's events and the switches of its f during a forward
// solve, with the jumps of the sensitivities: what every forward method
// shares, whatever its integrator (docs/events.md).
//
// The integrator locates the roots of the model's root functions and
// stops at every pending execution time (next_execution()); at each such
// instant, and at t0 and every output time, the method calls at() with
// the state there (and S, and f just before the instant). The runner then
//   - updates the side of every root function (root_sides.hpp),
//   - evaluates the triggers, fires and cancels events, and executes every
//     event due now (event_schedule.hpp),
//   - carries S across (forward_jump.hpp),
// and, for adjoint methods, records what happened (instant_record.hpp),
// which adjoint_jump() carries the adjoint back across (adjoint_jump.hpp).
// The caller restarts its integrator when the state changed or f switched.
#pragma once

#include <cstddef>
#include <memory>
#include <limits>
#include <string>
#include <vector>

#include "integrate/events/adjoint_jump.hpp"
#include "integrate/events/coincident_switches.hpp"
#include "integrate/events/event_context.hpp"
#include "integrate/events/event_schedule.hpp"
#include "integrate/events/forward_jump.hpp"
#include "integrate/events/instant_record.hpp"
#include "integrate/events/root_sides.hpp"
#include "integrate/events/sliding_watch.hpp"
#include "integrate/events/zeno_watch.hpp"
#include "odesens/model.hpp"

namespace odesens::integrate {

class EventRunner {
 public:
  // p: the parameters of the solve; ns: columns of S carried (0: none).
  // Column j of S is dx/dp by default (ns = np); with param_directions
  // (np x ns, column-major, kept by the caller) it is the derivative along
  // the direction whose parameter part is column j (its state part enters
  // through S(t0)), for methods that carry S·R (internal differences).
  EventRunner(const Model& model, const double* p, std::size_t ns, Workspace* ws,
              const double* param_directions = nullptr);

  // The model has events or switches (else the runner does nothing).
  bool active() const { return ctx_.system != nullptr; }
  const std::vector<EventSystem::Root>& roots_of_system() const { return ctx_.system->roots(); }
  // The side of every root function as of the last instant (or t0).
  const std::vector<int>& sides() const { return roots_.sides(); }
  std::size_t n_roots() const { return ctx_.n_roots; }
  // The switches of f (EventSystem::branch_roots; 0 without events) and
  // their truth on the sides as of the last instant at (t, x): the
  // branches f holds until the next instant.
  std::size_t n_branches() const { return active() ? ctx_.system->branch_roots().size() : 0; }
  void branch_truth(double t, const double* x, double* out) {
    roots_.branch_truth(t, x, roots_.sides(), out);
  }
  const EventSystem* system() const { return ctx_.system; }
  // RootSides::onto_sides: x within rounding onto the sides as of the last
  // instant (before the one being located, until EventRunner::at).
  bool onto_sides(double t, const double* x, double* out) { return roots_.onto_sides(t, x, out); }
  // RootSides::time_onto_sides.
  double time_onto_sides(double t, const double* x) { return roots_.time_onto_sides(t, x); }
  // RootSides::off_sides.
  bool off_sides(double t, const double* x) { return roots_.off_sides(t, x); }
  // g at (t, x): what integrators locate the roots of (a floor or ceil
  // root: the distance of u into its current cell).
  void root_values(double t, const double* x, double* g) { roots_.root_values(t, x, g); }
  // The model's own root values at (t, x): a floor or ceil root's u itself.
  void root_arguments(double t, const double* x, double* u) const {
    ctx_.system->root_values(t, x, ctx_.p, u, ctx_.ws);
  }
  // An enclosure of root i's g over t in [ta, tb], for a root of t alone
  // (EventSystem::root_range_over_time); false where the model has none.
  bool root_range_over_time(std::size_t i, double ta, double tb, double* lo, double* hi) const {
    return ctx_.system->root_range_over_time(i, ta, tb, ctx_.p, lo, hi, ctx_.ws);
  }
  // Adds to warnings().
  void warn(const std::string& message) { warnings_.warn(message); }

  struct Outcome {
    bool state_changed = false;  // an event assigned
    bool rhs_switched = false;   // a comparison in f changed
    bool scheduled = false;      // an event fired with a delay: a new stop time
    bool restart() const { return state_changed || rhs_switched || scheduled; }
  };

  // At t0: the sides from the signs of g, the triggers against their
  // initial values, events due at t0 executed. x (nx) and S (nx x ns) in-out.
  Outcome start(double t0, double* x, double* S);

  // At an instant t > t0: found (n_roots, CVODES' convention: +1 / -1 for
  // a root crossed upward / downward, 0 else) or null where the integrator
  // stopped for another reason.
  Outcome at(double t, double* x, double* S, const int* found);

  // Time of the next pending execution (+inf when none).
  double next_execution() const { return schedule_.next_execution(); }

  std::size_t events_executed() const { return schedule_.executed(); }
  // Instants caused by a root whose g reads the states (located to the
  // integrator's tolerance, their time moves with p), and the text of the
  // first such root.
  std::size_t moving_instants() const { return moving_instants_; }
  const std::string& first_moving_root() const { return first_moving_root_; }

  // What happened at an instant, for adjoint methods, which carry the
  // adjoint back across it (adjoint_jump) after the forward pass. Recorded
  // by start() and at() once record_instants(true) was called.
  using ExecutedStep = integrate::ExecutedStep;
  using Firing = integrate::Firing;
  using Instant = integrate::Instant;
  using DelayedAdjoint = integrate::DelayedAdjoint;
  void record_instants(bool on) { record_.set_on(on); }
  // RootSides::read_time_roots_until: switches of t read at t_read.
  void read_time_roots_until(double t_read) { roots_.read_time_roots_until(t_read); }
  const Instant& last_instant() const { return record_.last(); }
  // The adjoint of the instant's map S- -> S+ (the chain of
  // forward_jump.hpp): lambda_minus (nx) from lambda_plus (nx), gradient
  // (np) += the parameters' part. Warns where the instant's time derivative
  // is undefined. cost_jump: R(t, x-) - R(t, x+) of the objective's running
  // cost, which moves with the instant (the integral's limit between the
  // two branches). owed: the vector's debts to earlier firings (required
  // when the instant executes or fires delayed events).
  void adjoint_jump(const Instant& instant, const double* lambda_plus, double* lambda_minus,
                    double* gradient, double cost_jump = 0.0,
                    std::vector<DelayedAdjoint>* owed = nullptr) {
    adjoint_.jump(instant, lambda_plus, lambda_minus, gradient, cost_jump, owed, warnings_);
  }
  // Why some sensitivities across an event are not to be trusted ("" if none).
  const std::vector<std::string>& warnings() const { return warnings_.list(); }
  // Events accumulate at a finite time (zeno_watch.hpp), or the solution
  // slides along a switch of f (sliding_watch.hpp): what was found, or null.
  // At a failure at (t, x): the switch of f the state sits on with f
  // pointing into it from both sides (the solution slides along it), as
  // text; "" where there is none (root_sides.hpp). reach_within: the
  // most time g may take to reach 0 along f on its side.
  std::string sliding_switch(double t, const double* x,
                             double reach_within = std::numeric_limits<double>::infinity());
  // Before at(): a located crossing (found) of a comparison of the states
  // at (t, x) whose g moves along f by less over the solver's step h, and
  // over the time since that root last crossed (or t0), than the solver's
  // error of g (tol: the states' tolerances). Where it crosses, and
  // whether it crosses at all, then lies within the solver's error, and so
  // do the jumps of S there, through dtau/dp = -(g_x S + g_p) / g'. at()
  // warns of it (once a solve) where the instant changes f, the state or
  // a schedule.
  void check_crossing_resolved(double t, const double* x, const int* found, double h,
                               const double* tol);
  const std::string* accumulation() const {
    if (zeno_.detected()) return &zeno_.message();
    return sliding_.detected() ? &sliding_.message() : nullptr;
  }

 private:
  // The instant's record, f just before it, dtau/dp and T = S- + f- dtau.
  void enter_instant(double t, const double* x, const double* S, std::size_t cause);
  void watch_sliding(double t, std::size_t cause, const Outcome& outcome);
  bool warned_unresolved_ = false;  // check_crossing_resolved's warning was given
  std::string unresolved_pending_;  // its warning, for the next at()
  std::vector<double> root_crossed_at_;  // by root: when it last crossed (t0: never)
  // The cause to take where an execution falls due at a crossing located
  // as `cause` (below n_roots): n_roots, the due execution timing the
  // instant, where no root crossed here switches f and no trigger turns
  // true; else `cause`.
  std::size_t cause_with_due_execution(std::size_t cause) const;
  // Warns where the due execution's time moves with p and that of the
  // fixed crossing `cause`, kept as the instant's, does not.
  void warn_if_execution_parts(double t, std::size_t cause);
  // The jumps of switches that part from the cause, before and after it.
  void part_before(double t, const double* x);
  void part_after(double t, const double* x);
  // The schedule's steps on the current sides, jump and record.
  void evaluate_triggers(double t, const double* x);
  bool execute_due(double t, double* x);
  // Said once an event (each firing would be the same words).
  void warn_if_zero_delay_moves();
  // Evaluates the triggers and executes what is due until no zero side
  // settles any more; true when an assignment changed the state.
  bool settle_and_execute(double t, double* x);

  EventContext ctx_;
  RootSides roots_;
  EventSchedule schedule_;
  ForwardJump jump_;
  InstantRecord record_;
  AdjointJump adjoint_;
  CoincidentSwitches coincident_;
  std::vector<double> parted_;  // dT, then dS (nx x ns)
  // The triggers on the sides before and after an instant (events + 1).
  std::unique_ptr<bool[]> triggers_before_, triggers_after_;
  std::size_t moving_instants_ = 0;
  std::string first_moving_root_;
  EventWarnings warnings_;
  ZenoWatch zeno_;
  SlidingWatch sliding_;
};

}  // namespace odesens::integrate
