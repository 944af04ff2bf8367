// Error weights and norm with CVODES' meaning of rtol/atol, the PI
// controller's rules, and the HNW starting step.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "integrate/step_control.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

TEST(ErrorWeights, UseTheLargerEndOfTheStepAndPerStateAtol) {
  Tolerances tol;
  tol.rtol = 1e-3;
  tol.atol_per_state = {1e-6, 1e-2};
  const double x_old[2] = {-2.0, 0.5}, x_new[2] = {1.0, -4.0};
  double w[2];
  error_weights(tol, 2, 1, x_old, x_new, w);
  EXPECT_DOUBLE_EQ(w[0], 1.0 / (1e-6 + 1e-3 * 2.0));
  EXPECT_DOUBLE_EQ(w[1], 1.0 / (1e-2 + 1e-3 * 4.0));
  error_weights(tol, 2, 1, x_old, nullptr, w);
  EXPECT_DOUBLE_EQ(w[1], 1.0 / (1e-2 + 1e-3 * 0.5));
}

TEST(ErrorWeights, ScalarAtolAppliesToEveryStateOfEveryLane) {
  Tolerances tol;
  tol.rtol = 0.5;
  tol.atol = 1.0;
  // 2 states x 2 lanes, interleaved state-major.
  const double x[4] = {0, 2, 4, 6};
  double w[4];
  error_weights(tol, 2, 2, x, x, w);
  EXPECT_DOUBLE_EQ(w[0], 1.0);
  EXPECT_DOUBLE_EQ(w[1], 0.5);
  EXPECT_DOUBLE_EQ(w[2], 1.0 / 3);
  EXPECT_DOUBLE_EQ(w[3], 0.25);
}

TEST(WeightedRmsNorm, IsTheRootMeanSquareOfWeightedErrors) {
  const double e[3] = {3, 4, 0}, w[3] = {1, 1, 2};
  EXPECT_DOUBLE_EQ(weighted_rms_norm(3, 1, e, w), std::sqrt(25.0 / 3));
}

TEST(WeightedRmsNorm, IsTheLargestOverLanes) {
  // Lane 0 errors (1, 1), lane 1 errors (3, 0): norms 1 and sqrt(4.5).
  const double e[4] = {1, 3, 1, 0}, w[4] = {1, 1, 1, 1};
  EXPECT_DOUBLE_EQ(weighted_rms_norm(2, 2, e, w), std::sqrt(4.5));
  double sums[2];
  weighted_sum_squares(2, 2, e, w, sums);
  EXPECT_DOUBLE_EQ(sums[0], 2.0);
  EXPECT_DOUBLE_EQ(sums[1], 9.0);
}

TEST(WeightedRmsNorm, NaNIsNeverSmall) {
  const double e[2] = {0.1, NAN}, w[2] = {1, 1};
  EXPECT_TRUE(std::isnan(weighted_rms_norm(1, 2, e, w)));
}

TEST(Tolerances, RejectsNegativeWrongSizeAndAllZero) {
  Tolerances tol;
  EXPECT_NO_THROW(tol.validate(3));
  tol.rtol = -1;
  EXPECT_THROW(tol.validate(3), Error);
  tol.rtol = 0;
  tol.atol = 0;
  EXPECT_THROW(tol.validate(3), Error);
  tol.atol = 1e-8;
  tol.atol_per_state = {1e-8, 1e-8};
  try {
    tol.validate(3);
    FAIL() << "wrong atol length accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
  }
}

TEST(PiController, UsesGustafssonExponentsOfTheErrorOrder) {
  PiController pi(4);
  EXPECT_DOUBLE_EQ(pi.alpha(), 0.7 / 5);
  EXPECT_DOUBLE_EQ(pi.beta(), 0.4 / 5);
  // First step: neutral memory, factor = 0.9 * err^-alpha.
  EXPECT_DOUBLE_EQ(pi.factor_after_accept(0.5), 0.9 * std::pow(0.5, -0.7 / 5));
  // Second step remembers err_{n-1} = 0.5.
  EXPECT_DOUBLE_EQ(pi.factor_after_accept(0.25),
                   0.9 * std::pow(0.25, -0.7 / 5) * std::pow(0.5, 0.4 / 5));
}

