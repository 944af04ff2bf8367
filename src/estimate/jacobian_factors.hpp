// LU factors of J_x at a point, for Newton steps and S* = -J_x^{-1} J_p:
// dense LAPACK, or KLU for a model with a sparsity pattern of J_x and at
// least `sparse_threshold` states (the threshold of cvodes_fsa's
// linear_solver=auto). Both factor J_x with each row divided by its largest
// magnitude (KLU's default scaling) and call it singular when the smallest
// pivot is at most 1e-12 times the largest (|u_ii| of the LU, KLU's rcond):
// a model with conservation laws has an exactly singular J_x whose LU, in
// floating point, ends in a pivot of rounding size rather than zero. Without
// the scaling, rates decades apart (1e-4 beside 1e9) looked singular.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "estimate/conservation_laws.hpp"
#include "odesens/model.hpp"

namespace odesens::estimate {

inline constexpr double singular_pivot_ratio = 1e-12;

class JacobianFactors {
 public:
  virtual ~JacobianFactors() = default;
  // Evaluates and factors J_x(t, x, p); false when it is singular or not
  // finite, with the reason in why_not().
  virtual bool factor(double t, const double* x, const double* p) = 0;
  // b (nx x nrhs, column-major) <- J_x^{-1} b, after a factor() that succeeded.
  virtual void solve(std::size_t nrhs, double* b) = 0;
  const std::string& why_not() const { return why_not_; }
  // "dense LU" or "KLU", for the attempts' lines.
  virtual const char* kind() const = 0;
  // From the next factor() on, the rows laws.rows of J_x are the laws'
  // (conservation_laws.hpp): solve() then wants those rows of b set to
  // the laws' right-hand sides. Only where can_constrain() (not KLU).
  virtual bool can_constrain() const { return false; }
  virtual void constrain(const ConservationLaws& laws) { (void)laws; }

 protected:
  std::string why_not_;
};

// KLU when the model has a pattern and nx >= sparse_threshold, dense otherwise.
std::unique_ptr<JacobianFactors> make_jacobian_factors(const Model& model, Workspace* ws,
                                                       std::size_t sparse_threshold);
std::unique_ptr<JacobianFactors> make_dense_jacobian_factors(const Model& model, Workspace* ws);

}  // namespace odesens::estimate
