// Owning handles for SUNDIALS objects, so that every exit path of a solve
// (including exceptions from user callbacks) frees what it created, and the
// one place where they are created: each constructor's result is checked,
// and a failure is Error(out_of_memory) naming what could not be allocated
// (SUNDIALS returns NULL, and a NULL passed on crashes in the next call).
#pragma once

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include <cstddef>
#include <memory>

#if SUNDIALS_VERSION_MAJOR != 6
#error "odesens' CVODES layer is written for the SUNDIALS 6 API"
#endif

namespace odesens::cvodes {

struct ContextDeleter {
  void operator()(SUNContext c) const { SUNContext_Free(&c); }
};
struct VectorDeleter {
  void operator()(_generic_N_Vector* v) const { N_VDestroy(v); }
};
struct MatrixDeleter {
  void operator()(_generic_SUNMatrix* m) const { SUNMatDestroy(m); }
};
struct LinearSolverDeleter {
  void operator()(_generic_SUNLinearSolver* s) const { SUNLinSolFree(s); }
};
struct CvodeMemDeleter {
  void operator()(void* mem) const { CVodeFree(&mem); }
};

using ContextPtr = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextDeleter>;
using VectorPtr = std::unique_ptr<_generic_N_Vector, VectorDeleter>;
using MatrixPtr = std::unique_ptr<_generic_SUNMatrix, MatrixDeleter>;
using LinearSolverPtr = std::unique_ptr<_generic_SUNLinearSolver, LinearSolverDeleter>;
using CvodeMemPtr = std::unique_ptr<void, CvodeMemDeleter>;

// The checked constructors (Error(out_of_memory) when SUNDIALS returns NULL).
ContextPtr make_context();
VectorPtr make_vector(std::size_t n, SUNContext ctx);
VectorPtr clone_vector(N_Vector like);
CvodeMemPtr make_cvode(int lmm, SUNContext ctx);
// n x n dense matrix, and the dense LU on it.
MatrixPtr make_dense_matrix(std::size_t n, SUNContext ctx);
LinearSolverPtr make_dense_solver(N_Vector like, SUNMatrix matrix, SUNContext ctx);
// n x n sparse matrix with nnz entries (CSC_MAT or CSR_MAT), and KLU on it.
MatrixPtr make_sparse_matrix(std::size_t n, std::size_t nnz, int storage, SUNContext ctx);
LinearSolverPtr make_klu_solver(N_Vector like, SUNMatrix matrix, SUNContext ctx);

// CVodeInit through the one place that can be made to fail (below); the
// caller checks the flag as it checks every CVODES call.
int init_cvode(void* cvode_mem, CVRhsFn f, double t0, N_Vector y0);

// Fault injection for tests: the next `count` context creations or
// CVodeInit calls (in any thread) fail as SUNDIALS fails when memory runs
// out, so that every CVODES user can be seen to report them alike.
enum class Fault { context, cvode_init };
void inject_fault(Fault fault, int count = 1);

// An array of N_Vectors made by N_VCloneVectorArray (checked as above).
class VectorArray {
 public:
  VectorArray() = default;
  VectorArray(int count, N_Vector like);
  ~VectorArray() {
    if (data_) N_VDestroyVectorArray(data_, count_);
  }
  VectorArray(const VectorArray&) = delete;
  VectorArray& operator=(const VectorArray&) = delete;
  N_Vector* get() const { return data_; }
  N_Vector operator[](int i) const { return data_[i]; }

 private:
  int count_ = 0;
  N_Vector* data_ = nullptr;
};

}  // namespace odesens::cvodes
