// The Rosenbrock engine: GRK4A (or any RosenbrockTableau) on m lanes that
// share one step size, one exact Jacobian J of the nominal lane and one LU
// of I − hγJ per step attempt (Franz & Kiehl §2.5, their (15)).
//
//   RosenbrockWorkspace ws(grk4a(), n, m, system.jacobian_pattern());
//   RosenbrockEngine engine(system, ws, settings);
//   engine.reset(t0, x0, t_end);                  // x0: n×m interleaved
//   while (engine.t() != t_end) {
//     engine.step(t_end);                         // lands on t_end exactly
//     ...read engine.x(), rescale, engine.set_lane_state(l, x_l)...
//   }
//
// Step control is that of the explicit engine (step_control.hpp): weighted
// RMS norm with the CVODES meaning of rtol/atol, largest over the lanes (or
// the method's StepErrorNorm), Gustafsson's PI controller on the embedded
// order, the HNW starting step unless h0 is given, h_max, max_steps, or
// fixed steps. A step that would pass t_limit is shortened to end on it.
//
// Perturbed lanes (1..m−1), RosenbrockJacobian:
//   frozen    the paper's GRK4AS: every lane's stages use the nominal's J
//             (W = J(x_n⁰)). For a perturbed lane this is a W-method, and
//             GRK4A violates the W-method condition Σ b_i α_i = 1/2 (it has
//             0.4881), so difference quotients of the lanes converge at
//             order 1 only for nonlinear f (HNW II §IV.7, W-methods).
//   corrected (default) the stage equations of a perturbed lane,
//               (I − hγW) k̂_i = h f(Ŷ_i) + γ_i h² f̂_t
//                              + h Ĵ (Σ_{j<i} γ_ij k̂_j + γ k_i) − hγ W k_i,
//             with Ĵ v by the lane's own Jacobian product at its own x_n
//             and k_i the nominal's stage: the exact Rosenbrock step of the
//             lane up to hγ(Ĵ − W)(k̂_i − k_i) = O(ε²), so the differences
//             keep order 4, on the same LU. The nominal lane is solved
//             first at each stage, then all perturbed lanes in one solve.
// Either way a perturbed lane is only as accurate as its distance from the
// nominal is small (its stages are solved with the nominal's W), and its
// embedded error estimate does not see that defect: lanes are meant for
// perturbations of size ε ≈ √eps, not for unrelated trajectories.
//
// Overwriting lanes: between steps (after reset() or step() returned) a
// method may overwrite lane states by set_lane_state and change the lanes'
// parameters in its system; call system_changed() when only the system
// changed. Whatever the engine evaluated at the current point is dropped.
//
// Failures throw odesens::Error: invalid_argument (settings, a workspace
// that does not fit the system), too_much_work (max_steps attempts),
// solver_failed (step size below 16 eps |t|; I − hγJ singular for a fixed
// step, or still singular after h was halved max_singular_halvings times),
// not_finite (NaN/Inf in x0, f, ∂f/∂t, J or the solution).
// No allocation after construction (reset and the step loop use the
// workspace; the system must not allocate either; KLU allocates for its
// first numeric factorization).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "integrate/implicit/rosenbrock_system.hpp"
#include "integrate/implicit/rosenbrock_workspace.hpp"
#include "integrate/step_control.hpp"

namespace odesens::integrate {

enum class RosenbrockJacobian { frozen, corrected };

struct RosenbrockSettings {
  Tolerances tolerances;          // rtol, atol (scalar or per state), CVODES meaning
  PiSettings controller;          // safety and clamps of the PI controller
  double h0 = 0;                  // first step; 0: HNW I §II.4 starting step
  std::optional<double> h_fixed;  // set: fixed steps of this size, no error control
  double h_max = 0;               // bound on |h|; 0: none
  long max_steps = 100000;        // step attempts after reset (accepted, rejected, singular)
                                  // or begin_step_budget()
  RosenbrockJacobian jacobian = RosenbrockJacobian::corrected;  // perturbed lanes' stages
  // A method's own norm of each step's error (step_control.hpp); null: the
  // WRMS norm of the tolerances, largest over the lanes.
  StepErrorNorm* error_norm = nullptr;
};

// As in Hairer's ros4 and rodas: a singular I − hγJ halves h, at most this
// many times in a row.
inline constexpr int max_singular_halvings = 5;

struct RosenbrockStats {
  long steps = 0;                 // attempts
  long accepted = 0;
  long rejected = 0;              // by the error test
  long singular = 0;              // attempts whose I − hγJ was singular
  long rhs_evaluations = 0;       // calls of RosenbrockSystem::rhs (each for all lanes)
  long jacobian_evaluations = 0;  // of the nominal's J
  long dfdt_evaluations = 0;      // calls of dfdt (each for all lanes)
  long jvp_evaluations = 0;       // lane Jacobian products (corrected mode)
};

class RosenbrockEngine {
 public:
  // Throws Error(invalid_argument) for bad settings or a workspace whose
  // Jacobian layout (dense / sparse nnz) differs from the system's.
  RosenbrockEngine(RosenbrockSystem& system, RosenbrockWorkspace& workspace,
                   const RosenbrockSettings& settings, RosenbrockObserver* observer = nullptr);

