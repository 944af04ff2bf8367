// Compensated accumulation of the states in both engines: x_{n+1} =
// x_n + Σ b_j k_j with its rounding error kept in x_low. On x' = c, whose
// every step adds h c (not a whole number of ulps of x), plain sums drift by
// a systematic fraction of an ulp per step, while x + x_low stays exact to
// about an ulp of the total; the SIMD kernels agree with the portable ones
// bit for bit, and replace_state / set_lane_state take low parts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_system.hpp"
#include "integrate/erk/lane_kernels.hpp"
#include "integrate/erk/tableau.hpp"
#include "integrate/implicit/rosenbrock_engine.hpp"
#include "integrate/implicit/rosenbrock_system.hpp"
#include "integrate/implicit/rosenbrock_tableau.hpp"
#include "integrate/implicit/rosenbrock_workspace.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

constexpr double kRate = 1e-9;  // x' = kRate from x(0) = 1
constexpr double kStep = 1e-3;
constexpr int kSteps = 100000;  // t_end = 100: x(t_end) = 1 + 1e-7 exactly

class ConstantRateErk final : public erk::ErkSystem {
 public:
  explicit ConstantRateErk(int lanes) : lanes_(lanes) {}
  void rhs(double, const double*, double* F) override {
    for (int l = 0; l < lanes_; ++l) F[l] = kRate;
  }

 private:
  int lanes_;
};

class ConstantRateRosenbrock final : public RosenbrockSystem {
 public:
  explicit ConstantRateRosenbrock(std::size_t lanes) : m_(lanes) {}
  void rhs(double, const double*, double* F) override {
    for (std::size_t l = 0; l < m_; ++l) F[l] = kRate;
  }
  void jacobian(double, const double*, double* J) override { J[0] = 0.0; }
  bool constant_jacobian() const override { return true; }
  void jvp(std::size_t, double, const double*, const double*, double* out) override {
    out[0] = 0.0;
  }
  void dfdt(double, const double*, double* D) override {
    for (std::size_t l = 0; l < m_; ++l) D[l] = 0.0;
  }
  bool autonomous() const override { return true; }

 private:
  std::size_t m_;
};

// The error of x + x_low at t_end = 100 against 1 + 1e-7 (exact in the
// arithmetic of the sum: 1e-7 is far above an ulp of 1).
// One trajectory of x' = kRate on dopri5 with fixed steps kStep.
struct ErkRun {
  explicit ErkRun(bool compensated)
      : system(1), ws(erk::tableau(erk::TableauId::dopri5), 1, 1), engine(system, ws, [&] {
          erk::ErkSettings settings;
          settings.h_fixed = kStep;
          settings.compensated = compensated;
          return settings;
        }()) {}
  ConstantRateErk system;
  erk::ErkWorkspace ws;
  erk::ErkEngine engine;
};

double erk_drift(bool compensated) {
  ErkRun run(compensated);
  erk::ErkEngine& engine = run.engine;
  const double x0 = 1.0;
  engine.reset(0.0, &x0, kSteps * kStep);
  for (int k = 0; k < kSteps; ++k) engine.take_step(kStep);
  return std::fabs((engine.x()[0] - 1.0) + engine.x_low()[0] - 1e-7);
}

TEST(CompensatedStates, ErkSumsWithoutDrift) {
  const double plain = erk_drift(false), compensated = erk_drift(true);
  // Plain: about 9e-12, 0.4 ulp of 1 per step (a loop adding 1e-12 to 1
  // 1e5 times drifts by 8.9e-12); compensated: the rounding of h c alone.
  EXPECT_GT(plain, 1e-13);
  EXPECT_LT(compensated, 1e-18);
}

TEST(CompensatedStates, ErkPlainStateHasNoLowPart) {
  ErkRun run(false);
  erk::ErkEngine& engine = run.engine;
  const double x0 = 1.0, low = 1e-17;
  engine.reset(0.0, &x0, 1.0);
  engine.take_step(kStep);
  EXPECT_EQ(engine.x_low()[0], 0.0);
  EXPECT_THROW(engine.set_state_low(&low), Error);
  engine.replace_state(&x0, &low);  // ignored without compensation
  EXPECT_EQ(engine.x_low()[0], 0.0);
}

