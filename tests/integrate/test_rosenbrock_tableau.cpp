// GRK4A's, ROS4's and RODAS4's coefficients satisfy the Rosenbrock order
// conditions of HNW II §IV.7 (Table 7.1, trees up to order 4) for b and up
// to order 3 for b̂; GRK4A not the W-method condition Σ b_i α_i = 1/2 that
// would make frozen Jacobians harmless. Their stability functions at
// infinity: GRK4A's 0.995 (stiff modes nearly undamped), ROS4's and
// RODAS4's 0 (L-stable).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

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

class EveryRosenbrockTableau : public ::testing::TestWithParam<const RosenbrockTableau* (*)()> {};

TEST_P(EveryRosenbrockTableau, HasOrderFourAndAnEmbeddedFormulaOfOrderThree) {
  const RosenbrockTableau& t = *GetParam()();
  SCOPED_TRACE(t.name);
  const Residuals main = order_conditions(t, t.b);
  for (int k = 0; k < 8; ++k) EXPECT_LT(std::fabs(main.r[k]), 1e-11) << "condition " << k + 1;
  const Residuals embedded = order_conditions(t, t.b_hat);
  for (int k = 0; k < 4; ++k)
    EXPECT_LT(std::fabs(embedded.r[k]), 1e-11) << "condition " << k + 1;
  EXPECT_EQ(t.order, 4);
  EXPECT_EQ(t.embedded_order, 3);
}

const RosenbrockTableau* grk4a_tableau() { return &grk4a(); }
const RosenbrockTableau* ros4_tableau() { return &ros4(); }
const RosenbrockTableau* rodas4_tableau() { return &rodas4(); }

INSTANTIATE_TEST_SUITE_P(Rosenbrock, EveryRosenbrockTableau,
                         ::testing::Values(&grk4a_tableau, &ros4_tableau, &rodas4_tableau));

// R(z) = 1 + z wᵀ (I − z B)⁻¹ 1 with B = (α_ij + γ_ij), γ on the diagonal
// (HNW II §IV.7), for real z by forward substitution.
double stability(const RosenbrockTableau& t, const double* w, double z) {
  double v[RosenbrockTableau::max_stages];
  double sum = 0;
  for (int i = 0; i < t.stages; ++i) {
    double r = 1.0;
    for (int j = 0; j < i; ++j) r += z * (t.alpha[i][j] + t.gamma_ij[i][j]) * v[j];
    v[i] = r / (1.0 - z * t.gamma);
    sum += w[i] * v[i];
  }
  return 1.0 + z * sum;
}

TEST(RosenbrockTableau, Grk4aLeavesStiffModesUndampedRos4AndRodas4DampThem) {
  const double z = -1e12;
  EXPECT_NEAR(stability(grk4a(), grk4a().b, z), 0.9954, 1e-4);
  // ... while its estimate's R differs from it by 0.68 there: a stiff mode's
  // remnant is seen as error step after step.
  EXPECT_NEAR(stability(grk4a(), grk4a().b, z) - stability(grk4a(), grk4a().b_hat, z), 0.6808,
              1e-4);
  EXPECT_LT(std::fabs(stability(ros4(), ros4().b, z)), 2e-5);  // γ = 0.57282 rounded
  EXPECT_LT(std::fabs(stability(rodas4(), rodas4().b, z)), 1e-9);
  EXPECT_LT(std::fabs(stability(rodas4(), rodas4().b_hat, z)), 1e-9);
  // A-stability on the negative axis: |R| <= 1.
  for (double x = -1e-3; x > -1e9; x *= 1.7)
    for (const RosenbrockTableau* t : {&grk4a(), &ros4(), &rodas4()})
      EXPECT_LE(std::fabs(stability(*t, t->b, x)), 1.0 + 1e-12) << t->name << " at " << x;
}

// RODAS4 is stiffly accurate: its last stage is the step (b_i = α_6i +
// γ_6i) and the embedded formula the stage before (b̂_i = α_6i); the
// conversion from the transformed coefficients reproduces rodas.f's α_i and
// γ_i.
TEST(RosenbrockTableau, Rodas4IsStifflyAccurateWithTheSumsOfRodasF) {
  const RosenbrockTableau& t = rodas4();
  for (int j = 0; j < 6; ++j) {
    const double last = j < 5 ? t.alpha[5][j] + t.gamma_ij[5][j] : t.gamma;
    EXPECT_NEAR(t.b[j], last, 1e-14) << j;
    EXPECT_NEAR(t.b_hat[j], j < 5 ? t.alpha[5][j] : 0.0, 1e-14) << j;
  }
  const double alpha_sums[6] = {0, 0.386, 0.21, 0.63, 1, 1};
  const double gamma_sums[6] = {0.25, -0.1043, 0.1035, -0.0362, 0, 0};
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(t.alpha_sum[i], alpha_sums[i], 1e-13) << i;
    EXPECT_NEAR(t.gamma_sum[i], gamma_sums[i], 1e-13) << i;
  }
  const RosenbrockTableau& r = ros4();
  const double ros4_alpha[4] = {0, 1.14564, 0.65521686381559, 0.65521686381559};
  const double ros4_gamma[4] = {0.57282, -1.769193891319233, 0.7592633437920482,
                                -0.1049021087100450};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(r.alpha_sum[i], ros4_alpha[i], 1e-13) << i;
    EXPECT_NEAR(r.gamma_sum[i], ros4_gamma[i], 1e-13) << i;
  }
}

}  // namespace
}  // namespace odesens::integrate
