// What happened at an instant, for adjoint methods, which carry the
// adjoint back across it (adjoint_jump.hpp) after the forward pass.
// Recorded by the runner's start() and at() once recording is on: the
// state and f just before and after the instant, the root that caused it,
// the executions in their order and the state each one's values were
// computed from, and the events that fired here to execute later.
#pragma once

#include <cstddef>
#include <vector>

namespace odesens::integrate {

struct ExecutedStep {
  std::size_t event;
  std::vector<double> x_eval;  // the state its values were computed from
  std::size_t source;          // executions before that, at the instant they were computed
  std::size_t order = 0;       // the firing it executes
  bool delayed = false;        // fired at an earlier instant
  bool values_fired = false;   // its values are from the trigger time
};
// An event fired here and executed at a later instant (after its delay).
struct Firing {
  std::size_t event, order;
  std::size_t source;          // executions before it fired, at this instant
  std::vector<double> x_fired;
};
struct Instant {
  double t = 0.0;
  std::size_t cause = 0;  // the root that caused it; n_roots(): none (t0, a scheduled time)
  std::vector<double> x_minus, f_minus, f_plus;  // x and f just before, f after
  std::vector<double> x_plus;                    // x after
  std::vector<ExecutedStep> steps;
  std::vector<Firing> fired;
  // Without a root: the instant is a delayed execution time, which moves
  // with the firing `timed_by` (an order) at an earlier instant.
  bool timed_by_firing = false;
  std::size_t timed_by = 0;
  // Switches crossed here whose times part from the cause's
  // (coincident_switches.hpp): dT and dS (nx x np), empty where none.
  std::vector<double> parted_dT, parted_dS;
};

// Where a pending execution fired, for the record of the instant it
// executes at (kept while recording).
struct FiringPoint {
  std::vector<double> x_fired;  // the state when it fired
  std::size_t source = 0;       // executions before it fired, at its instant
  std::size_t instant = 0;      // the instant it fired at (instants recorded then)
};

class InstantRecord {
 public:
  InstantRecord(std::size_t nx, std::size_t np) : nx_(nx), np_(np) {}

  void set_on(bool on) { on_ = on; }
  bool on() const { return on_; }
  const Instant& last() const { return instant_; }

  // A new instant at (t, x just before it), caused by root `cause` (the
  // number of roots: none). The executions here are counted from 0 whether
  // recording or not.
  void begin(double t, const double* x, std::size_t cause);
  // f just before and just after the instant (nx each), for the runner to
  // fill in while recording.
  double* f_minus() { return instant_.f_minus.data(); }
  double* f_plus() { return instant_.f_plus.data(); }
  // An instant no root caused is the execution time of firing `order`
  // (made at instant `fired_at`): it moves with that firing when it was at
  // an earlier instant.
  void timed_by(std::size_t order, std::size_t fired_at);
  // Event k fired as firing `order` at x; later: it executes at a later
  // instant (after its delay). Fills in the firing's point.
  void fire(std::size_t k, std::size_t order, bool later, const double* x, FiringPoint& point);
  // Event k executes firing `order` at x (values_fired: with its values
  // from the trigger time, computed at `point`).
  void execute(std::size_t k, std::size_t order, const FiringPoint& point, bool values_fired,
               const double* x);
  // Zeroed room for the terms of switches that part from the cause
  // (nx x np each).
  double* parted_dT();
  double* parted_dS();
  // x after the instant.
  void end(const double* x) { instant_.x_plus.assign(x, x + nx_); }

 private:
  std::size_t nx_, np_;
  bool on_ = false;
  Instant instant_;
  std::size_t executed_here_ = 0;  // executions at the current instant
  std::size_t instants_ = 0;       // instants recorded so far
};

}  // namespace odesens::integrate