// A low part given with the state is carried into the next step's sum.
TEST(CompensatedStates, ErkTakesTheLowPartOfAReplacedState) {
  ErkRun run(true);
  erk::ErkEngine& engine = run.engine;
  const double x0 = 1.0, low = 3e-17;
  engine.reset(0.0, &x0, 1.0);
  engine.replace_state(&x0, &low);
  EXPECT_EQ(engine.x_low()[0], low);
  engine.take_step(kStep);
  // 1 + (3e-17 + 1e-12): x + x_low holds both.
  EXPECT_NEAR((engine.x()[0] - 1.0) + engine.x_low()[0], 1e-12 + 3e-17, 1e-27);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(engine.replace_state(&x0, &nan), Error);
}

TEST(CompensatedStates, RosenbrockSumsWithoutDrift) {
  ConstantRateRosenbrock system(2);
  RosenbrockWorkspace ws(grk4a(), 1, 2, nullptr);
  RosenbrockSettings settings;
  settings.h_fixed = kStep;
  RosenbrockEngine engine(system, ws, settings);
  const double x0[2] = {1.0, 1.0};
  engine.reset(0.0, x0, kSteps * kStep);
  const double low = 2e-17;
  engine.set_lane_state(1, &x0[1], &low);
  for (int k = 0; k < kSteps; ++k) engine.take_step(kStep);
  EXPECT_LT(std::fabs((engine.x()[0] - 1.0) + engine.x_low()[0] - 1e-7), 1e-18);
  // Lane 1 carries its low part: it stays 2e-17 above lane 0.
  const double gap = (engine.x()[1] - engine.x()[0]) + (engine.x_low()[1] - engine.x_low()[0]);
  EXPECT_NEAR(gap, low, 1e-21);
}

// The SIMD compensated kernels and the portable ones of the same width agree
// bit for bit, and x + x_low is the exact sum where it is representable.
TEST(CompensatedStates, SimdAndPortableKernelsAgreeBitForBit) {
  for (const erk::ErkLaneKernels* simd :
       {erk::erk_lane_kernels_avx2(), erk::erk_lane_kernels_avx512()}) {
    if (!simd) continue;
    const int L = simd->lanes;
    const erk::ErkLaneKernels* portable = erk::erk_lane_kernels_portable(L);
    const std::size_t n = 5, size = n * static_cast<std::size_t>(L);
    std::vector<double> x(size), low(size), k0(size), k1(size), a(size), b(size), a_low(size),
        b_low(size);
    for (std::size_t i = 0; i < size; ++i) {
      x[i] = (i % 3 == 0 ? 1e10 : 1.0) * (i % 2 ? -1.0 : 1.0) + 0.1 * static_cast<double>(i);
      low[i] = 1e-17 * static_cast<double>(i);
      k0[i] = 1.0 / (3.0 + static_cast<double>(i));
      k1[i] = -1e-9 * static_cast<double>(i);
    }
    const double* K[2] = {k0.data(), k1.data()};
    const double coef[2] = {0.7, -0.3};
    simd->combine_compensated(n, x.data(), low.data(), 1e-3, coef, K, 2, a.data(), a_low.data());
    portable->combine_compensated(n, x.data(), low.data(), 1e-3, coef, K, 2, b.data(),
                                  b_low.data());
    for (std::size_t i = 0; i < size; ++i) {
      EXPECT_EQ(a[i], b[i]) << simd->isa << " value " << i;
      EXPECT_EQ(a_low[i], b_low[i]) << simd->isa << " low part " << i;
      // TwoSum is exact: the high part is the rounded sum, the low part its error.
      EXPECT_EQ(a[i] + a_low[i], a[i]) << simd->isa << " value " << i;
    }
  }
}

}  // namespace
}  // namespace odesens::integrate
