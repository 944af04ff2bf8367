// The augmented matrix exponential against closed forms, on every Pade
// degree and with scaling and squaring.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "linalg/csc.hpp"
#include "linalg/dense.hpp"
#include "linalg/expm.hpp"

namespace odesens::linalg {
namespace {

double max_rel(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0, s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::fabs(a[i] - b[i]));
    s = std::max(s, std::fabs(b[i]));
  }
  return d / s;
}

// A symmetric matrix with eigenvalues spread over [-scale, scale / 4].
std::vector<double> random_symmetric(std::size_t n, double scale, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> q(n * n), a(n * n, 0.0), w(n);
  for (auto& v : q) v = u(gen);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t k = 0; k < n; ++k) a[i + j * n] += q[k + i * n] * q[k + j * n];
  // shift so that the spectrum straddles zero, then scale
  for (std::size_t i = 0; i < n; ++i) a[i + i * n] -= 0.8 * static_cast<double>(n) / 3.0;
  const double norm = norm1(n, n, a.data());
  for (auto& v : a) v *= scale / norm;
  return a;
}

// e^A = V e^Lambda V^T for symmetric A.
std::vector<double> reference_exponential(std::size_t n, const std::vector<double>& a) {
  std::vector<double> v = a, lambda(n), e(n * n, 0.0);
  symmetric_eigen(n, v.data(), lambda.data());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t k = 0; k < n; ++k)
        e[i + j * n] += v[i + k * n] * std::exp(lambda[k]) * v[j + k * n];
  return e;
}

TEST(MatrixExponential, MatchesEigenDecompositionOnEveryPadeDegreeAndWithSquaring) {
  const std::size_t n = 7;
  // 1-norms chosen to land in degrees 3, 5, 7, 9, 13 and 13 with squarings.
  for (double scale : {0.01, 0.2, 0.9, 2.0, 5.0, 40.0, 300.0}) {
    const auto a = random_symmetric(n, scale, 5);
    std::vector<double> e(n * n);
    expm(n, a.data(), e.data());
    EXPECT_LT(max_rel(e, reference_exponential(n, a)), 1e-12 * std::max(1.0, scale))
        << "norm " << scale;
  }
}

TEST(MatrixExponential, RotationGeneratorGivesCosineAndSine) {
  const double w = 3.7;
  const std::vector<double> a{0.0, w, -w, 0.0};  // column-major [[0, -w], [w, 0]]
  std::vector<double> e(4);
  expm(2, a.data(), e.data());
  EXPECT_NEAR(e[0], std::cos(w), 1e-14);
  EXPECT_NEAR(e[1], std::sin(w), 1e-14);
  EXPECT_NEAR(e[2], -std::sin(w), 1e-14);
  EXPECT_NEAR(e[3], std::cos(w), 1e-14);
}

TEST(AugmentedExponential, IntegralTermEqualsInverseFormulaForInvertibleA) {
  const std::size_t n = 5, m = 3;
  const auto a = random_symmetric(n, 6.0, 9);
  std::vector<double> b(n * m);
  std::mt19937 gen(1);
  std::normal_distribution<double> g;
  for (auto& v : b) v = g(gen);
  AugmentedExponential exp(n, m);
  std::vector<double> e(n * n), f(n * m);
  exp.compute(a.data(), b.data(), e.data(), f.data());
  // A F = (E - I) B
  std::vector<double> af(n * m), eb(n * m);
  gemm(Trans::no, Trans::no, n, m, n, 1.0, a.data(), n, f.data(), n, 0.0, af.data(), n);
  std::vector<double> e_minus_i = e;
  for (std::size_t i = 0; i < n; ++i) e_minus_i[i + i * n] -= 1.0;
  gemm(Trans::no, Trans::no, n, m, n, 1.0, e_minus_i.data(), n, b.data(), n, 0.0, eb.data(), n);
  EXPECT_LT(max_rel(af, eb), 1e-12);
  EXPECT_LT(max_rel(e, reference_exponential(n, a)), 1e-12);
}

