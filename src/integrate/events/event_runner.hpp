// Running a model's events and the switches of its f during a forward
// solve, with the jumps of the sensitivities: what every forward method
// shares, whatever its integrator (docs/events.md).
//
// The integrator locates the roots of the model's root functions and
// stops at every pending execution time (next_execution()); at each such
// instant, and at t0 and every output time, the method calls at() with
// the state there (and S, and f just before the instant). The runner then
//   - updates the side of every root function (the direction of the
//     crossing for the roots the integrator reported, else the sign of g),
//     a floor or ceil root's g being the distance of its argument u into
//     its cell of integers (EventSystem::Root::Kind), which moves on when
//     u left it,
//   - evaluates the triggers; an event whose trigger turned true fires: its
//     delay (and, for values from the trigger time, its assignments) are
//     evaluated and it is scheduled; a non-persistent pending event whose
//     trigger turned false is cancelled,
//   - executes every event due now, highest priority first (declaration
//     order among equals), re-evaluating the triggers after each one, so
//     that events fired by an assignment run at the same instant,
//   - carries S across: with tau the instant, dtau/dp from the root
//     function g that caused it, dtau/dp = -(g_x S- + g_p)/(g_x f- + g_t),
//     the total derivative of the state at the instant, T = S- + f- dtau/dp
//     (f- on the old side of the root: f a little before t, at the state
//     stepped back along f),
//     goes through each assignment x_i = h_i(t, x, p) as
//     T_i = h_x T + h_p + h_t dtau/dp, and S+ = T - f+ dtau/dp with f+
//     after the assignments. A switch of f alone (no assignment) gives
//     S+ = S- + (f- - f+) dtau/dp. A delayed event's execution time moves
//     with its trigger time and its delay: dtau_e = dtau + d_x T + d_p +
//     d_t dtau; values from the trigger time carry their derivative from
//     then.
// The caller restarts its integrator when the state changed or f switched.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

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
  bool active() const { return system_ != nullptr; }
  const std::vector<EventSystem::Root>& roots_of_system() const { return system_->roots(); }
  // The side of every root function as of the last instant (or t0).
  const std::vector<int>& sides() const { return sides_; }
  std::size_t n_roots() const { return n_roots_; }
  // g at (t, x): what integrators locate the roots of (a floor or ceil
  // root: the distance of u into its current cell).
  void root_values(double t, const double* x, double* g);

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
  double next_execution() const;

  std::size_t events_executed() const { return executed_; }

  // What happened at an instant, for adjoint methods, which carry the
  // adjoint back across it (adjoint_jump) after the forward pass. Recorded
  // by start() and at() once record_instants(true) was called.
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
  };
  // What an adjoint vector owes to the earlier instants where delayed
  // events fired: the adjoint of their execution time (a) and of the
  // values they took at firing (nu). One per adjoint vector, carried by
  // the caller from the last instant to the first.
  struct DelayedAdjoint {
    std::size_t order;
    double a = 0.0;
    std::vector<double> nu;
  };
  void record_instants(bool on) { recording_ = on; }
  const Instant& last_instant() const { return instant_; }
  // The adjoint of the instant's map S- -> S+ (the chain at the top of this
  // file): lambda_minus (nx) from lambda_plus (nx), gradient (np) += the
  // parameters' part. Warns where the instant's time derivative is undefined.
  // cost_jump: R(t, x-) - R(t, x+) of the objective's running cost, which
  // moves with the instant (the integral's limit between the two branches).
  // owed: the vector's debts to earlier firings (required when the
  // instant executes or fires delayed events).
  void adjoint_jump(const Instant& instant, const double* lambda_plus, double* lambda_minus,
                    double* gradient, double cost_jump = 0.0,
                    std::vector<DelayedAdjoint>* owed = nullptr);
  // Why some sensitivities across an event are not to be trusted ("" if none).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Pending {
    std::vector<double> x_fired;   // recording: the state when it fired
    std::size_t source = 0;        // recording: executions before it fired, at this instant
    std::size_t instant = 0;       // recording: the instant it fired at (instants_ then)
    std::size_t event;
    double time;
    std::size_t order;             // firing order, for ties
    std::vector<double> dtime;     // d(time)/dp (ns)
    std::vector<double> values;    // values from the trigger time
    std::vector<double> dvalues;   // their total derivatives (m x ns)
  };

  // The cells of the floor and ceil roots: the one u is in at (t, x), or
  // on an integer moves into (place); the next one for those whose u left
  // theirs at an instant (move).
  void place_cells(double t, const double* x);
  void move_cells(double t, const double* x);
  void set_cell(std::size_t i, double k);  // and g_[i] from u_[i]
  double cell_value(std::size_t i) const;  // floor or ceil root i's value on its cell
  void update_sides(double t, const double* x, const int* found);
  // After an instant: a comparison root left at exactly g = 0 (an
  // assignment put the state on the threshold, or the integrator located
  // the root there) takes the side g moves to along f, which no integrator
  // reports as a crossing (CVODES starts a restart at g = 0 without a side).
  // True when a comparison changed its truth (the triggers are evaluated
  // again at the same instant).
  bool settle_zero_sides(double t, const double* x);
  // The side root i's g moves to along f (on the current sides) at (t, x):
  // +1, -1, or 0 where it stays or is NaN. have_rate: f is computed once.
  int motion_side(std::size_t i, double t, const double* x, bool& have_rate);
  // Evaluates the triggers and executes what is due until no zero side
  // settles any more; true when an assignment changed the state.
  bool settle_and_execute(double t, double* x);
  // Fires and cancels after the triggers were (re)evaluated.
  void evaluate_triggers(double t, const double* x);
  void fire(std::size_t k, double t, const double* x);
  // The root that caused the instant (n_roots_: none, a scheduled time).
  std::size_t cause_root(const int* found) const;
  // f just before the instant into f_minus_.
  void left_rate(double t, const double* x, std::size_t cause);
  // f at (t, x) with every switch of f on its branch for `sides`, a floor
  // or ceil on the value of its current cell (f itself where the model has
  // no switches or cannot evaluate f on given branches).
  void rhs_on_sides(double t, const double* x, const std::vector<int>& sides, double* out);
  // The instant's dtau/dp from its cause.
  void instant_time_derivative(double t, const double* x, const double* S, std::size_t cause);
  bool execute_due(double t, double* x);
  void execute(const Pending& e, double t, double* x);
  // D (m x ns) = h_x T + h_p + h_t dtau for event k at (t, x).
  void total_assignment_derivative(std::size_t k, double t, const double* x, double* D);
  void carry_sensitivities(double t, const double* x, double* S);
  void begin_record(double t, const double* x, std::size_t cause);
  // The derivative along column j's parameter direction of a function whose
  // parameter gradient is grad_p[k * stride], k < np.
  double along(const double* grad_p, std::size_t stride, std::size_t j) const;
  void warn(const std::string& message);

  const Model& model_;
  const EventSystem* system_ = nullptr;
  const double* p_;
  const double* param_directions_;  // np x ns, or null: the unit vectors
  std::size_t nx_, np_, ns_, n_roots_ = 0;
  Workspace* ws_;
  std::vector<double> g_, g_before_;
  std::vector<int> sides_, sides_before_;
  std::vector<std::size_t> stepped_;  // the floor and ceil roots
  // By root: the lower integer k of a floor or ceil root's cell [k, k + 1],
  // and u (scratch).
  std::vector<double> cell_, u_;
  std::vector<char> trigger_;
  std::unique_ptr<bool[]> trigger_now_;
  std::vector<Pending> pending_;
  std::size_t fired_ = 0, executed_ = 0;
  bool scheduled_ = false;  // fire() scheduled an execution after now
  // Sensitivities at the instant: dtau/dp, T, and scratch.
  std::vector<double> dtau_, T_, f_plus_, f_minus_, x_left_, g_left_, gx_, gp_, hx_, hp_, ht_,
      D_, branch_truth_, f_settle_;
  std::vector<std::string> warnings_;
  bool recording_ = false;
  Instant instant_;
  std::size_t executed_here_ = 0;  // executions at the current instant
  std::size_t instants_ = 0;       // instants recorded so far
  // adjoint_jump: what a vector owes to firing `order` (created on demand).
  DelayedAdjoint& owed_to(std::vector<DelayedAdjoint>& owed, std::size_t order, std::size_t m);
};

}  // namespace odesens::integrate
