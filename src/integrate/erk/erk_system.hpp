// What the ERK engine integrates and whom it tells what it did.
//
// Layout of every buffer: n states × L trajectories interleaved state-major,
// state i of trajectory l at [i*L + l] (lane_kernels.hpp). With L = 1 this
// is a plain state vector. All L trajectories share t and the step size.
#pragma once

namespace odesens::integrate::erk {

// The right-hand side f of x' = f(t, x) for the L trajectories at once.
class ErkSystem {
 public:
  virtual ~ErkSystem() = default;
  // F = f(t, X); X and F hold n*L values. Must not allocate if the caller
  // wants an allocation-free step loop. May throw (the error propagates).
  virtual void rhs(double t, const double* X, double* F) = 0;
};

// Hooks into the step loop; the defaults do nothing. Pointers are valid only
// during the call. Adjoint and checkpointing methods record from here.
class ErkObserver {
 public:
  virtual ~ErkObserver() = default;
  // Stage i was evaluated: k_i = f(t_i, Y_i). Stage 0 is reported at every
  // attempt; stages >= tableau.stages are the lazy dense-output stages.
  virtual void on_stage(int i, double t_i, const double* Y_i, const double* k_i) {}
  // A step from t_n to t_n + h was accepted; k holds the tableau's `stages`
  // stage derivatives of the step.
  virtual void on_step_accepted(double t_n, double h, const double* x_n, const double* x_next,
                                const double* const* k) {}
  // A step attempt of size h from t_n failed the error test with error err.
  virtual void on_step_rejected(double t_n, double h, double err) {}
};

}  // namespace odesens::integrate::erk
