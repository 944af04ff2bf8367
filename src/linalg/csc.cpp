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

void dense_times_csc(std::size_t m, const double* d, const SparsityPattern& pattern,
                     const double* values, double* out) {
  for (std::size_t j = 0; j < pattern.cols; ++j) {
    double* oj = out + j * m;
    std::fill(oj, oj + m, 0.0);
    for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q) {
      const double* dk = d + static_cast<std::size_t>(pattern.row_idx[q]) * m;
      const double v = values[q];
      for (std::size_t i = 0; i < m; ++i) oj[i] += v * dk[i];
    }
  }
}

SparsityPattern transpose_pattern(const SparsityPattern& pattern,
                                  std::vector<std::size_t>& source) {
  SparsityPattern t;
  t.rows = pattern.cols;
  t.cols = pattern.rows;
  t.col_ptr.assign(pattern.rows + 1, 0);
  for (auto r : pattern.row_idx) ++t.col_ptr[static_cast<std::size_t>(r) + 1];
  for (std::size_t i = 0; i < pattern.rows; ++i) t.col_ptr[i + 1] += t.col_ptr[i];
  t.row_idx.resize(pattern.nnz());
  source.resize(pattern.nnz());
  std::vector<std::int64_t> next(t.col_ptr.begin(), t.col_ptr.end() - 1);
  // Columns of A in order: each column of A^T gets its rows sorted.
  for (std::size_t j = 0; j < pattern.cols; ++j)
    for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q) {
      const auto row = static_cast<std::size_t>(pattern.row_idx[q]);
      const auto slot = static_cast<std::size_t>(next[row]++);
      t.row_idx[slot] = static_cast<std::int64_t>(j);
      source[slot] = static_cast<std::size_t>(q);
    }
  return t;
}

void csc_to_dense(const SparsityPattern& pattern, const double* values, double* dense) {
  std::fill(dense, dense + pattern.rows * pattern.cols, 0.0);
  for (std::size_t j = 0; j < pattern.cols; ++j)
    for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q)
      dense[pattern.row_idx[q] + j * pattern.rows] = values[q];
}

}  // namespace odesens::linalg
