// The adjoint's jumps at the output times (set-valued sensitivity paper,
// (14)-(15), Table 1 "ASA": terminal and transition values) for the
// objectives of the set-valued methods.
#pragma once

#include <cstddef>
#include <vector>

#include "methods/bounds/system_bounder.hpp"
#include "methods/bounds/verified_arithmetic.hpp"
#include "odesens/problem.hpp"

namespace odesens::bounds {

// lambda's jump at output time k, dm_k/dx (paper (14)-(15)): w_k for F =
// sum_k w_k^T x(t_k); 2 (x(t_k) - d_k) on the observed states for the
// least-squares objective, whose part in the state's ellipsoid is the gain
// 2 on it (SystemBounder::add_jump).
class ObjectiveJumps {
 public:
  ObjectiveJumps(const Problem& problem, const SystemBounder& state, const PolyArithmetic& arith);

  // The jump at output time k from the state bounding vector x there: its
  // models and the gains on the state's ellipsoid. Under directed rounding.
  void at(std::size_t k, const double* x, std::vector<PolyModel>& jump, std::vector<double>& gain);

 private:
  const std::vector<double>* data_;
  std::vector<double> weights_;
  const SystemBounder* state_;
  const PolyArithmetic* arith_;
  std::size_t nx_;
  std::vector<PolyModel> x_;
  PolyModel residual_;
};

}  // namespace odesens::bounds