// A = [[-k, k], [k, -k]] is singular (conserves x1 + x2); its exponential
// and integral are known in closed form.
TEST(AugmentedExponential, SingularMatrixWithConservationLaw) {
  const double k = 2.5, t = 0.8;
  const std::vector<double> a{-k * t, k * t, k * t, -k * t};
  const std::vector<double> b{1.0 * t, 0.0, 0.0, 2.0 * t};  // B = diag(1, 2), times t
  AugmentedExponential exp(2, 2);
  std::vector<double> e(4), f(4);
  exp.compute(a.data(), b.data(), e.data(), f.data());
  const double d = std::exp(-2 * k * t);
  const double g = (1 - d) / (2 * k);  // int_0^t e^{-2k s} ds
  EXPECT_NEAR(e[0], 0.5 * (1 + d), 1e-14);
  EXPECT_NEAR(e[1], 0.5 * (1 - d), 1e-14);
  // int_0^t e^{A s} ds = 1/2 [[t + g, t - g], [t - g, t + g]], times B
  EXPECT_NEAR(f[0], 0.5 * (t + g) * 1.0, 1e-14);
  EXPECT_NEAR(f[1], 0.5 * (t - g) * 1.0, 1e-14);
  EXPECT_NEAR(f[2], 0.5 * (t - g) * 2.0, 1e-14);
  EXPECT_NEAR(f[3], 0.5 * (t + g) * 2.0, 1e-14);
}


// phi_1(z) = (e^z - 1)/z and phi_2(z) = (e^z - 1 - z)/z^2, by series near 0.
namespace {
double phi1(double z) { return std::fabs(z) < 1e-5 ? 1 + z / 2 + z * z / 6 : std::expm1(z) / z; }
double phi2(double z) {
  return std::fabs(z) < 1e-3 ? 0.5 + z / 6 + z * z / 24 : (std::expm1(z) - z) / (z * z);
}
}  // namespace

// Diagonal A: F = phi1(A) B2 + phi2(A) B1 entry by entry, from a stiff
// eigenvalue (squarings) through 0 (phi_2(0) = 1/2) to a growing one.
TEST(AugmentedExponential, RampGivesPhi1AndPhi2OfADiagonalMatrix) {
  const std::vector<double> z{-1e4, -30.0, -1.0, 0.0, 1e-9, 0.7, 12.0};
  const std::size_t n = z.size(), m = 2;
  std::vector<double> a(n * n, 0.0), b1(n * m), b2(n * m);
  for (std::size_t i = 0; i < n; ++i) a[i + i * n] = z[i];
  for (std::size_t q = 0; q < n * m; ++q) {
    b1[q] = 1.0 + 0.5 * static_cast<double>(q);
    b2[q] = 2.0 - 0.25 * static_cast<double>(q);
  }
  AugmentedExponential exp(n, m, AugmentedExponential::WithRamp{});
  std::vector<double> e(n * n), f(n * m);
  exp.compute(a.data(), b1.data(), b2.data(), e.data(), f.data());
  for (std::size_t i = 0; i < n; ++i) {
    // 12 squarings for |A| = 1e4: relative accuracy about 2^12 eps.
    EXPECT_NEAR(e[i + i * n], std::exp(z[i]), 1e-11 * std::exp(std::max(z[i], 0.0)));
    for (std::size_t j = 0; j < m; ++j) {
      const std::size_t q = i + j * n;
      const double expected = phi1(z[i]) * b2[q] + phi2(z[i]) * b1[q];
      EXPECT_NEAR(f[q], expected, 1e-11 * (1 + std::fabs(expected))) << "z = " << z[i];
    }
  }
}

