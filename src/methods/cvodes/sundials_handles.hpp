// Owning handles for SUNDIALS objects, so that every exit path of a solve
// (including exceptions from user callbacks) frees what it created.
#pragma once

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

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

// An array of N_Vectors made by N_VCloneVectorArray.
class VectorArray {
 public:
  VectorArray() = default;
  VectorArray(int count, N_Vector like) : count_(count) {
    if (count > 0) data_ = N_VCloneVectorArray(count, like);
  }
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
