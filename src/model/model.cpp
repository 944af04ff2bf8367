// Default derivative services of Model, in terms of rhs and of each other.
#include "odesens/model.hpp"

#include <algorithm>

#include "linalg/csc.hpp"
#include "linalg/dense.hpp"
#include "model/finite_differences.hpp"
#include "model/scratch.hpp"

namespace odesens {

using detail::scratch;
using detail::ScratchSlot;

void Model::initial_sensitivity(const double*, double* dx0_dp) const {
  std::fill(dx0_dp, dx0_dp + nx() * np(), 0.0);
}

void Model::jac_x(double t, const double* x, const double* p, double* J) const {
  detail::fd_jac_x_dense(*this, t, x, p, J);
}

void Model::jac_x_values(double t, const double* x, const double* p, double* values) const {
  const SparsityPattern* pattern = jac_x_pattern();
  const std::size_t n = nx();
  double* dense = scratch(ScratchSlot::dense_jacobian, n * n);
  jac_x(t, x, p, dense);
  if (!pattern) {
    std::copy(dense, dense + n * n, values);
    return;
  }
  for (std::size_t j = 0; j < n; ++j)
    for (auto q = pattern->col_ptr[j]; q < pattern->col_ptr[j + 1]; ++q)
      values[q] = dense[pattern->row_idx[q] + j * n];
}

void Model::jac_p(double t, const double* x, const double* p, double* Jp) const {
  detail::fd_jac_p(*this, t, x, p, Jp);
}

void Model::jvp(double t, const double* x, const double* p, std::size_t nv, const double* V,
                double* out) const {
  const std::size_t n = nx();
  if (const SparsityPattern* pattern = jac_x_pattern()) {
    double* values = scratch(ScratchSlot::jacobian_values, pattern->nnz());
    jac_x_values(t, x, p, values);
    linalg::csc_multiply(*pattern, values, nv, V, out);
    return;
  }
  double* J = scratch(ScratchSlot::dense_jacobian, n * n);
  jac_x(t, x, p, J);
  linalg::gemm(linalg::Trans::no, linalg::Trans::no, n, nv, n, 1.0, J, n, V, n, 0.0, out, n);
}

void Model::vjp_x(double t, const double* x, const double* p, std::size_t nw, const double* W,
                  double* out) const {
  const std::size_t n = nx();
  if (const SparsityPattern* pattern = jac_x_pattern()) {
    double* values = scratch(ScratchSlot::jacobian_values, pattern->nnz());
    jac_x_values(t, x, p, values);
    linalg::csc_multiply_transposed(*pattern, values, nw, W, out);
    return;
  }
  double* J = scratch(ScratchSlot::dense_jacobian, n * n);
  jac_x(t, x, p, J);
  linalg::gemm(linalg::Trans::yes, linalg::Trans::no, n, nw, n, 1.0, J, n, W, n, 0.0, out, n);
}

void Model::vjp_p(double t, const double* x, const double* p, std::size_t nw, const double* W,
                  double* out) const {
  const std::size_t n = nx(), m = np();
  if (m == 0) return;
  double* Jp = scratch(ScratchSlot::dense_jacobian, n * m);
  jac_p(t, x, p, Jp);
  linalg::gemm(linalg::Trans::yes, linalg::Trans::no, m, nw, n, 1.0, Jp, n, W, n, 0.0, out, m);
}

}  // namespace odesens
