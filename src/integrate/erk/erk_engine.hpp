// One explicit Runge–Kutta engine for every tableau of tableaux.def:
// adaptive steps (weighted RMS error norm, PI controller, HNW starting step)
// or fixed steps, FSAL reuse, dense output, L trajectories on one shared
// step size (the error of a step is the largest over the trajectories).
//
//   ErkWorkspace ws(tableau(TableauId::dopri5), n, 1);
//   ErkEngine engine(system, ws, settings);
//   engine.reset(t0, x0, t_end);
//   while (engine.t() != t_end) engine.step(t_end);   // or integrate_to(t_end)
//   engine.interpolate(t, x_at_t);                      // t in the last step
//
// Between two steps a method may overwrite the state (replace_state).
//
// Failures throw odesens::Error: invalid_argument (settings, lanes, h_fixed
// missing for euler/rk4), too_much_work (max_steps), solver_failed (step
// size below 16 eps |t|), not_finite (NaN/Inf in x0, f or the solution),
// stiff (ErkSettings::detect_stiffness).
// No allocation after construction (reset and the step loop only use the
// workspace).
#pragma once

#include <cstddef>
#include <optional>

#include "integrate/erk/erk_system.hpp"
#include "integrate/erk/erk_workspace.hpp"
#include "integrate/erk/lane_kernels.hpp"
#include "integrate/erk/stiffness_test.hpp"
#include "integrate/erk/tableau.hpp"
#include "integrate/step_control.hpp"

namespace odesens::integrate::erk {

// A bound on the next step from the state it starts at, beyond accuracy:
// the discrete adjoint needs the steps inside the stability region even
// where the solution rests and the error estimate lets them grow
// (StabilityLimit, stability_limit.hpp). Called once per step() with x at t.
class StepLimit {
 public:
  virtual ~StepLimit() = default;
  // The largest |h| allowed from (t, x); +inf for none.
  virtual double largest_step(double t, const double* x) = 0;
  // h|λ| of a step of size h under the last bound's estimate (0: none).
  virtual double h_lambda(double h) const = 0;
};

struct ErkSettings {
  Tolerances tolerances;          // rtol, atol (scalar or per state), CVODES meaning
  PiSettings controller;          // safety and clamps of the PI controller
  double h0 = 0;                  // first step; 0: HNW I §II.4 starting step
  std::optional<double> h_fixed;  // set: fixed steps of this size (required for euler, rk4)
  double h_max = 0;               // bound on |h|; 0: none
  long max_steps = 100000;        // step attempts (accepted + rejected) after reset
                                  // or begin_step_budget()
  // A method's own norm of each step's error (step_control.hpp); null: the
  // WRMS norm of the tolerances, largest over the trajectories (dop853: its
  // err5/err3 combination).
  StepErrorNorm* error_norm = nullptr;
  // Accumulate x_{n+1} = x_n + h Σ b_j k_j compensated (its rounding error
  // kept in a low part and added to the next increment): the states then
  // drift by rounding at the increments' scale, not the states'. For
  // internal differences, whose σ = (x̂ − x)/ε magnifies every rounding of
  // x by 1/ε. Off: x_{n+1} is exactly the tableau's sum as rounded (the
  // discrete adjoint replays it so).
  bool compensated = false;
  // Hairer's stiffness test (stiffness_test.hpp) on adaptive steps of the
  // tableaux that have it (dopri5, dop853): a problem declared stiff ends
  // the solve with Error(stiff). Off: the engine steps on at its stability
  // limit, however many steps that takes.
  bool detect_stiffness = true;
  // Accepted steps between two stiffness tests while none has fired
  // (Hairer's 1000; 1 tests every step, as a stiffness probe must).
  long stiffness_period = StiffnessTest::period;
  // Bounds every adaptive step besides h_max (null: none). Its h|λ| joins
  // the stiffness test: steps held by it are steps at the stability limit.
  StepLimit* step_limit = nullptr;
};

struct ErkStats {
  long steps = 0;              // attempts
  long accepted = 0;
  long rejected = 0;
  long rhs_evaluations = 0;    // calls of ErkSystem::rhs (each for all L lanes)
  long dense_evaluations = 0;  // of those, for lazy dense-output stages
};

class ErkEngine {
 public:
  ErkEngine(ErkSystem& system, ErkWorkspace& workspace, const ErkSettings& settings,
            ErkObserver* observer = nullptr);

