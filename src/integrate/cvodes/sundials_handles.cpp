#include "integrate/cvodes/sundials_handles.hpp"

#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>


#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "core/number_text.hpp"
#include "core/usable_memory.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {
namespace {

template <class Handle>
Handle checked(Handle handle, const std::string& what) {
  if (!handle) throw Error(Status::out_of_memory, "out of memory: could not allocate " + what);
  return handle;
}

std::string doubles(double count) { return number_text(count) + " doubles"; }

std::atomic<int> pending_faults[2] = {0, 0};

// Whether an injected fault of this kind is due (and takes it).
bool take_fault(Fault fault) {
  std::atomic<int>& pending = pending_faults[static_cast<int>(fault)];
  int n = pending.load();
  while (n > 0)
    if (pending.compare_exchange_weak(n, n - 1)) return true;
  return false;
}

}  // namespace

void inject_fault(Fault fault, int count) { pending_faults[static_cast<int>(fault)] = count; }

int init_cvode(void* cvode_mem, CVRhsFn f, double t0, N_Vector y0) {
  if (take_fault(Fault::cvode_init)) return CV_MEM_FAIL;
  return CVodeInit(cvode_mem, f, t0, y0);
}

ContextPtr make_context() {
  SUNContext raw = nullptr;
  if (take_fault(Fault::context) || SUNContext_Create(nullptr, &raw) != 0 || !raw)
    throw Error(Status::out_of_memory,
                "out of memory: could not create the SUNDIALS context (SUNContext_Create)");
  return ContextPtr(raw);
}

VectorPtr make_vector(std::size_t n, SUNContext ctx) {
  return checked(VectorPtr(N_VNew_Serial(static_cast<sunindextype>(n), ctx)),
                 "a vector of " + doubles(static_cast<double>(n)));
}

VectorPtr clone_vector(N_Vector like) {
  return checked(VectorPtr(N_VClone(like)),
                 "a vector of " + doubles(static_cast<double>(N_VGetLength(like))));
}

CvodeMemPtr make_cvode(int lmm, SUNContext ctx) {
  return checked(CvodeMemPtr(CVodeCreate(lmm, ctx)), "the CVODES integrator (CVodeCreate)");
}

MatrixPtr make_dense_matrix(std::size_t n, SUNContext ctx) {
  // A matrix beyond the machine's memory is refused before it is asked
  // for (under overcommit, or a sanitizer's allocator, asking may not fail
  // cleanly).
  const double bytes = 8.0 * static_cast<double>(n) * static_cast<double>(n);
  const double usable = usable_memory_bytes();
  if (usable > 0.0 && bytes > usable)
    throw Error(Status::out_of_memory,
                "out of memory: the dense Newton matrix of " + std::to_string(n) +
                    " states needs " + number_text(bytes / 1e9) + " GB, more than the " +
                    rounded_number_text(usable / 1e9) +
                    " GB this process may use (linear_solver=klu with a sparse model needs less)");
  const auto m = static_cast<sunindextype>(n);
  return checked(MatrixPtr(SUNDenseMatrix(m, m, ctx)),
                 "the dense Newton matrix (" + doubles(static_cast<double>(n) * n) +
                     "; linear_solver=klu with a sparse model needs less)");
}

LinearSolverPtr make_dense_solver(N_Vector like, SUNMatrix matrix, SUNContext ctx) {
  return checked(LinearSolverPtr(SUNLinSol_Dense(like, matrix, ctx)), "the dense LU solver");
}

MatrixPtr make_sparse_matrix(std::size_t n, std::size_t nnz, int storage, SUNContext ctx) {
  const auto m = static_cast<sunindextype>(n);
  return checked(
      MatrixPtr(SUNSparseMatrix(m, m, static_cast<sunindextype>(nnz), storage, ctx)),
      "the sparse Newton matrix (" + number_text(static_cast<double>(nnz)) + " entries)");
}

LinearSolverPtr make_klu_solver(N_Vector like, SUNMatrix matrix, SUNContext ctx) {
  return checked(LinearSolverPtr(SUNLinSol_KLU(like, matrix, ctx)), "the KLU solver");
}

VectorArray::VectorArray(int count, N_Vector like) : count_(count) {
  if (count <= 0) return;
  // N_VCloneVectorArray crashes where a clone's allocation fails (SUNDIALS
  // 6 frees the clones made so far wrongly): asked of the memory left first.
  const double length = static_cast<double>(N_VGetLength(like));
  require_allocatable(8.0 * count * length,
                      std::to_string(count) + " vectors of " + doubles(length),
                      "fewer parameters in S (--sens-params), or an adjoint for a gradient");
  data_ = N_VCloneVectorArray(count, like);
  if (!data_)
    throw Error(Status::out_of_memory,
                "out of memory: could not allocate " + std::to_string(count) + " vectors of " +
                    doubles(static_cast<double>(N_VGetLength(like))));
}

}  // namespace odesens::cvodes
