// Dense linear algebra inside a solve runs on the calling thread: the
// default build links Debian's serial OpenBLAS privately (see
// cmake/FindOdesensBlasLapack.cmake), so no BLAS worker threads exist to
// spin against the solves a user runs in parallel.
#include <gtest/gtest.h>

#include <dirent.h>

#include <random>
#include <vector>

#include "linalg/dense.hpp"

namespace {

using odesens::linalg::gemm;
using odesens::linalg::Trans;

// Threads of this process, from /proc/self/task.
int thread_count() {
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return -1;
  int n = 0;
  while (dirent* e = readdir(dir))
    if (e->d_name[0] != '.') ++n;
  closedir(dir);
  return n;
}

TEST(Blas, IsTheSerialBuildAndStartsNoThreads) {
#ifndef ODESENS_BLAS_SERIAL_OPENBLAS
  GTEST_SKIP() << "built with ODESENS_BLAS=system: " << odesens::linalg::blas_description();
#else
  EXPECT_TRUE(odesens::linalg::blas_is_single_threaded()) << odesens::linalg::blas_description();
  if (thread_count() < 0) GTEST_SKIP() << "no /proc/self/task";
  ASSERT_EQ(thread_count(), 1) << "something started a thread before the test";
  // Calls large enough for a threaded BLAS to use its workers: a 400 x 400
  // product and an LU solve with many right-hand sides (the threaded
  // OpenBLAS sends every dgetrs to its workers, whatever the size).
  const std::size_t n = 400;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> a(n * n), b(n * n), c(n * n);
  for (auto& v : a) v = u(rng);
  for (auto& v : b) v = u(rng);
  for (std::size_t i = 0; i < n; ++i) a[i + i * n] += static_cast<double>(n);
  gemm(Trans::no, Trans::no, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
  std::vector<int> pivots(n);
  ASSERT_TRUE(odesens::linalg::lu_factor(n, a.data(), pivots.data()));
  odesens::linalg::lu_solve(n, a.data(), pivots.data(), n, c.data());
  // A (LU) X = A B: X = B
  double worst = 0.0;
  for (std::size_t q = 0; q < n * n; ++q) worst = std::max(worst, std::abs(c[q] - b[q]));
  EXPECT_LT(worst, 1e-10);
  EXPECT_EQ(thread_count(), 1);
#endif
}

}  // namespace
