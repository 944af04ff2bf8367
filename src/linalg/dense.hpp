// Thin wrappers over BLAS/LAPACK for column-major matrices, so that the rest
// of the code never spells Fortran calling conventions.
#pragma once

#include <cstddef>
#include <string>

namespace odesens::linalg {

enum class Trans { no, yes };

// C = alpha * op(A) * op(B) + beta * C, with op(A) m x k, op(B) k x n.
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, double alpha,
          const double* a, std::size_t lda, const double* b, std::size_t ldb, double beta,
          double* c, std::size_t ldc);

// LU factorization with partial pivoting of the n x n matrix a (in place);
// returns false when a is exactly singular.
bool lu_factor(std::size_t n, double* a, int* pivots);
// Solves A X = B in place for the nrhs columns of b, with A factored by lu_factor.
void lu_solve(std::size_t n, const double* lu, const int* pivots, std::size_t nrhs, double* b);
// Solves A^T X = B in place, with A factored by lu_factor.
void lu_solve_transposed(std::size_t n, const double* lu, const int* pivots, std::size_t nrhs,
                         double* b);

// The BLAS/LAPACK this build uses, e.g. "OpenBLAS 0.3.21 ... (1 thread)".
std::string blas_description();
// True when BLAS calls run on the calling thread only (the private OpenBLAS
// odesens links by default; see cmake/FindOdesensBlasLapack.cmake).
bool blas_is_single_threaded();

// 1-norm (largest absolute column sum) of an m x n matrix.
double norm1(std::size_t m, std::size_t n, const double* a);

// Eigen-decomposition of a symmetric n x n matrix: on return `a` holds the
// orthonormal eigenvectors (columns) and `w` the eigenvalues, ascending.
// Throws Error(internal_error) if LAPACK fails to converge.
void symmetric_eigen(std::size_t n, double* a, double* w);

}  // namespace odesens::linalg
