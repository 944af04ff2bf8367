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

// The reciprocal condition number in the 1-norm of A, factored by
// lu_factor, with anorm = norm1(A) (LAPACK dgecon's estimate); 0 where A
// is singular or has non-finite entries. work: 4n doubles, iwork: n ints.
double lu_rcond(std::size_t n, const double* lu, double anorm, double* work, int* iwork);

// 1-norm (largest absolute column sum) of an m x n matrix.
double norm1(std::size_t m, std::size_t n, const double* a);

// Eigen-decomposition of a symmetric n x n matrix: on return `a` holds the
// orthonormal eigenvectors (columns) and `w` the eigenvalues, ascending.
// Throws Error(internal_error) if LAPACK fails to converge.
void symmetric_eigen(std::size_t n, double* a, double* w);

// Singular values of the m x n matrix a (overwritten), descending, in s
// (min(m, n) of them), and all m left singular vectors as the columns of u
// (m x m), by LAPACK dgesvd. Returns false where it does not converge.
bool left_singular_vectors(std::size_t m, std::size_t n, double* a, double* s, double* u);

// QR with column pivoting of the m x n matrix a (overwritten, LAPACK
// dgeqp3): order[j] is the column taken j-th, the most independent first.
void pivoted_columns(std::size_t m, std::size_t n, double* a, int* order);

// Eigen-decomposition of a general n x n matrix by LAPACK dgeev (balanced):
// eigenvalues wr[j] + i wi[j]; right eigenvectors as the columns of vr
// (n x n), of unit 2-norm, a complex pair (wi[j] > 0) as vr(:,j) +- i vr(:,j+1);
// vr null: the eigenvalues alone.
// `a` is overwritten; work holds general_eigen_workspace(n) doubles.
// Returns false where the QR algorithm does not converge.
std::size_t general_eigen_workspace(std::size_t n);
bool general_eigen(std::size_t n, double* a, double* wr, double* wi, double* vr, double* work);

}  // namespace odesens::linalg
