// Carrying S across an instant. With tau the instant, dtau/dp from the
// root function g that caused it,
//   dtau/dp = -(g_x S- + g_p)/(g_x f- + g_t),
// the total derivative of the state at the instant,
//   T = S- + f- dtau/dp
// (f- on the old side of the root: f a little before t, at the state
// stepped back along f), goes through each assignment x_i = h_i(t, x, p) as
//   T_i = h_x T + h_p + h_t dtau/dp,
// and S+ = T - f+ dtau/dp with f+ after the assignments. A switch of f
// alone (no assignment) gives S+ = S- + (f- - f+) dtau/dp. A delayed
// event's execution time moves with its trigger time and its delay:
//   dtau_e = dtau + d_x T + d_p + d_t dtau;
// values from the trigger time carry their derivative from then
// (docs/events.md).
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/events/event_context.hpp"
#include "integrate/events/root_sides.hpp"

namespace odesens::integrate {

class ForwardJump {
 public:
  explicit ForwardJump(const EventContext& context);

  // At t0, which does not move with p: dtau = 0, T = S (nx x ns).
  void start(const double* S);
  // After the executions at t0: S = T.
  void finish_start(double* S) const;

  // f just before the instant at (t, x) into f_minus(); cause: the root
  // that caused it (n_roots: none), `roots` on the sides after it.
  void left_rate(double t, const double* x, std::size_t cause, RootSides& roots,
                 EventWarnings& warnings);
  const std::vector<double>& f_minus() const { return f_minus_; }
  // The instant's dtau/dp from its cause (after left_rate). Without one:
  // timed_by, the d(time)/dp of the due execution that times the instant
  // (null: none, the instant does not move).
  void instant_time_derivative(double t, const double* x, const double* S, std::size_t cause,
                               const std::vector<double>* timed_by, EventWarnings& warnings);
  // T = S- + f- dtau/dp, before the instant's executions.
  void enter(const double* S);
  // T += dT (nx x ns): switches crossed before the cause
  // (coincident_switches.hpp).
  void shift_T(const double* dT);

  // d(time)/dp (ns) of the execution of event k, fired at (t, x) with
  // or without a delay.
  void execution_time_derivative(std::size_t k, bool delayed, double t, const double* x,
                                 std::vector<double>& dtime);
  // D (m x ns) = h_x T + h_p + h_t dtau for event k at (t, x), in a buffer
  // of the jump's, valid until its next call.
  const double* assignment_derivative(std::size_t k, double t, const double* x);
  // An assignment to state i: T_i = row r of D (m x ns).
  void assign(std::size_t i, const double* D, std::size_t r, std::size_t m);

  // S+ = T - f+ dtau/dp, f+ at (t, x) after the instant on the sides of
  // `roots`.
  void carry_sensitivities(double t, const double* x, double* S, RootSides& roots);

 private:
  EventContext ctx_;
  // dtau/dp (ns), T (nx x ns), f after and before the instant; scratch.
  std::vector<double> dtau_, T_, f_plus_, f_minus_, x_left_, g_left_, gx_, gp_, hx_, hp_, ht_, D_;
};

}  // namespace odesens::integrate