  // Starts a solve at (t0, x0) towards t_end (which fixes the direction and
  // feeds the starting-step heuristic). x0 holds n*m values, interleaved.
  void reset(double t0, const double* x0, double t_end);
  // One accepted step towards t_limit; a step that would pass t_limit is
  // shortened to end exactly on it (t() == t_limit afterwards).
  void step(double t_limit);
  // max_steps counts the attempts from here on (an output interval begins).
  void begin_step_budget() { budget_start_ = stats_.steps; }
  // The attempts counted against max_steps so far, and the same carried
  // over a reset (a restart after an event is not a new output interval).
  long budget_used() const { return stats_.steps - budget_start_; }
  void carry_step_budget(long used) { budget_start_ = stats_.steps - used; }
  // One step of exactly this h without error control.
  void take_step(double h);
  // Steps until t() == t_end.
  void integrate_to(double t_end);

  // Lane `lane`'s state at t() becomes x_lane + x_low_lane (n values each;
  // x_low_lane null: zeros). Between steps only, not from an observer
  // call; step control carries on.
  void set_lane_state(std::size_t lane, const double* x_lane, const double* x_low_lane = nullptr);
  // The low parts of all lanes at t() (n×m interleaved): f and J, evaluated
  // at x, are unchanged, so nothing evaluated is dropped. Between steps.
  void set_state_low(const double* x_low);
  // The system's lanes changed (e.g. their parameters) at the same states.
  void system_changed();
  // Lane `lane`'s state at t() into out (n values).
  void copy_lane_state(std::size_t lane, double* out) const;

  double t() const { return t_; }
  const double* x() const { return workspace_.x(); }  // n×m interleaved
  // The states are accumulated compensated: x + x_low is the state to about
  // twice double precision (x_low n×m interleaved, the rounding errors).
  const double* x_low() const { return workspace_.x_low(); }
  double t_previous() const { return t_previous_; }
  double h_last() const { return h_last_; }
  double h_next() const { return h_next_; }
  const RosenbrockStats& stats() const { return stats_; }
  // Assemblies, factorizations and solves of I − hγJ, and the backend used.
  const NewtonMatrixStats& newton_stats() const { return workspace_.newton().stats(); }
  NewtonBackendKind backend() const { return workspace_.newton().backend(); }
  const RosenbrockTableau& tableau() const { return tableau_; }
  std::size_t n() const { return n_; }
  std::size_t lanes() const { return m_; }

 private:
  void validate() const;
  void require_started(const char* what) const;
  void require_between_steps(const char* what) const;
  void evaluate_rhs(double t, const double* X, double* F, int stage);
  void prepare_step_start();
  bool factor_matrix(double h);
  void compute_stages(double h);
  void solve_lanes(double* rhs_interleaved, double* k, std::size_t first_lane);
  void corrected_stage(int i, double h, const double* F);
  double estimate_error(double h);
  void accept(double h, double t_new);
  [[noreturn]] void throw_singular(double h, const std::string& why) const;

  RosenbrockSystem& system_;
  RosenbrockWorkspace& workspace_;
  const RosenbrockTableau& tableau_;
  RosenbrockSettings settings_;
  RosenbrockObserver* observer_;
  PiController controller_;
  RosenbrockStats stats_;
  long budget_start_ = 0;  // stats_.steps when the step budget began
  std::size_t n_, m_;
  bool autonomous_;
  double t_ = 0, t_previous_ = 0, h_last_ = 0, h_next_ = 0, direction_ = 1;
  bool started_ = false;
  bool observing_ = false;       // inside an observer call
  bool f_ready_ = false;         // f_start holds f(t, x)
  bool dfdt_ready_ = false;      // dfdt_start holds ∂f/∂t(t, x)
  bool jacobian_ready_ = false;  // jacobian holds J(t, x of lane 0)
  unsigned long long jacobian_version_ = 0;  // NewtonMatrix's promise: same version, same J
};

}  // namespace odesens::integrate
