// The adjoint of an instant's map S- -> S+ (the chain of forward_jump.hpp),
// from the instant's record (instant_record.hpp), for adjoint methods
// (docs/events.md, "The adjoint across an instant"). With M_e the adjoint
// of T after e executions, from M_E = lambda+ and a = -lambda+ f+ (the
// adjoint of dtau, as a factor of dtau/dp), each execution, last first,
// passes M_e on off its assigned rows and adds its assignment's
// derivatives (from the state its values were computed from) to M, to the
// gradient and to a; lambda- = M_0 - (a/rho) g_x with rho = g_x f- + g_t of
// the root that caused the instant.
//
// Delayed events: an execution time and values from the trigger time move
// with their firing at an earlier instant, so the adjoint cannot resolve
// their part locally; each adjoint vector carries it back to the firing as
// a debt (DelayedAdjoint), which the firing instant pays.
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/events/event_context.hpp"
#include "integrate/events/instant_record.hpp"

namespace odesens::integrate {

// What an adjoint vector owes to the earlier instants where delayed
// events fired: the adjoint of their execution time (a) and of the
// values they took at firing (nu). One per adjoint vector, carried by
// the caller from the last instant to the first.
struct DelayedAdjoint {
  std::size_t order;
  double a = 0.0;
  std::vector<double> nu;
};

class AdjointJump {
 public:
  explicit AdjointJump(const EventContext& context);

  // lambda_minus (nx) from lambda_plus (nx), gradient (np) += the
  // parameters' part. Warns where the instant's time derivative is
  // undefined. cost_jump: R(t, x-) - R(t, x+) of the objective's running
  // cost, which moves with the instant (the integral's limit between the
  // two branches). owed: the vector's debts to earlier firings (required
  // when the instant executes or fires delayed events).
  void jump(const Instant& instant, const double* lambda_plus, double* lambda_minus,
            double* gradient, double cost_jump, std::vector<DelayedAdjoint>* owed,
            EventWarnings& warnings);

 private:
  // An event fired at the instant and executed later: pays what the later
  // instants owe it, into M (the adjoints of T by executions), the
  // gradient and a.
  void pay_debt(const Firing& f, double t, double* M, double& a, double* gradient,
                std::vector<DelayedAdjoint>& owed);
  // Back across execution e (1-based) of the instant, from M_e to M_{e-1}.
  void through_execution(const ExecutedStep& step, std::size_t e, double t, double* M, double& a,
                         double* gradient, std::vector<DelayedAdjoint>* owed);
  // The terms of switches that part from the cause, from M_0 (the adjoint
  // of T before the executions) and lambda+.
  void through_parted(const Instant& instant, const double* lambda_plus, const double* M0,
                      double* gradient);
  // The part of the root that caused the instant (dtau/dp through g).
  void through_cause(const Instant& instant, double a, double* lambda_minus, double* gradient,
                     EventWarnings& warnings);
  // What a vector owes to firing `order` (created on demand).
  static DelayedAdjoint& owed_to(std::vector<DelayedAdjoint>& owed, std::size_t order,
                                 std::size_t m);

  EventContext ctx_;
  std::vector<double> gx_, gp_, hx_, hp_, ht_;  // scratch
};

}  // namespace odesens::integrate
