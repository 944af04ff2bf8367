// GRK4A's coefficients satisfy the Rosenbrock order conditions of HNW II
// §IV.7 (Table 7.1, trees up to order 4) for b and up to order 3 for b̂, and
// not the W-method condition Σ b_i α_i = 1/2 that would make frozen
// Jacobians harmless.
#include <gtest/gtest.h>

#include <cmath>

#include "integrate/implicit/rosenbrock_tableau.hpp"

namespace odesens::integrate {
namespace {

// Residuals of the eight conditions for weights w, with β_ij = α_ij + γ_ij,
// α_i = Σ_j α_ij and β'_i = Σ_j β_ij (strictly lower sums).
struct Residuals {
  double r[8];
};

Residuals order_conditions(const RosenbrockTableau& t, const double* w) {
  const int s = t.stages;
  const double g = t.gamma;
  double beta[RosenbrockTableau::max_stages][RosenbrockTableau::max_stages] = {};
  double a[RosenbrockTableau::max_stages] = {}, bp[RosenbrockTableau::max_stages] = {};
  for (int i = 0; i < s; ++i)
    for (int j = 0; j < i; ++j) {
      beta[i][j] = t.alpha[i][j] + t.gamma_ij[i][j];
      a[i] += t.alpha[i][j];
      bp[i] += beta[i][j];
    }
  auto beta_times = [&](const double* v, double* out) {
    for (int i = 0; i < s; ++i) {
      out[i] = 0;
      for (int j = 0; j < i; ++j) out[i] += beta[i][j] * v[j];
    }
  };
  double a2[RosenbrockTableau::max_stages], beta_bp[RosenbrockTableau::max_stages],
      beta_a2[RosenbrockTableau::max_stages], beta_beta_bp[RosenbrockTableau::max_stages],
      alpha_bp[RosenbrockTableau::max_stages];
  for (int i = 0; i < s; ++i) a2[i] = a[i] * a[i];
  beta_times(bp, beta_bp);
  beta_times(a2, beta_a2);
  beta_times(beta_bp, beta_beta_bp);
  for (int i = 0; i < s; ++i) {
    alpha_bp[i] = 0;
    for (int j = 0; j < i; ++j) alpha_bp[i] += t.alpha[i][j] * bp[j];
  }
  double sums[8] = {};
  for (int j = 0; j < s; ++j) {
    sums[0] += w[j];
    sums[1] += w[j] * bp[j];
    sums[2] += w[j] * a2[j];
    sums[3] += w[j] * beta_bp[j];
    sums[4] += w[j] * a2[j] * a[j];
    sums[5] += w[j] * a[j] * alpha_bp[j];
    sums[6] += w[j] * beta_a2[j];
    sums[7] += w[j] * beta_beta_bp[j];
  }
  const double want[8] = {1.0,
                          0.5 - g,
                          1.0 / 3,
                          1.0 / 6 - g + g * g,
                          0.25,
                          1.0 / 8 - g / 3,
                          1.0 / 12 - g / 3,
                          1.0 / 24 - g / 2 + 1.5 * g * g - g * g * g};
  Residuals res{};
  for (int k = 0; k < 8; ++k) res.r[k] = sums[k] - want[k];
  return res;
}

TEST(RosenbrockTableau, Grk4aHasOrderFour) {
  const Residuals res = order_conditions(grk4a(), grk4a().b);
  for (int k = 0; k < 8; ++k) EXPECT_LT(std::fabs(res.r[k]), 1e-11) << "condition " << k + 1;
}

TEST(RosenbrockTableau, Grk4aEmbeddedFormulaHasOrderThreeNotFour) {
  const Residuals res = order_conditions(grk4a(), grk4a().b_hat);
  for (int k = 0; k < 4; ++k) EXPECT_LT(std::fabs(res.r[k]), 1e-11) << "condition " << k + 1;
  double worst = 0;
  for (int k = 4; k < 8; ++k) worst = std::fmax(worst, std::fabs(res.r[k]));
  EXPECT_GT(worst, 1e-3);
}

TEST(RosenbrockTableau, DerivedCoefficients) {
  const RosenbrockTableau& t = grk4a();
  EXPECT_EQ(t.stages, 4);
  EXPECT_EQ(t.order, 4);
  EXPECT_EQ(t.embedded_order, 3);
  EXPECT_DOUBLE_EQ(t.alpha_sum[0], 0.0);
  EXPECT_DOUBLE_EQ(t.alpha_sum[1], 0.438);
  EXPECT_NEAR(t.alpha_sum[2], 0.87, 1e-12);
  EXPECT_EQ(t.alpha_sum[3], t.alpha_sum[2]);
  EXPECT_DOUBLE_EQ(t.gamma_sum[0], 0.395);
  EXPECT_NEAR(t.gamma_sum[1], 0.395 - 0.767672395484, 1e-15);
  EXPECT_NEAR(t.gamma_sum[3], 0.395 + 0.288463109545 + 0.0880214273381 - 0.337389840627, 1e-15);
  // Three evaluations of f per step: stage 4 reuses stage 3's.
  EXPECT_FALSE(t.same_point_as_previous[1]);
  EXPECT_FALSE(t.same_point_as_previous[2]);
  EXPECT_TRUE(t.same_point_as_previous[3]);
  for (int i = 0; i < t.stages; ++i) EXPECT_EQ(t.error[i], t.b[i] - t.b_hat[i]);
}

// The W-method condition of order 2 (HNW II §IV.7): with W ≠ J the α and γ
// parts of condition 2 must hold separately, Σ b_i α_i = 1/2. GRK4A has
// 0.4881, which is why frozen Jacobians cost perturbed lanes their order.
TEST(RosenbrockTableau, Grk4aIsNotAWMethod) {
  const RosenbrockTableau& t = grk4a();
  double sum = 0;
  for (int i = 0; i < t.stages; ++i) sum += t.b[i] * t.alpha_sum[i];
  EXPECT_NEAR(sum, 0.4881, 1e-4);
}

}  // namespace
}  // namespace odesens::integrate