  // Starts a solve at (t0, x0) towards t_end (which fixes the direction and
  // feeds the starting-step heuristic). x0 holds n*L values. h_first > 0
  // overrides settings.h0 and the heuristic (not h_fixed): for callers who
  // guess better, e.g. when the L lanes are not L trajectories to the
  // heuristic (which takes the smallest guess over the lanes).
  void reset(double t0, const double* x0, double t_end, double h_first = 0);
  // One accepted step towards t_limit; a step that would pass t_limit is
  // shortened to end exactly on it (t() == t_limit afterwards).
  void step(double t_limit);
  // max_steps counts the attempts from here on (an output interval begins).
  void begin_step_budget() { budget_start_ = stats_.steps; }
  // The attempts counted against max_steps so far, and the same carried
  // over a reset (a restart after an event is not a new output interval).
  long budget_used() const { return stats_.steps - budget_start_; }
  void carry_step_budget(long used) { budget_start_ = stats_.steps - used; }
  // One step of exactly this h without error control (fixed-step mode and
  // replays of a recorded step sequence).
  void take_step(double h);
  // Steps until t() == t_end.
  void integrate_to(double t_end);
  // Overwrites the state at t() between two steps (n*L values), for methods
  // that re-seed trajectories as they go (internal differences re-perturb
  // theirs after every step). The step-size controller keeps its memory and
  // the next step starts from h_next(); k_0 is evaluated afresh (the FSAL
  // stage no longer matches) and the last step's dense output is gone, so
  // interpolate before replacing. Whatever the ErkSystem reads besides x
  // (parameters of the lanes, say) may change at the same moment. x_low
  // (n*L values, or null for zeros) is the low part of a compensated state
  // (ErkSettings::compensated): the state is x + x_low.
  void replace_state(const double* x, const double* x_low = nullptr);
  // Sets the low part of the state at t() alone (n*L values): f, evaluated
  // at x, is unchanged, so nothing evaluated is dropped. Only with
  // ErkSettings::compensated; between steps.
  void set_state_low(const double* x_low);
  // Dense output over the last accepted step: out = x(t), t_previous() <= t <= t()
  // (in the direction of integration). Computes lazy dense stages once per step.
  void interpolate(double t, double* out);

  double t() const { return t_; }
  const double* x() const { return workspace_.x(); }
  // The low part of x when compensated (zeros otherwise): the state is x + x_low.
  const double* x_low() const { return workspace_.x_low(); }
  double t_previous() const { return t_previous_; }
  double h_last() const { return h_last_; }
  // h|λ| of the last stiffness test (0 before the first).
  double last_h_lambda() const { return stiffness_.last_h_lambda(); }
  // Hairer's estimate alone at the last test (last_h_lambda also takes
  // h·ρ(J) from the step limit).
  double last_quotient() const { return stiffness_.last_quotient(); }
  double h_next() const { return h_next_; }
  bool has_step() const { return has_step_; }
  const ErkStats& stats() const { return stats_; }
  const Tableau& tableau() const { return tableau_; }
  std::size_t size() const { return workspace_.size(); }
  const ErkLaneKernels& kernels() const { return *kernels_; }

 private:
  void validate_settings() const;
  void require_started(const char* what) const;
  void evaluate(int i, double t_i, const double* Y, double* k);
  void prepare_first_stage();
  bool fsal_stage_needed_by_error() const;
  void compute_stages(double h, bool defer_fsal);
  double estimate_error(double h);
  void accept(double h, double t_new, bool fsal_deferred);
  void ensure_dense_stages();
  void test_stiffness();

  ErkSystem& system_;
  ErkWorkspace& workspace_;
  const Tableau& tableau_;
  ErkSettings settings_;
  ErkObserver* observer_;
  const ErkLaneKernels* kernels_;
  PiController controller_;
  StiffnessTest stiffness_;
  ErkStats stats_;
  long budget_start_ = 0;  // stats_.steps when the step budget began
  std::size_t n_;
  double t_ = 0, t_previous_ = 0, h_last_ = 0, h_next_ = 0, direction_ = 1;
  bool started_ = false;
  bool has_step_ = false;
  bool first_stage_ready_ = false;  // k_0 holds f(t, x)
  bool fsal_pending_ = false;       // k_{s-1} of the last step holds f(t, x)
  bool dense_ready_ = false;        // lazy dense stages of the last step computed
};

}  // namespace odesens::integrate::erk
