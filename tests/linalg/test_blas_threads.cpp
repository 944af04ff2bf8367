// Dense linear algebra inside a solve runs on the calling thread, and
// several solves may call it at once: the default build links a private
// OpenBLAS held to one thread (cmake/FindOdesensBlasLapack.cmake). Debian's
// serial OpenBLAS build would fail the second test: its buffer pool is
// shared between threads without a lock.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <thread>
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

std::vector<double> random_matrix(std::size_t rows, std::size_t cols, unsigned seed,
                                  double diagonal_shift = 0.0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> a(rows * cols);
  for (auto& v : a) v = u(rng);
  for (std::size_t i = 0; i < std::min(rows, cols); ++i) a[i + i * rows] += diagonal_shift;
  return a;
}

// C = A B, then C <- (LU of A) \ C: the products and solves a step of the
// PBS and Newton-based methods makes.
std::vector<double> product_and_solve(std::size_t n, std::size_t m, const std::vector<double>& a0,
                                      const std::vector<double>& b) {
  std::vector<double> a = a0, c(n * m);
  std::vector<int> pivots(n);
  gemm(Trans::no, Trans::no, n, m, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
  if (!odesens::linalg::lu_factor(n, a.data(), pivots.data())) return {};
  odesens::linalg::lu_solve(n, a.data(), pivots.data(), m, c.data());
  return c;
}

TEST(Blas, RunsOnTheCallingThread) {
#ifndef ODESENS_BLAS_PRIVATE_OPENBLAS
  GTEST_SKIP() << "built with ODESENS_BLAS=system: " << odesens::linalg::blas_description();
#else
  EXPECT_TRUE(odesens::linalg::blas_is_single_threaded()) << odesens::linalg::blas_description();
  const int before = thread_count();
  if (before < 0) GTEST_SKIP() << "no /proc/self/task";
  // Calls large enough for a threaded BLAS to use its workers.
  const std::size_t n = 400;
  const auto a = random_matrix(n, n, 7, static_cast<double>(n));
  const auto b = random_matrix(n, n, 8);
  const auto x = product_and_solve(n, n, a, b);
  ASSERT_EQ(x.size(), b.size());
  double worst = 0.0;  // A (LU) X = A B: X = B
  for (std::size_t q = 0; q < n * n; ++q) worst = std::max(worst, std::abs(x[q] - b[q]));
  EXPECT_LT(worst, 1e-10);
  EXPECT_EQ(thread_count(), before) << "a BLAS call started threads";
#endif
}

TEST(Blas, ConcurrentCallsFromTwoThreadsGiveTheSerialResults) {
  const std::size_t n = 21, m = 80;  // CaMKII's J_x and S
  const auto a = random_matrix(n, n, 3, static_cast<double>(n));
  const auto b = random_matrix(n, m, 4);
  const auto reference = product_and_solve(n, m, a, b);
  ASSERT_FALSE(reference.empty());
  std::atomic<int> wrong{0};
  auto work = [&] {
    for (int it = 0; it < 3000; ++it)
      if (product_and_solve(n, m, a, b) != reference) ++wrong;
  };
  std::thread first(work), second(work);
  first.join();
  second.join();
  EXPECT_EQ(wrong.load(), 0) << "concurrent BLAS calls changed results";
}

}  // namespace
