// What the Rosenbrock engine integrates and whom it tells what it did.
//
// m trajectories ("lanes") on one shared step size: lane 0 is the nominal
// trajectory, lanes 1..m−1 are perturbed copies (internal differences,
// Franz & Kiehl §2.1), each with its own parameter vector, which the system
// holds. The engine forms and factors I − hγJ once per step from the
// nominal's exact Jacobian only (the paper's §2.5) and solves every lane's
// stages with it; perturbed lanes then need f and, in the corrected mode,
// products with their own Jacobian at their own point.
//
// Layout of the buffers X, F, D: n states × m lanes interleaved
// state-major, state i of lane l at [i*m + l] (step_control.hpp). Single
// vectors (the nominal state, a lane's state, v, out) are contiguous.
#pragma once

#include <cstddef>

#include "odesens/sparsity.hpp"

namespace odesens::integrate {

class RosenbrockSystem {
 public:
  virtual ~RosenbrockSystem() = default;

  // F = f(t, X) for all m lanes, each with its own parameters. Must not
  // allocate if the caller wants an allocation-free step loop. May throw
  // (the error propagates).
  virtual void rhs(double t, const double* X, double* F) = 0;

  // Sparsity of J_x (n×n), or nullptr for a dense Jacobian. Fixed for the
  // life of the system: the engine's workspace is built for it.
  virtual const SparsityPattern* jacobian_pattern() const { return nullptr; }
  // J_x of the nominal trajectory (lane 0) at (t, x): n² values column-major
  // (dense) or nnz values in the order of jacobian_pattern().
  virtual void jacobian(double t, const double* x, double* values) = 0;
  // True when J_x depends on neither t nor x (f affine in x): the engine
  // then evaluates it once per reset (or after system_changed()) and keeps
  // the LU while h stays the same.
  virtual bool constant_jacobian() const { return false; }

  // out = J_x(t, x; p_lane) v at lane `lane`'s own state x and parameters
  // (lane >= 1; only the corrected mode asks).
  virtual void jvp(std::size_t lane, double t, const double* x, const double* v,
                   double* out) = 0;

  // D = ∂f/∂t(t, X) for all lanes (interleaved like X), each lane with its
  // own parameters. Not called when autonomous().
  virtual void dfdt(double t, const double* X, double* D) = 0;
  // True when f does not depend on t explicitly.
  virtual bool autonomous() const { return false; }
};

// Hooks into the step loop; the defaults do nothing. Pointers are valid only
// during the call, and the engine's state must not be changed from inside
// one (overwrite lanes after step() returns: RosenbrockEngine::set_lane_state).
class RosenbrockObserver {
 public:
  virtual ~RosenbrockObserver() = default;
  // A step from t_n to t_n + h was accepted; k holds the `stages` stage
  // vectors k_i of the step (interleaved, all lanes).
  virtual void on_step_accepted(double t_n, double h, const double* x_n, const double* x_next,
                                const double* const* k) {}
  // A step attempt of size h from t_n failed the error test with error err.
  virtual void on_step_rejected(double t_n, double h, double err) {}
};

}  // namespace odesens::integrate
