// CallbackModel: a Model made of plain C function pointers, the shape in
// which C, Fortran and Julia users hand their systems to the C ABI.
//
// Only f is required. Every user function returns int: 0 for success,
// anything else aborts the solve with Status::callback_failed and a message
// naming the function and the time. Missing derivatives are computed by
// finite differences (see finite_difference_step()); when a sparsity
// pattern is given, the difference quotients of J_x group structurally
// orthogonal columns.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens {

extern "C" {
// xdot = f(t, x, p)
typedef int (*RhsCallback)(double t, const double* x, const double* p, double* xdot, void* user);
// J (nx x nx dense column-major) = df/dx, or Jp (nx x np) = df/dp
typedef int (*DenseJacCallback)(double t, const double* x, const double* p, double* J, void* user);
// values of df/dx in the order of the CSC sparsity pattern
typedef int (*SparseJacCallback)(double t, const double* x, const double* p, double* values,
                                 void* user);
// out (nx x nv) = J_x V
typedef int (*JvpCallback)(double t, const double* x, const double* p, std::int64_t nv,
                           const double* V, double* out, void* user);
// out_x (nx x nw) = J_x^T W and out_p (np x nw) = J_p^T W; either output may be NULL
typedef int (*VjpCallback)(double t, const double* x, const double* p, std::int64_t nw,
                           const double* W, double* out_x, double* out_p, void* user);
// x0 = x0(p)
typedef int (*InitialStateCallback)(const double* p, double* x0, void* user);
// dx0_dp (nx x np) = dx0/dp
typedef int (*InitialSensitivityCallback)(const double* p, double* dx0_dp, void* user);
}

struct CallbackModelSpec {
  std::size_t nx = 0;
  std::size_t np = 0;
  std::string name = "callback";
  std::vector<std::string> state_names;  // default x1..xN
  std::vector<std::string> param_names;  // default p1..pN
  std::vector<double> nominal_params;    // default zeros
  std::vector<double> x0;                // used when initial_state is null; default zeros
  double t0 = 0.0;
  double t_end = 1.0;

  void* user = nullptr;  // passed to every callback
  RhsCallback f = nullptr;
  DenseJacCallback jac_x = nullptr;
  SparsityPattern pattern;                  // empty (rows == 0) when unknown
  SparseJacCallback jac_x_sparse = nullptr; // needs pattern
  DenseJacCallback jac_p = nullptr;
  JvpCallback jvp = nullptr;
  VjpCallback vjp = nullptr;
  InitialStateCallback initial_state = nullptr;
  InitialSensitivityCallback initial_sensitivity = nullptr;
};

// Validates the spec (sizes, names, pattern) and builds the model; throws
// Error(invalid_argument) naming what is wrong.
std::shared_ptr<Model> make_callback_model(CallbackModelSpec spec);

}  // namespace odesens