TEST(PiController, ClampsTheFactor) {
  PiController pi(4);
  EXPECT_DOUBLE_EQ(pi.factor_after_accept(0.0), 5.0);
  PiController tight(4, PiSettings{0.9, 0.5, 2.0, 0.7, 0.4});
  EXPECT_DOUBLE_EQ(tight.factor_after_accept(1e-12), 2.0);
  EXPECT_DOUBLE_EQ(tight.factor_after_reject(1e12), 0.5);
  EXPECT_DOUBLE_EQ(pi.factor_after_reject(1e30), 0.2);
}

TEST(PiController, NeverGrowsTheStepRightAfterARejection) {
  PiController pi(4);
  const double shrink = pi.factor_after_reject(10.0);
  EXPECT_LT(shrink, 1.0);
  EXPECT_DOUBLE_EQ(shrink, 0.9 * std::pow(10.0, -1.0 / 5));
  // A tiny error would ask for growth: capped at 1 just after a rejection...
  EXPECT_DOUBLE_EQ(pi.factor_after_accept(1e-6), 1.0);
  // ...and allowed again one step later.
  EXPECT_GT(pi.factor_after_accept(1e-6), 1.0);
}

TEST(PiController, ShrinksWhenTheErrorIsNearOne) {
  PiController pi(2);
  EXPECT_LT(pi.factor_after_accept(1.0), 1.0);
}

// f(t, x) = lambda * x: d0 = ||x0||, d1 = |lambda| d0, d2 ≈ lambda^2 d0.
TEST(InitialStep, FollowsHairerNorsettWannerForALinearProblem) {
  const double lambda = -10.0;
  Tolerances tol;
  tol.rtol = 1e-6;
  tol.atol = 1e-6;
  std::vector<double> x0{1.0, 2.0}, f0{lambda * 1.0, lambda * 2.0}, x1(2), f1(2), w(2);
  int calls = 0;
  const RhsCallback rhs = [&](double, const double* x, double* f) {
    ++calls;
    for (int i = 0; i < 2; ++i) f[i] = lambda * x[i];
  };
  InitialStepInput in;
  in.n = 2;
  in.x0 = x0.data();
  in.f0 = f0.data();
  in.order = 5;
  const double h = initial_step(tol, in, rhs, {x1.data(), f1.data(), w.data()});
  EXPECT_EQ(calls, 1);
  // h0 = 0.01 d0/d1 = 1e-3; d2 = lambda^2 d0 ≈ 100 d0 > d1, d0 ≈ 1e6 in weighted units:
  // h1 = (0.01/d2)^(1/6), h = min(100 h0, h1).
  const double h0 = 0.01 / 10;
  EXPECT_GT(h, 0);
  EXPECT_LE(h, 100 * h0 * (1 + 1e-12));
  // A sensible step for |lambda| = 10 at tolerance 1e-6: neither tiny nor O(1).
  EXPECT_GT(h, 1e-4);
  EXPECT_LT(h, 0.1);
}

TEST(InitialStep, HonoursDirectionAndHmax) {
  Tolerances tol;
  std::vector<double> x0{1.0}, f0{1.0}, x1(1), f1(1), w(1);
  const RhsCallback rhs = [](double, const double*, double* f) { f[0] = 1.0; };
  InitialStepInput in;
  in.n = 1;
  in.x0 = x0.data();
  in.f0 = f0.data();
  in.direction = -1;
  in.order = 4;
  in.h_max = 1e-3;
  const double h = initial_step(tol, in, rhs, {x1.data(), f1.data(), w.data()});
  EXPECT_LT(h, 0);
  EXPECT_LE(-h, 1e-3);
}

TEST(InitialStep, ZeroDerivativeGivesTheFallbackSteps) {
  Tolerances tol;
  std::vector<double> x0{0.0}, f0{0.0}, x1(1), f1(1), w(1);
  const RhsCallback rhs = [](double, const double*, double* f) { f[0] = 0.0; };
  InitialStepInput in;
  in.n = 1;
  in.x0 = x0.data();
  in.f0 = f0.data();
  in.order = 5;
  // h0 = 1e-6 (d0, d1 tiny); h1 = max(1e-6, 1e-9); h = min(1e-4, 1e-6).
  EXPECT_DOUBLE_EQ(initial_step(tol, in, rhs, {x1.data(), f1.data(), w.data()}), 1e-6);
}

}  // namespace
}  // namespace odesens::integrate
