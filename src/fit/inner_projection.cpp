// Kaufman's projection of the inner columns (inner_projection.hpp).
#include "fit/inner_projection.hpp"

#include "linalg/dense.hpp"

namespace odesens::fitting {

void project_out_columns(std::vector<double>& jacobian, std::size_t rows, std::size_t n,
                         const std::vector<std::size_t>& inner) {
  using linalg::Trans;
  // J_s: the inner columns that are not zero, column-major rows x k.
  std::vector<double> js;
  for (std::size_t c : inner) {
    bool zero = true;
    for (std::size_t r = 0; r < rows; ++r) zero = zero && jacobian[r * n + c] == 0.0;
    if (zero) continue;
    for (std::size_t r = 0; r < rows; ++r) js.push_back(jacobian[r * n + c]);
  }
  const std::size_t k = rows == 0 ? 0 : js.size() / rows;
  if (k == 0) return;
  // The row-major J is the column-major J^T (n x rows).
  // X = J_s^T J (k x n), then (J_s^T J_s)^-1 X, then J^T -= X^T J_s^T.
  std::vector<double> gram(k * k), x(k * n);
  linalg::gemm(Trans::yes, Trans::no, k, k, rows, 1.0, js.data(), rows, js.data(), rows, 0.0,
               gram.data(), k);
  linalg::gemm(Trans::yes, Trans::yes, k, n, rows, 1.0, js.data(), rows, jacobian.data(), n,
               0.0, x.data(), k);
  // Columns (nearly) dependent: no projection, rather than one by a
  // matrix that rounding dominates.
  const double norm = linalg::norm1(k, k, gram.data());
  std::vector<int> pivots(k), iwork(k);
  std::vector<double> work(4 * k);
  if (!linalg::lu_factor(k, gram.data(), pivots.data()) ||
      linalg::lu_rcond(k, gram.data(), norm, work.data(), iwork.data()) < 1e-12)
    return;
  linalg::lu_solve(k, gram.data(), pivots.data(), n, x.data());
  linalg::gemm(Trans::yes, Trans::yes, n, rows, k, -1.0, x.data(), k, js.data(), rows, 1.0,
               jacobian.data(), n);
}

}  // namespace odesens::fitting
