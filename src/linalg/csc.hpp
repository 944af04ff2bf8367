// Products with a matrix stored in compressed sparse column form.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/sparsity.hpp"

namespace odesens::linalg {

// out (rows x nv) = A V for V (cols x nv).
void csc_multiply(const SparsityPattern& pattern, const double* values, std::size_t nv,
                  const double* v, double* out);
// out (cols x nv) = A^T W for W (rows x nv).
void csc_multiply_transposed(const SparsityPattern& pattern, const double* values,
                             std::size_t nv, const double* w, double* out);
// out (m x cols) = D A for a dense m x rows D: one axpy of a column of D
// per stored entry, m nnz multiply-adds.
void dense_times_csc(std::size_t m, const double* d, const SparsityPattern& pattern,
                     const double* values, double* out);
// The pattern of A^T (A's rows as columns), and for each of its entries
// the position of the same entry in A's values (source), so that A's
// values permuted by source are A^T's. A product A V is then
// csc_multiply_transposed of A^T: gathers instead of scattered updates.
SparsityPattern transpose_pattern(const SparsityPattern& pattern,
                                  std::vector<std::size_t>& source);
// Scatters the values into a dense rows x cols column-major matrix (zeroed first).
void csc_to_dense(const SparsityPattern& pattern, const double* values, double* dense);

}  // namespace odesens::linalg
