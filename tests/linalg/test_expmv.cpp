// The sparse exponential action against the dense augmented exponential:
// U <- e^{tA} U + (int_0^t e^{sA} ds) C for random sparse A, C sparse and
// dense, over norms from 0.01 to 200.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "linalg/csc.hpp"
#include "linalg/dense.hpp"
#include "linalg/expm.hpp"
#include "linalg/expmv.hpp"
#include "odesens/status.hpp"
#include "support/reference.hpp"

namespace odesens::linalg {
namespace {

// A random sparse n x cols pattern with about `per_column` entries per
// column (plus the diagonal when square), values in [-1, 1] scaled.
SparsityPattern random_pattern(std::size_t rows, std::size_t cols, std::size_t per_column,
                               bool diagonal, std::mt19937& gen) {
  SparsityPattern p;
  p.rows = rows;
  p.cols = cols;
  p.col_ptr.assign(cols + 1, 0);
  std::uniform_int_distribution<std::size_t> pick(0, rows - 1);
  for (std::size_t j = 0; j < cols; ++j) {
    std::vector<std::int64_t> r;
    if (diagonal) r.push_back(static_cast<std::int64_t>(j));
    for (std::size_t k = 0; k < per_column; ++k) r.push_back(static_cast<std::int64_t>(pick(gen)));
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    p.row_idx.insert(p.row_idx.end(), r.begin(), r.end());
    p.col_ptr[j + 1] = static_cast<std::int64_t>(p.row_idx.size());
  }
  return p;
}

TEST(AugmentedExpmv, MatchesTheDenseAugmentedExponential) {
  const std::size_t n = 40, m = 7;
  std::mt19937 gen(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const SparsityPattern a = random_pattern(n, n, 3, true, gen);
  const SparsityPattern c = random_pattern(n, m, 4, false, gen);
  std::vector<double> av(a.nnz()), cv(c.nnz()), u0(n * m);
  for (auto& v : av) v = u(gen);
  for (std::size_t j = 0; j < n; ++j)  // a dissipative diagonal, as in a stiff model
    for (auto q = a.col_ptr[j]; q < a.col_ptr[j + 1]; ++q)
      if (a.row_idx[q] == static_cast<std::int64_t>(j)) av[q] -= 2.0;
  for (auto& v : cv) v = u(gen);
  for (auto& v : u0) v = u(gen);
  std::vector<double> a_dense(n * n), c_dense(n * m);
  csc_to_dense(a, av.data(), a_dense.data());
  csc_to_dense(c, cv.data(), c_dense.data());
  AugmentedExpmv action(n, m);
  AugmentedExponential dense(n, m);
  for (double t : {0.003, 0.05, 1.0, 10.0, 60.0}) {
    // Dense: E = e^{tA}, F = (int e^{sA} ds) tC... from [[tA, tC], [0, 0]].
    std::vector<double> ta(n * n), tc(n * m), e(n * n), f(n * m);
    for (std::size_t q = 0; q < n * n; ++q) ta[q] = t * a_dense[q];
    for (std::size_t q = 0; q < n * m; ++q) tc[q] = t * c_dense[q];
    dense.compute(ta.data(), tc.data(), e.data(), f.data());
    std::vector<double> expected = f;
    gemm(Trans::no, Trans::no, n, m, n, 1.0, e.data(), n, u0.data(), n, 1.0, expected.data(), n);
    for (bool sparse_c : {true, false}) {
      std::vector<double> got = u0;
      action.apply(a, av.data(), sparse_c ? &c : nullptr, sparse_c ? cv.data() : c_dense.data(),
                   t, got.data());
      EXPECT_LT(testing::relative_max_difference(got, expected), 1e-12) << "t = " << t << (sparse_c ? " sparse C" : " dense C");
      EXPECT_GT(action.last_products(), 0u);
      EXPECT_LE(static_cast<double>(action.last_products()),
                AugmentedExpmv::products_for(
                    t * AugmentedExpmv::norms(a, av.data(), &c, cv.data(), n, m).balanced));
    }
  }
}

// A forcing that varies linearly over the interval, C + (s/t) dC: the
// action agrees with the dense exponential's ramp form for sparse and
// dense C, short and long (many Taylor steps) intervals.
TEST(AugmentedExpmv, LinearlyVaryingForcingMatchesTheDenseRampForm) {
  const std::size_t n = 30, m = 5;
  std::mt19937 gen(23);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const SparsityPattern a = random_pattern(n, n, 3, true, gen);
  const SparsityPattern c = random_pattern(n, m, 4, false, gen);
  std::vector<double> av(a.nnz()), cv(c.nnz()), dcv(c.nnz()), u0(n * m);
  for (auto& v : av) v = u(gen);
  for (std::size_t j = 0; j < n; ++j)
    for (auto q = a.col_ptr[j]; q < a.col_ptr[j + 1]; ++q)
      if (a.row_idx[q] == static_cast<std::int64_t>(j)) av[q] -= 3.0;
  for (auto& v : cv) v = u(gen);
  for (auto& v : dcv) v = 5.0 * u(gen);
  for (auto& v : u0) v = u(gen);
  std::vector<double> a_dense(n * n), c_dense(n * m), dc_dense(n * m);
  csc_to_dense(a, av.data(), a_dense.data());
  csc_to_dense(c, cv.data(), c_dense.data());
  csc_to_dense(c, dcv.data(), dc_dense.data());
  AugmentedExpmv action(n, m);
  AugmentedExponential dense(n, m, AugmentedExponential::WithRamp{});
  for (double t : {1e-6, 0.02, 0.7, 9.0}) {
    std::vector<double> ta(n * n), tc(n * m), tdc(n * m), e(n * n), f(n * m);
    for (std::size_t q = 0; q < n * n; ++q) ta[q] = t * a_dense[q];
    for (std::size_t q = 0; q < n * m; ++q) {
      tc[q] = t * c_dense[q];
      tdc[q] = t * dc_dense[q];
    }
    dense.compute(ta.data(), tdc.data(), tc.data(), e.data(), f.data());
    std::vector<double> expected = f;
    gemm(Trans::no, Trans::no, n, m, n, 1.0, e.data(), n, u0.data(), n, 1.0, expected.data(), n);
    for (bool sparse_c : {true, false}) {
      std::vector<double> got = u0;
      action.apply(a, av.data(), sparse_c ? &c : nullptr, sparse_c ? cv.data() : c_dense.data(),
                   t, got.data(), sparse_c ? dcv.data() : dc_dense.data());
      EXPECT_LT(testing::relative_max_difference(got, expected), 1e-12)
          << "t = " << t << (sparse_c ? " sparse C" : " dense C");
    }
  }
}

// A C far larger than A (J_p of a model whose states are ~1e12) costs no
// more products than A alone asks for, and the result is as accurate.
TEST(AugmentedExpmv, LargeCIsBalancedAgainstA) {
  const std::size_t n = 20, m = 3;
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const SparsityPattern a = random_pattern(n, n, 2, true, gen);
  std::vector<double> av(a.nnz()), c(n * m), u0(n * m);
  for (auto& v : av) v = u(gen);
  for (auto& v : c) v = 1e12 * u(gen);
  for (auto& v : u0) v = 1e12 * u(gen);
  // The result is linear in (U, C): the dense reference is computed at
  // unit scale (the dense exponential's scaling follows |[[A, C], [0, 0]]|
  // and would square a tiny matrix ~40 times at full scale).
  std::vector<double> a_dense(n * n), e(n * n), f(n * m), c_unit(n * m);
  for (std::size_t q = 0; q < n * m; ++q) c_unit[q] = 1e-12 * c[q];
  csc_to_dense(a, av.data(), a_dense.data());
  AugmentedExponential(n, m).compute(a_dense.data(), c_unit.data(), e.data(), f.data());
  std::vector<double> expected = f;
  gemm(Trans::no, Trans::no, n, m, n, 1e-12, e.data(), n, u0.data(), n, 1.0, expected.data(), n);
  for (auto& v : expected) v *= 1e12;
  AugmentedExpmv action(n, m);
  std::vector<double> got = u0;
  action.apply(a, av.data(), nullptr, c.data(), 1.0, got.data());
  EXPECT_LT(testing::relative_max_difference(got, expected), 1e-12);
  const auto norms = AugmentedExpmv::norms(a, av.data(), nullptr, c.data(), n, m);
  EXPECT_EQ(norms.balanced, norms.a);
  EXPECT_LE(static_cast<double>(action.last_products()), AugmentedExpmv::products_for(norms.a));
}

TEST(AugmentedExpmv, ZeroMatricesLeaveUUnchangedAndNaNIsRefused) {
  const std::size_t n = 5, m = 2;
  SparsityPattern a = SparsityPattern::dense(n, n);
  std::vector<double> av(n * n, 0.0), c(n * m, 0.0), u0(n * m, 1.5);
  AugmentedExpmv action(n, m);
  std::vector<double> got = u0;
  action.apply(a, av.data(), nullptr, c.data(), 1.0, got.data());
  EXPECT_EQ(got, u0);
  av[3] = NAN;
  EXPECT_THROW(action.apply(a, av.data(), nullptr, c.data(), 1.0, got.data()), Error);
}

}  // namespace
}  // namespace odesens::linalg
