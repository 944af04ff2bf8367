#include "linalg/dense.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "odesens/status.hpp"

extern "C" {
// LAPACK (Fortran); the trailing size_t arguments are the hidden lengths of
// the character arguments in the gfortran calling convention.
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda,
             const int* ipiv, double* b, const int* ldb, int* info, std::size_t);
void dgecon_(const char* norm, const int* n, const double* a, const int* lda,
             const double* anorm, double* rcond, double* work, int* iwork, int* info, std::size_t);
void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda,
            double* wr, double* wi, double* vl, const int* ldvl, double* vr, const int* ldvr,
            double* work, const int* lwork, int* info, std::size_t, std::size_t);
void dsyev_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda,
            double* w, double* work, const int* lwork, int* info, std::size_t, std::size_t);
void dgesvd_(const char* jobu, const char* jobvt, const int* m, const int* n, double* a,
             const int* lda, double* s, double* u, const int* ldu, double* vt, const int* ldvt,
             double* work, const int* lwork, int* info, std::size_t, std::size_t);
void dgeqp3_(const int* m, const int* n, double* a, const int* lda, int* jpvt, double* tau,
             double* work, const int* lwork, int* info);
}

namespace odesens::linalg {

namespace {

#ifdef ODESENS_BLAS_PRIVATE_OPENBLAS
// odesens' private OpenBLAS (cmake/FindOdesensBlasLapack.cmake) computes on
// the calling thread: held to one thread before its first call. A function
// local static is initialised once, thread-safely; afterwards this is one
// load per call.
void hold_blas_to_calling_thread() {
  static const bool held = [] {
    openblas_set_num_threads(1);
    return true;
  }();
  (void)held;
}
#else
void hold_blas_to_calling_thread() {}
#endif

}  // namespace

#ifdef ODESENS_BLAS_PRIVATE_OPENBLAS
std::string blas_description() {
  hold_blas_to_calling_thread();
  return std::string(openblas_get_config()) + " (" + openblas_get_corename() + ", " +
         std::to_string(openblas_get_num_threads()) + " thread)";
}
bool blas_is_single_threaded() {
  hold_blas_to_calling_thread();
  return openblas_get_num_threads() == 1;
}
#else
std::string blas_description() { return "system BLAS/LAPACK (threading as that library sets it)"; }
bool blas_is_single_threaded() { return false; }
#endif

void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, double alpha,
          const double* a, std::size_t lda, const double* b, std::size_t ldb, double beta,
          double* c, std::size_t ldc) {
  if (m == 0 || n == 0) return;
  hold_blas_to_calling_thread();
  cblas_dgemm(CblasColMajor, ta == Trans::yes ? CblasTrans : CblasNoTrans,
              tb == Trans::yes ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), alpha, a, static_cast<int>(lda), b,
              static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
}

bool lu_factor(std::size_t n, double* a, int* pivots) {
  const int nn = static_cast<int>(n);
  int info = 0;
  hold_blas_to_calling_thread();
  dgetrf_(&nn, &nn, a, &nn, pivots, &info);
  if (info < 0) throw Error(Status::internal_error, "dgetrf: bad argument " + std::to_string(-info));
  return info == 0;
}

namespace {

void lu_solve_with(const char* trans, std::size_t n, const double* lu, const int* pivots,
                   std::size_t nrhs, double* b) {
  if (nrhs == 0) return;
  const int nn = static_cast<int>(n), nr = static_cast<int>(nrhs);
  int info = 0;
  hold_blas_to_calling_thread();
  dgetrs_(trans, &nn, &nr, lu, &nn, pivots, b, &nn, &info, 1);
  if (info != 0) throw Error(Status::internal_error, "dgetrs: bad argument " + std::to_string(-info));
}

}  // namespace

void lu_solve(std::size_t n, const double* lu, const int* pivots, std::size_t nrhs, double* b) {
  lu_solve_with("N", n, lu, pivots, nrhs, b);
}

void lu_solve_transposed(std::size_t n, const double* lu, const int* pivots, std::size_t nrhs,
                         double* b) {
  lu_solve_with("T", n, lu, pivots, nrhs, b);
}

