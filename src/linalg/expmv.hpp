// The action of the exponential of a sparse augmented matrix, without
// forming any n x n matrix:
//
//   [U; I] <- exp(t [[A, C], [0, 0]]) [U; I],  i.e.
//   U <- e^{tA} U + (int_0^t e^{sA} ds) C,
//
// A (n x n) sparse, C (n x m) sparse or dense, U (n x m) dense. This is the
// exponential update of the PBS paper's Eq. 18 for large sparse J_x (A = J_x,
// C = J_p, U = S). Method: Al-Mohy and Higham, "Computing the action of the
// matrix exponential" (SIAM J. Sci. Comput. 33, 2011), Algorithm 3.2: a
// truncated Taylor series of degree m* applied s times, with (m*, s)
// minimising m*·s subject to t||A~||_1 / s <= theta_{m*} (the 1-norm of the
// augmented matrix with C balanced against A, see Norms; their refinement
// by estimates of ||A~^p||^{1/p} can only lower the count and is not used), the theta_m of their
// Table 3.1 and of Higham and Al-Mohy, Acta Numerica 19 (2010), Table A.3,
// for double precision, and their early termination test. No shift by the
// trace: the augmented matrix's zero block would not keep its structure.
//
// The cost is about t||A~||_1 products with A: cheap for non-stiff
// problems, large when t||A|| is large (stiff problems over long steps).
// steps_for() gives the count before the work, so callers can choose.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/sparsity.hpp"

namespace odesens::linalg {

class AugmentedExpmv {
 public:
  AugmentedExpmv(std::size_t n, std::size_t m);

  // C sparse (c_pattern n x m with c_values) or dense (c_pattern null,
  // c_values n x m column-major). U is updated in place.
  //
  // With dc_values (same layout as c_values) the forcing varies linearly
  // over the interval, C(s) = C + (s/t) dC:
  //   U <- e^{tA} U + int_0^t e^{(t-s)A} C(s) ds = e^{tA} U + t phi1(tA) C + t phi2(tA) dC,
  // the action of the exponential of [[A, dC, C], [0, 0, I/t], [0, 0, 0]]
  // on [U; 0; I] (the nilpotent part adds one term per Taylor step).
  void apply(const SparsityPattern& a_pattern, const double* a_values,
             const SparsityPattern* c_pattern, const double* c_values, double t, double* U,
             const double* dc_values = nullptr);

  // The number of products with A that apply() makes at most for
  // t * Norms::balanced = t_norm.
  static double products_for(double t_norm);
  // 1-norms of A and C, the balancing factor sigma of C (the matrix
  // [[A, sigma C], [0, 0]] acts on [U; I / sigma] with the same top result),
  // and the balanced augmented matrix's 1-norm, which sets the work
  // (NaN when A or C holds NaN or Inf).
  struct Norms {
    double a = 0.0, c = 0.0, sigma = 1.0, balanced = 0.0;
  };
  static Norms norms(const SparsityPattern& a_pattern, const double* a_values,
                     const SparsityPattern* c_pattern, const double* c_values, std::size_t n,
                     std::size_t m);
  std::size_t bytes() const {
    return (term_.size() + next_.size() + row_sums_.size()) * sizeof(double);
  }
  // Products made by the last apply().
  std::size_t last_products() const { return last_products_; }

 private:
  std::size_t n_, m_;
  std::vector<double> term_, next_;  // n x m blocks
  std::vector<double> row_sums_;     // n
  std::size_t last_products_ = 0;
};

}  // namespace odesens::linalg
