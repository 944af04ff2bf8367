// Continuous extension of an explicit RK step (HNW I §II.6):
//   x(t_n + θh) = x_n + h Σ_j w_j(θ) k_j,   0 <= θ <= 1.
// Every tableau uses the nested form of Hairer's CONTD5/CONTD8:
//   x(θ) = r1 + θ(r2 + θ'(r3 + θ(r4 + θ'(r5 + θ(r6 + θ'(r7 + θ r8)))))), θ' = 1-θ,
// with r1 = x_n, r2 = x_{n+1} - x_n, r3 = h k_0 - r2, r4 = r2 - h f_{n+1} - r3 (the
// cubic Hermite interpolant through x_n, x_{n+1}, f_n, f_{n+1}) and r5.. = h Σ d_j k_j
// from the tableau's dense rows (dopri5: one row, dop853: four).
#pragma once

#include <vector>

#include "integrate/erk/tableau.hpp"

namespace odesens::integrate::erk {

// The weights w_j(θ) of a tableau. The coefficients of r_2 .. r_{4+dense_rows}
// in the stages are tabulated once, so that an output costs a Horner sweep
// over the rows with the stages innermost (dop853: 7 rows of 16), not a
// table built again for every output time of every step.
class DenseWeights {
 public:
  explicit DenseWeights(const Tableau& tableau);

  // w[0 .. tableau.dense_stages) for this θ; w_j(1) = b_j up to rounding.
  void at(double theta, double* w) const;

 private:
  int stages_;
  int last_row_;             // 4 + dense_rows: rows r_2 .. r_last_row
  std::vector<double> rows_;  // row m - 2 holds r_m's coefficients of k_0 .. k_{stages-1}
};

}  // namespace odesens::integrate::erk