double lu_rcond(std::size_t n, const double* lu, double anorm, double* work, int* iwork) {
  if (n == 0) return 1.0;
  if (!std::isfinite(anorm)) return 0.0;
  const int nn = static_cast<int>(n);
  int info = 0;
  double rcond = 0.0;
  hold_blas_to_calling_thread();
  dgecon_("1", &nn, lu, &nn, &anorm, &rcond, work, iwork, &info, 1);
  return info == 0 && std::isfinite(rcond) ? rcond : 0.0;
}

double norm1(std::size_t m, std::size_t n, const double* a) {
  double best = 0.0;
  for (std::size_t j = 0; j < n; ++j) {
    double sum = 0.0;
    for (std::size_t i = 0; i < m; ++i) sum += std::fabs(a[i + j * m]);
    best = std::max(best, sum);
  }
  return best;
}

void symmetric_eigen(std::size_t n, double* a, double* w) {
  const int nn = static_cast<int>(n);
  int info = 0;
  int lwork = -1;
  double query = 0.0;
  hold_blas_to_calling_thread();
  dsyev_("V", "U", &nn, a, &nn, w, &query, &lwork, &info, 1, 1);
  lwork = static_cast<int>(query);
  std::vector<double> work(static_cast<std::size_t>(lwork > 1 ? lwork : 1));
  dsyev_("V", "U", &nn, a, &nn, w, work.data(), &lwork, &info, 1, 1);
  if (info != 0)
    throw Error(Status::internal_error, "dsyev failed with info = " + std::to_string(info));
}

bool left_singular_vectors(std::size_t m, std::size_t n, double* a, double* s, double* u) {
  if (m == 0) return true;
  const int mm = static_cast<int>(m), nn = static_cast<int>(n), one = 1;
  int info = 0, lwork = -1;
  double query = 0.0, vt = 0.0;
  hold_blas_to_calling_thread();
  dgesvd_("A", "N", &mm, &nn, a, &mm, s, u, &mm, &vt, &one, &query, &lwork, &info, 1, 1);
  lwork = static_cast<int>(query);
  std::vector<double> work(static_cast<std::size_t>(lwork > 1 ? lwork : 1));
  dgesvd_("A", "N", &mm, &nn, a, &mm, s, u, &mm, &vt, &one, work.data(), &lwork, &info, 1, 1);
  if (info < 0)
    throw Error(Status::internal_error, "dgesvd: bad argument " + std::to_string(-info));
  return info == 0;
}

void pivoted_columns(std::size_t m, std::size_t n, double* a, int* order) {
  if (m == 0 || n == 0) return;
  const int mm = static_cast<int>(m), nn = static_cast<int>(n);
  std::vector<int> jpvt(n, 0);
  std::vector<double> tau(std::min(m, n));
  int info = 0, lwork = -1;
  double query = 0.0;
  hold_blas_to_calling_thread();
  dgeqp3_(&mm, &nn, a, &mm, jpvt.data(), tau.data(), &query, &lwork, &info);
  lwork = static_cast<int>(query);
  std::vector<double> work(static_cast<std::size_t>(lwork > 1 ? lwork : 1));
  dgeqp3_(&mm, &nn, a, &mm, jpvt.data(), tau.data(), work.data(), &lwork, &info);
  if (info != 0)
    throw Error(Status::internal_error, "dgeqp3 failed with info = " + std::to_string(info));
  for (std::size_t j = 0; j < n; ++j) order[j] = jpvt[j] - 1;
}

// dgeev wants at least 4n; more lets it block the Hessenberg reduction.
std::size_t general_eigen_workspace(std::size_t n) { return std::max<std::size_t>(1, 34 * n); }

bool general_eigen(std::size_t n, double* a, double* wr, double* wi, double* vr, double* work) {
  if (n == 0) return true;
  const int nn = static_cast<int>(n), lwork = static_cast<int>(general_eigen_workspace(n)), one = 1;
  int info = 0;
  double unused = 0.0;
  hold_blas_to_calling_thread();
  dgeev_("N", vr ? "V" : "N", &nn, a, &nn, wr, wi, nullptr, &one, vr ? vr : &unused,
         vr ? &nn : &one, work, &lwork, &info, 1, 1);
  if (info < 0) throw Error(Status::internal_error, "dgeev: bad argument " + std::to_string(-info));
  return info == 0;
}

}  // namespace odesens::linalg
