// The augmented matrix exponential against closed forms, on every Pade
// degree and with scaling and squaring.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

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

}  // namespace
}  // namespace odesens::linalg
