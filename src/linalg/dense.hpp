// Thin wrappers over BLAS/LAPACK for column-major matrices, so that the rest
// of the code never spells Fortran calling conventions.
#pragma once

#include <cstddef>

namespace odesens::linalg {

enum class Trans { no, yes };

// C = alpha * op(A) * op(B) + beta * C, with op(A) m x k, op(B) k x n.
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, double alpha,
          const double* a, std::size_t lda, const double* b, std::size_t ldb, double beta,
          double* c, std::size_t ldc);

// Eigen-decomposition of a symmetric n x n matrix: on return `a` holds the
// orthonormal eigenvectors (columns) and `w` the eigenvalues, ascending.
// Throws Error(internal_error) if LAPACK fails to converge.
void symmetric_eigen(std::size_t n, double* a, double* w);

}  // namespace odesens::linalg
