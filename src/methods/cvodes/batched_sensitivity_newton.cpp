#include "methods/cvodes/batched_sensitivity_newton.hpp"

#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>

#include "linalg/dense.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {
namespace {

// The content of SUNDIALS' sensitivity wrapper vector (the vectors CVODES'
// simultaneous corrector passes around: the state, then one per
// sensitivity), as declared in SUNDIALS 6's
// include/sundials/sundials_nvector_senswrapper.h, which Debian does not
// install. solve_block() checks what it reads (count and lengths) and
// leaves the work to CVODES' own solve if anything differs.
struct SensWrapperContent {
  N_Vector* vecs;
  int nvecs;
  sunbooleantype own_vecs;
};

BatchedSensitivityNewton& self(SUNNonlinearSolver nls) {
  return *static_cast<BatchedSensitivityNewton*>(nls->content);
}

SUNNonlinearSolver_Type get_type(SUNNonlinearSolver) { return SUNNONLINEARSOLVER_ROOTFIND; }
int initialize(SUNNonlinearSolver nls) {
  self(nls).iterations = 0;
  return SUN_NLS_SUCCESS;
}
int solve(SUNNonlinearSolver nls, N_Vector y0, N_Vector ycor, N_Vector w, sunrealtype tol,
          sunbooleantype call_setup, void* mem) {
  return self(nls).solve(y0, ycor, w, tol, call_setup != 0, mem);
}
int free_nothing(SUNNonlinearSolver) { return SUN_NLS_SUCCESS; }  // owned by the C++ object

}  // namespace

BatchedSensitivityNewton::BatchedSensitivityNewton(Session& session, std::size_t np, bool bdf)
    : session_(session), nx_(session.nx()), np_(np), bdf_(bdf), block_(nx_ * (1 + np)) {
  nls_ = SUNNonlinSolNewEmpty(session.context());
  if (!nls_) throw Error(Status::internal_error, "SUNNonlinSolNewEmpty failed");
  nls_->content = this;
  auto* ops = nls_->ops;
  ops->gettype = get_type;
  ops->initialize = initialize;
  ops->solve = odesens::cvodes::solve;
  ops->free = free_nothing;
  ops->setsysfn = [](SUNNonlinearSolver nls, SUNNonlinSolSysFn f) {
    self(nls).sys = f;
    return SUN_NLS_SUCCESS;
  };
  ops->setlsetupfn = [](SUNNonlinearSolver nls, SUNNonlinSolLSetupFn f) {
    self(nls).lsetup = f;
    return SUN_NLS_SUCCESS;
  };
  ops->setlsolvefn = [](SUNNonlinearSolver nls, SUNNonlinSolLSolveFn f) {
    self(nls).lsolve = f;
    return SUN_NLS_SUCCESS;
  };
  ops->setctestfn = [](SUNNonlinearSolver nls, SUNNonlinSolConvTestFn f, void* data) {
    self(nls).ctest = f;
    self(nls).ctest_data = data;
    return SUN_NLS_SUCCESS;
  };
  ops->setmaxiters = [](SUNNonlinearSolver nls, int n) {
    if (n < 1) return SUN_NLS_ILL_INPUT;
    self(nls).max_iters = n;
    return SUN_NLS_SUCCESS;
  };
  ops->getnumiters = [](SUNNonlinearSolver nls, long* n) {
    *n = self(nls).iterations;
    return SUN_NLS_SUCCESS;
  };
  ops->getcuriter = [](SUNNonlinearSolver nls, int* n) {
    *n = self(nls).current_iter;
    return SUN_NLS_SUCCESS;
  };
  ops->getnumconvfails = [](SUNNonlinearSolver nls, long* n) {
    *n = self(nls).convergence_failures;
    return SUN_NLS_SUCCESS;
  };
  // The destructor does not run for an object whose constructor throws: a
  // failed allocation here must free the solver itself.
  try {
    if (session.linear_solver_kind() == LinearSolverKind::dense) pivots_.resize(nx_);
  } catch (...) {
    nls_->content = nullptr;
    SUNNonlinSolFreeEmpty(nls_);
    nls_ = nullptr;
    throw;
  }
}

BatchedSensitivityNewton::~BatchedSensitivityNewton() {
  if (delta_) N_VDestroy(delta_);
  if (nls_) {
    nls_->content = nullptr;
    SUNNonlinSolFreeEmpty(nls_);
  }
}