// A full (symmetric, invertible) A: A F = (E - I) B2 + (phi1(A) - I) B1,
// with phi1(A) B1 from the plain augmented form.
TEST(AugmentedExponential, RampAgreesWithThePlainFormForAFullMatrix) {
  const std::size_t n = 6, m = 4;
  const auto a = random_symmetric(n, 40.0, 3);
  std::vector<double> b1(n * m), b2(n * m);
  std::mt19937 gen(7);
  std::normal_distribution<double> g;
  for (auto& v : b1) v = g(gen);
  for (auto& v : b2) v = g(gen);
  std::vector<double> e(n * n), f(n * m), e_plain(n * n), phi1_b1(n * m);
  AugmentedExponential(n, m, AugmentedExponential::WithRamp{})
      .compute(a.data(), b1.data(), b2.data(), e.data(), f.data());
  AugmentedExponential(n, m).compute(a.data(), b1.data(), e_plain.data(), phi1_b1.data());
  EXPECT_LT(max_rel(e, e_plain), 1e-12);
  std::vector<double> af(n * m), rhs(n * m);
  gemm(Trans::no, Trans::no, n, m, n, 1.0, a.data(), n, f.data(), n, 0.0, af.data(), n);
  std::vector<double> e_minus_i = e;
  for (std::size_t i = 0; i < n; ++i) e_minus_i[i + i * n] -= 1.0;
  gemm(Trans::no, Trans::no, n, m, n, 1.0, e_minus_i.data(), n, b2.data(), n, 0.0, rhs.data(), n);
  for (std::size_t q = 0; q < n * m; ++q) rhs[q] += phi1_b1[q] - b1[q];
  EXPECT_LT(max_rel(af, rhs), 1e-11);
}

// A random sparse n x n pattern: the diagonal and `per_column` more rows a
// column, values spread over four decades (stiff, far from normal, like
// mass-action kinetics), scaled to 1-norm `norm`.
struct SparseMatrix {
  SparsityPattern pattern;
  std::vector<double> values;
};
SparseMatrix random_sparse(std::size_t n, std::size_t per_column, double norm, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<std::size_t> row(0, n - 1);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  SparseMatrix m;
  m.pattern.rows = m.pattern.cols = n;
  m.pattern.col_ptr.push_back(0);
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<std::int64_t> rows{static_cast<std::int64_t>(j)};
    for (std::size_t k = 0; k < per_column; ++k)
      rows.push_back(static_cast<std::int64_t>(row(gen)));
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    for (auto r : rows) {
      m.pattern.row_idx.push_back(r);
      const double size = std::pow(10.0, 4.0 * u(gen));
      m.values.push_back(r == static_cast<std::int64_t>(j) ? -2.0 * size : size * (u(gen) - 0.3));
    }
    m.pattern.col_ptr.push_back(static_cast<std::int64_t>(m.pattern.row_idx.size()));
  }
  m.pattern.validate();
  std::vector<double> dense(n * n);
  csc_to_dense(m.pattern, m.values.data(), dense.data());
  const double scale = norm / norm1(n, n, dense.data());
  for (double& v : m.values) v *= scale;
  return m;
}

TEST(SparseProducts, TransposeAndDenseTimesSparseAgreeWithDenseProducts) {
  const std::size_t n = 30, m = 7;
  const auto a = random_sparse(n, 3, 5.0, 11);
  std::vector<double> dense(n * n);
  csc_to_dense(a.pattern, a.values.data(), dense.data());
  // A V by the transposed pattern's gathers = the dense product.
  std::vector<std::size_t> source;
  const SparsityPattern at = transpose_pattern(a.pattern, source);
  at.validate();
  std::vector<double> at_values(source.size());
  for (std::size_t q = 0; q < source.size(); ++q) at_values[q] = a.values[source[q]];
  std::mt19937 gen(2);
  std::normal_distribution<double> g;
  std::vector<double> v(n * m), by_gather(n * m), by_blas(n * m);
  for (double& x : v) x = g(gen);
  csc_multiply_transposed(at, at_values.data(), m, v.data(), by_gather.data());
  gemm(Trans::no, Trans::no, n, m, n, 1.0, dense.data(), n, v.data(), n, 0.0, by_blas.data(), n);
  EXPECT_LT(max_rel(by_gather, by_blas), 1e-14);
  // D A for a dense m x n D.
  std::vector<double> d(m * n), da(m * n), da_blas(m * n);
  for (double& x : d) x = g(gen);
  dense_times_csc(m, d.data(), a.pattern, a.values.data(), da.data());
  gemm(Trans::no, Trans::no, m, n, n, 1.0, d.data(), m, dense.data(), n, 0.0, da_blas.data(), m);
  EXPECT_LT(max_rel(da, da_blas), 1e-14);
}

