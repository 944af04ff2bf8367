// The events of the model's event system: their triggers, read from the
// sides of the root functions (root_sides.hpp), their firings, the
// pending executions and the assignments.
//
// After the sides changed, the triggers are evaluated; an event whose
// trigger turned true fires: its delay (and, for values from the trigger
// time, its assignments) are evaluated and it is scheduled; a
// non-persistent pending event whose trigger turned false is cancelled.
// Every event due now executes, highest priority first (firing order
// among equals), the triggers evaluated again after each one, so that
// events fired by an assignment run at the same instant. The derivatives
// of the firings and assignments go to the forward jump
// (forward_jump.hpp), what happened to the record (instant_record.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "integrate/events/event_context.hpp"
#include "integrate/events/forward_jump.hpp"
#include "integrate/events/instant_record.hpp"
#include "integrate/events/root_sides.hpp"

namespace odesens::integrate {

class EventSchedule {
 public:
  struct Pending {
    FiringPoint point;  // recording: where it fired
    std::size_t event;
    double time;
    std::size_t order;            // firing order, for ties
    std::vector<double> dtime;    // d(time)/dp (ns)
    // Whether its time may move with p: dtime not 0; without S, fired at an
    // instant that moves, or a delay that reads p or x.
    bool may_move = false;
    std::vector<double> values;   // values from the trigger time
    std::vector<double> dvalues;  // their total derivatives (m x ns)
  };

  explicit EventSchedule(const EventContext& context);

  // At t0: every trigger at its value just before t0.
  void start();
  // At an instant after t0: nothing scheduled at it yet.
  void begin_instant() { scheduled_ = false; }
  // An event fired with a delay since start() or begin_instant(): a new
  // stop time.
  bool scheduled() const { return scheduled_; }
  // Time of the next pending execution (+inf when none).
  double next_execution() const;
  // The due execution (time <= t) fired first, which times an instant no
  // root caused; null when none is due.
  const Pending* first_due(double t) const;
  std::size_t executed() const { return executed_; }
  // The event that last fired with a delay of exactly 0 that reads p or x,
  // with S or a record (its number of events: none); cleared.
  std::size_t take_zero_delay_that_moves() {
    const std::size_t k = zero_delay_;
    zero_delay_ = ctx_.system->events().size();
    return k;
  }
  // Whether the instant now under way moves with p (for may_move).
  void set_instant_moves(bool moves) { instant_moves_ = moves; }

  // Fires and cancels after the triggers were (re)evaluated on `sides`.
  void evaluate_triggers(double t, const double* x, const std::vector<int>& sides,
                         ForwardJump& jump, InstantRecord& record);
  // Executes what is due at t, assigning x (and T in `jump`), the sides of
  // `roots` following each assignment; true when an assignment changed the
  // state.
  // Warns where the order of two executions at t is open and matters
  // (warn_if_order_open).
  bool execute_due(double t, double* x, RootSides& roots, ForwardJump& jump, InstantRecord& record,
                   EventWarnings& warnings);

 private:
  void fire(std::size_t k, double t, const double* x, ForwardJump& jump, InstantRecord& record);
  // Drops the pending executions of event k (a non-persistent trigger
  // that turned false), keeping their buffers.
  void cancel(std::size_t k);
  bool delay_reads_p_or_x(std::size_t k, double t, const double* x);
  // The due event of highest priority (pending_.size(): none).
  std::size_t most_urgent(double t, const double* x) const;
  double priority_of(const Pending& e, double t, const double* x) const;
  void warn_if_order_open(std::size_t best, double t, const double* x, EventWarnings& warnings);
  bool order_matters(const Pending& a, const Pending& b, double t, const double* x);
  void assign_on_copy(const Pending& e, double t, std::vector<double>& x);
  const double* values_of(const Pending& e, double t, const double* x);
  void execute(const Pending& e, double t, double* x, ForwardJump& jump, InstantRecord& record);

  EventContext ctx_;
  std::vector<char> trigger_;
  std::unique_ptr<bool[]> trigger_now_;
  std::vector<Pending> pending_;
  // Executed or cancelled events whose buffers the next firings reuse: an
  // event allocates nothing once as many have been pending at once.
  std::vector<Pending> spare_;
  std::vector<double> values_;  // execute()'s assignment values
  std::vector<double> order_ab_, order_ba_;  // order_matters()'s two orders
  std::vector<std::pair<std::size_t, std::size_t>> warned_;  // pairs of events said
  std::size_t fired_ = 0, executed_ = 0;
  bool scheduled_ = false;  // fire() scheduled an execution after now
  bool instant_moves_ = false;
  std::size_t zero_delay_ = static_cast<std::size_t>(-1);
  std::vector<double> delay_gx_, delay_gp_;  // a delay's gradient (fire, without S)
};

}  // namespace odesens::integrate