int BatchedSensitivityNewton::solve(N_Vector, N_Vector ycor, N_Vector w, double tol,
                                    bool call_setup, void* mem) {
  if (!sys || !lsolve || !ctest || (call_setup && !lsetup)) return SUN_NLS_MEM_NULL;
  if (!delta_) {  // once: the shape of CVODES' wrapper vectors
    delta_ = N_VClone(ycor);
    if (!delta_) return SUN_NLS_MEM_FAIL;
  }
  // Per solve, as CVODES reads them after each call.
  iterations = 0;
  convergence_failures = 0;
  bool jacobian_bad = false;
  int status = SUN_NLS_SUCCESS;
  for (;;) {
    status = sys(ycor, delta_, mem);  // residual at the current correction
    if (status != SUN_NLS_SUCCESS) break;
    if (call_setup) {
      sunbooleantype current = SUNFALSE;
      status = lsetup(jacobian_bad ? SUNTRUE : SUNFALSE, &current, mem);
      jacobian_current_ = current != 0;
      if (status != SUN_NLS_SUCCESS) break;
      if (CVodeGetCurrentGamma(mem, &gamma_setup_) != CV_SUCCESS) return SUN_NLS_MEM_NULL;
    }
    current_iter = 0;
    for (;;) {
      ++iterations;
      N_VScale(-1.0, delta_, delta_);
      if (solve_block(delta_, mem)) {
        ++batched_solves_;
      } else {
        ++fallback_solves_;
        status = lsolve(delta_, mem);
        if (status != SUN_NLS_SUCCESS) break;
      }
      N_VLinearSum(1.0, ycor, 1.0, delta_, ycor);
      status = ctest(nls_, ycor, delta_, tol, w, ctest_data);
      if (status == SUN_NLS_SUCCESS) {
        jacobian_current_ = false;
        return SUN_NLS_SUCCESS;
      }
      if (status != SUN_NLS_CONTINUE) break;
      if (++current_iter >= max_iters) {
        status = SUN_NLS_CONV_RECVR;
        break;
      }
      status = sys(ycor, delta_, mem);
      if (status != SUN_NLS_SUCCESS) break;
    }
    // A recoverable failure with a stale Jacobian: once more, from a zero
    // correction, with a fresh one.
    if (status > 0 && !jacobian_current_ && lsetup) {
      ++convergence_failures;
      call_setup = true;
      jacobian_bad = true;
      N_VConst(0.0, ycor);
      continue;
    }
    break;
  }
  ++convergence_failures;
  return status;
}

bool BatchedSensitivityNewton::solve_block(N_Vector delta, void* mem) {
  const auto* wrapper = static_cast<const SensWrapperContent*>(delta->content);
  const std::size_t columns = 1 + np_;
  if (!wrapper || wrapper->nvecs != static_cast<int>(columns)) return false;
  for (std::size_t c = 0; c < columns; ++c) {
    N_Vector v = wrapper->vecs[c];
    if (!v || N_VGetVectorID(v) != SUNDIALS_NVEC_SERIAL ||
        N_VGetLength_Serial(v) != static_cast<sunindextype>(nx_))
      return false;
  }
  for (std::size_t c = 0; c < columns; ++c) {
    const double* v = N_VGetArrayPointer(wrapper->vecs[c]);
    std::copy(v, v + nx_, block_.begin() + c * nx_);
  }
  SUNLinearSolver ls = session_.linear_solver();
  if (session_.linear_solver_kind() == LinearSolverKind::klu) {
    sun_klu_common* common = SUNLinSol_KLUGetCommon(ls);
    if (!klu_l_solve(SUNLinSol_KLUGetSymbolic(ls), SUNLinSol_KLUGetNumeric(ls),
                     static_cast<sunindextype>(nx_), static_cast<sunindextype>(columns),
                     block_.data(), common))
      return false;
  } else {
    // SUNDIALS' dense LU is in place in the matrix, column-major, with
    // LAPACK's row interchanges (0-based pivots).
    const auto* content = static_cast<SUNLinearSolverContent_Dense>(ls->content);
    for (std::size_t i = 0; i < nx_; ++i) pivots_[i] = static_cast<int>(content->pivots[i]) + 1;
    linalg::lu_solve(nx_, SUNDenseMatrix_Data(session_.newton_matrix()), pivots_.data(), columns,
                     block_.data());
  }
  // CVODES' correction for a gamma that moved since the setup (BDF).
  double scale = 1.0;
  if (bdf_) {
    double gamma = gamma_setup_;
    if (CVodeGetCurrentGamma(mem, &gamma) != CV_SUCCESS) return false;
    const double ratio = gamma / gamma_setup_;
    if (ratio != 1.0) scale = 2.0 / (1.0 + ratio);
  }
  for (std::size_t c = 0; c < columns; ++c) {
    double* v = N_VGetArrayPointer(wrapper->vecs[c]);
    const double* b = block_.data() + c * nx_;
    for (std::size_t i = 0; i < nx_; ++i) v[i] = scale * b[i];
  }
  return true;
}

}  // namespace odesens::cvodes