// A sparse A (its products with M sparse) gives the dense path's E and F,
// plain and with a ramp, from a Pade degree without squarings to many.
TEST(AugmentedExponential, SparseAGivesTheDenseResult) {
  const std::size_t n = 48, m = 5;
  for (double norm : {0.5, 4.0, 60.0, 3e4}) {
    const auto a = random_sparse(n, 1, norm, 17);
    ASSERT_TRUE(AugmentedExponential::sparse_products_pay(n, a.pattern.nnz()));
    std::vector<double> dense(n * n), b1(n * m), b2(n * m);
    csc_to_dense(a.pattern, a.values.data(), dense.data());
    std::mt19937 gen(3);
    std::normal_distribution<double> g;
    for (double& x : b1) x = g(gen);
    for (double& x : b2) x = g(gen);

    AugmentedExponential plain(n, m), plain_sparse(n, m);
    plain_sparse.take_a_sparse(&a.pattern);
    ASSERT_TRUE(plain_sparse.sparse_products());
    std::vector<double> e(n * n), f(n * m), e_s(n * n), f_s(n * m);
    const int squarings = plain.compute(dense.data(), b1.data(), e.data(), f.data());
    EXPECT_EQ(plain_sparse.compute(a.values.data(), b1.data(), e_s.data(), f_s.data()), squarings);
    EXPECT_LT(max_rel(e_s, e), 1e-12) << "norm " << norm;
    EXPECT_LT(max_rel(f_s, f), 1e-12) << "norm " << norm;

    AugmentedExponential ramp(n, m, AugmentedExponential::WithRamp{}),
        ramp_sparse(n, m, AugmentedExponential::WithRamp{});
    ramp_sparse.take_a_sparse(&a.pattern);
    std::vector<double> f1(n * m), f1_s(n * m);
    ramp.compute(dense.data(), b1.data(), b2.data(), e.data(), f.data(), f1.data());
    ramp_sparse.compute(a.values.data(), b1.data(), b2.data(), e_s.data(), f_s.data(), f1_s.data());
    EXPECT_LT(max_rel(e_s, e), 1e-12) << "norm " << norm;
    EXPECT_LT(max_rel(f_s, f), 1e-12) << "norm " << norm;
    EXPECT_LT(max_rel(f1_s, f1), 1e-12) << "norm " << norm;
  }
  // Too dense a pattern keeps dense products, with the same results.
  const auto full = random_sparse(8, 6, 3.0, 5);
  AugmentedExponential small(8, 1);
  small.take_a_sparse(&full.pattern);
  EXPECT_FALSE(small.sparse_products());
  std::vector<double> dense(64), e(64), e_s(64), b(8, 1.0), f(8), f_s(8);
  csc_to_dense(full.pattern, full.values.data(), dense.data());
  AugmentedExponential(8, 1).compute(dense.data(), b.data(), e.data(), f.data());
  small.compute(full.values.data(), b.data(), e_s.data(), f_s.data());
  EXPECT_LT(max_rel(e_s, e), 1e-14);
  EXPECT_LT(max_rel(f_s, f), 1e-14);
}

}  // namespace
}  // namespace odesens::linalg
