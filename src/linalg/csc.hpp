// Products with a matrix stored in compressed sparse column form.
#pragma once

#include <cstddef>

#include "odesens/sparsity.hpp"

namespace odesens::linalg {

// out (rows x nv) = A V for V (cols x nv).
void csc_multiply(const SparsityPattern& pattern, const double* values, std::size_t nv,
                  const double* v, double* out);
// out (cols x nv) = A^T W for W (rows x nv).
void csc_multiply_transposed(const SparsityPattern& pattern, const double* values,
                             std::size_t nv, const double* w, double* out);
// Scatters the values into a dense rows x cols column-major matrix (zeroed first).
void csc_to_dense(const SparsityPattern& pattern, const double* values, double* dense);

}  // namespace odesens::linalg
