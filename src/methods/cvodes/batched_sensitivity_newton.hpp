// Newton's method for CVODES' simultaneous corrector that solves the linear
// systems of the states and of all np sensitivities in one call.
//
// CVODES' own Newton solver hands each of the 1 + np correction vectors to
// the linear solver separately: on a sparse model with many parameters
// (network:1000: 2000 columns) the sparse triangular solves, one vector at a
// time, are most of the run. All 1 + np systems share the Newton matrix
// M = I - gamma J, so this solver packs them into one block and makes one
// multi-right-hand-side solve with the factorization CVODES' linear solver
// already holds (KLU's klu_solve, which works through four right-hand sides
// at a time, or LAPACK's dgetrs on SUNDIALS' dense LU). Everything else is
// CVODES' own: the residual, the Jacobian setup, the convergence test, and
// the scaling of the correction by 2 / (1 + gamma / gamma_setup) that
// CVODES applies after a BDF solve when gamma has changed since the setup.
// The iteration is the usual modified Newton loop (SUNDIALS' sunnonlinsol
// Newton has the same control flow): residual, optional setup, up to
// maxiters corrections, one retry with a fresh Jacobian on a recoverable
// failure when the Jacobian was not current.
#pragma once

#include <cvodes/cvodes.h>
#include <sundials/sundials_nonlinearsolver.h>

#include <vector>

#include "integrate/cvodes/cvodes_session.hpp"

namespace odesens::cvodes {

class BatchedSensitivityNewton {
 public:
  // For `session`'s integrator with np sensitivities, after its linear
  // solver is attached; `bdf`: the method scales corrections after a
  // change of gamma (CVODES does for BDF with a matrix-based solver).
  BatchedSensitivityNewton(Session& session, std::size_t np, bool bdf);
  ~BatchedSensitivityNewton();
  BatchedSensitivityNewton(const BatchedSensitivityNewton&) = delete;
  BatchedSensitivityNewton& operator=(const BatchedSensitivityNewton&) = delete;

  // To hand to CVodeSetNonlinearSolverSensSim (CVODES does not own it).
  SUNNonlinearSolver get() const { return nls_; }
  // Iterations whose linear systems were solved in one block, and those
  // that fell back to CVODES' vector-by-vector solve.
  long batched_solves() const { return batched_solves_; }
  long fallback_solves() const { return fallback_solves_; }
  // A new solve on the same integrator: counts from zero.
  void reset_counts() { batched_solves_ = fallback_solves_ = 0; }

  int solve(N_Vector y0, N_Vector ycor, N_Vector w, double tol, bool call_setup, void* mem);

  // Set by CVODES through the solver's operations.
  SUNNonlinSolSysFn sys = nullptr;
  SUNNonlinSolLSetupFn lsetup = nullptr;
  SUNNonlinSolLSolveFn lsolve = nullptr;
  SUNNonlinSolConvTestFn ctest = nullptr;
  void* ctest_data = nullptr;
  int max_iters = 3;
  int current_iter = 0;
  long iterations = 0;
  long convergence_failures = 0;

 private:
  // delta <- M^{-1} delta for all 1 + np vectors; false: not done (the
  // vector is not the expected wrapper), use CVODES' solve.
  bool solve_block(N_Vector delta, void* mem);

  Session& session_;
  std::size_t nx_, np_;
  bool bdf_;
  SUNNonlinearSolver nls_ = nullptr;
  N_Vector delta_ = nullptr;  // cloned from the first ycor CVODES passes
  bool jacobian_current_ = false;
  double gamma_setup_ = 0.0;
  std::vector<double> block_;   // nx x (1 + np), column-major
  std::vector<int> pivots_;     // LAPACK's 1-based copy of the dense LU's pivots
  long batched_solves_ = 0;
  long fallback_solves_ = 0;
};

}  // namespace odesens::cvodes
