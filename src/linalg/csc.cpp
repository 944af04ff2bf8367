#include "linalg/csc.hpp"

#include <algorithm>

namespace odesens::linalg {

void csc_multiply(const SparsityPattern& pattern, const double* values, std::size_t nv,
                  const double* v, double* out) {
  const std::size_t rows = pattern.rows, cols = pattern.cols;
  std::fill(out, out + rows * nv, 0.0);
  for (std::size_t k = 0; k < nv; ++k) {
    const double* vk = v + k * cols;
    double* ok = out + k * rows;
    for (std::size_t j = 0; j < cols; ++j) {
      const double vj = vk[j];
      if (vj == 0.0) continue;
      for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q)
        ok[pattern.row_idx[q]] += values[q] * vj;
    }
  }
}

void csc_multiply_transposed(const SparsityPattern& pattern, const double* values,
                             std::size_t nv, const double* w, double* out) {
  const std::size_t rows = pattern.rows, cols = pattern.cols;
  for (std::size_t k = 0; k < nv; ++k) {
    const double* wk = w + k * rows;
    double* ok = out + k * cols;
    for (std::size_t j = 0; j < cols; ++j) {
      double sum = 0.0;
      for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q)
        sum += values[q] * wk[pattern.row_idx[q]];
      ok[j] = sum;
    }
  }
}

void csc_to_dense(const SparsityPattern& pattern, const double* values, double* dense) {
  std::fill(dense, dense + pattern.rows * pattern.cols, 0.0);
  for (std::size_t j = 0; j < pattern.cols; ++j)
    for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q)
      dense[pattern.row_idx[q] + j * pattern.rows] = values[q];
}

}  // namespace odesens::linalg
