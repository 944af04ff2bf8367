// Lanes: L trajectories stepped together give, lane by lane, bit for bit the
// numbers of L = 1 runs (EXPECT_EQ on doubles), because every lane performs
// the scalar kernel's operations in the same order without contraction.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "erk_test_problems.hpp"
#include "integrate/erk/erk_engine.hpp"

namespace odesens::integrate::erk {
namespace {

using testing::lane_of;
using testing::LotkaVolterra;

constexpr std::size_t kStates = 2;

// Lane l starts at (1 + 0.3 l, 0.5 + 0.1 l) with its own parameters.
std::vector<double> initial_states(int lanes) {
  std::vector<double> x(kStates * lanes);
  for (int l = 0; l < lanes; ++l) {
    x[l] = 1.0 + 0.3 * l;
    x[lanes + l] = 0.5 + 0.1 * l;
  }
  return x;
}

// The system of lane `lane` alone: LotkaVolterra with one lane uses lane 0's
// parameters, so single runs embed the lane index in a wider system.
class OneLaneOf final : public ErkSystem {
 public:
  OneLaneOf(int lanes, int lane) : wide_(lanes), lanes_(lanes), lane_(lane),
      X_(kStates * lanes, 1.0), F_(kStates * lanes) {}
  void rhs(double t, const double* X, double* F) override {
    // Place the trajectory in its lane (other lanes hold a harmless state).
    for (std::size_t i = 0; i < kStates; ++i) X_[i * lanes_ + lane_] = X[i];
    wide_.rhs(t, X_.data(), F_.data());
    for (std::size_t i = 0; i < kStates; ++i) F[i] = F_[i * lanes_ + lane_];
  }

 private:
  LotkaVolterra wide_;
  int lanes_, lane_;
  std::vector<double> X_, F_;
};

// Records the accepted step sizes of a run.
class StepRecorder final : public ErkObserver {
 public:
  void on_step_accepted(double, double h, const double*, const double*,
                        const double* const*) override {
    steps.push_back(h);
  }
  std::vector<double> steps;
};

void skip_without(int lanes) {
  if (lanes == 8 && !erk_lane_kernels_avx512()) GTEST_SKIP() << "CPU lacks AVX-512F";
  if (lanes == 4 && !erk_lane_kernels_avx2()) GTEST_SKIP() << "CPU lacks AVX2";
}

class LaneWidth : public ::testing::TestWithParam<std::tuple<int, TableauId>> {};

TEST_P(LaneWidth, FixedStepLanesEqualSingleRunsBitForBit) {
  const auto [lanes, id] = GetParam();
  skip_without(lanes);
  const Tableau& tab = tableau(id);
  ErkSettings settings;
  settings.h_fixed = 0.05;
  LotkaVolterra wide(lanes);
  ErkWorkspace ws(tab, kStates, lanes);
  ErkEngine engine(wide, ws, settings);
  ASSERT_EQ(engine.kernels().lanes, lanes);
  const auto x0 = initial_states(lanes);
  engine.reset(0.0, x0.data(), 3.0);
  engine.integrate_to(3.0);
  for (int l = 0; l < lanes; ++l) {
    OneLaneOf single(lanes, l);
    ErkWorkspace ws1(tab, kStates, 1);
    ErkEngine engine1(single, ws1, settings);
    const auto x0_l = lane_of(x0.data(), kStates, lanes, l);
    engine1.reset(0.0, x0_l.data(), 3.0);
    engine1.integrate_to(3.0);
    const auto x_l = lane_of(engine.x(), kStates, lanes, l);
    for (std::size_t i = 0; i < kStates; ++i)
      EXPECT_EQ(x_l[i], engine1.x()[i]) << tab.name << " lane " << l << " state " << i;
  }
}

TEST_P(LaneWidth, SharedAdaptiveStepsEqualSingleRunsReplayingThem) {
  const auto [lanes, id] = GetParam();
  skip_without(lanes);
  const Tableau& tab = tableau(id);
  if (tab.fixed_step_only) GTEST_SKIP() << tab.name << " has no error estimate";
  ErkSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-7;
  LotkaVolterra wide(lanes);
  ErkWorkspace ws(tab, kStates, lanes);
  StepRecorder recorder;
  ErkEngine engine(wide, ws, settings, &recorder);
  const auto x0 = initial_states(lanes);
  engine.reset(0.0, x0.data(), 5.0);
  engine.integrate_to(5.0);
  ASSERT_GT(engine.stats().rejected + engine.stats().accepted, 5);
  for (int l = 0; l < lanes; ++l) {
    OneLaneOf single(lanes, l);
    ErkWorkspace ws1(tab, kStates, 1);
    ErkEngine engine1(single, ws1, settings);
    const auto x0_l = lane_of(x0.data(), kStates, lanes, l);
    engine1.reset(0.0, x0_l.data(), 5.0);
    for (double h : recorder.steps) engine1.take_step(h);
    const auto x_l = lane_of(engine.x(), kStates, lanes, l);
    for (std::size_t i = 0; i < kStates; ++i)
      EXPECT_EQ(x_l[i], engine1.x()[i]) << tab.name << " lane " << l << " state " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Widths, LaneWidth,
    ::testing::Combine(::testing::Values(4, 8),
                       ::testing::Values(TableauId::rk4, TableauId::bs3, TableauId::cash_karp,
                                         TableauId::dopri5, TableauId::dop853)),
    [](const auto& p) {
      return "L" + std::to_string(std::get<0>(p.param)) + "_" +
             tableau(std::get<1>(p.param)).name;
    });

// The SIMD kernels and the portable ones of the same width agree bit for bit
// on awkward values (subnormals, large magnitudes, signed zeros).
TEST(LaneKernels, SimdAndPortableCombineAgreeBitForBit) {
  for (const ErkLaneKernels* simd : {erk_lane_kernels_avx2(), erk_lane_kernels_avx512()}) {
    if (!simd) continue;
    const int L = simd->lanes;
    const ErkLaneKernels* portable = erk_lane_kernels_portable(L);
    const std::size_t n = 5, size = n * L;
    std::vector<double> x(size), k0(size), k1(size), k2(size), a(size), b(size);
    for (std::size_t i = 0; i < size; ++i) {
      x[i] = (i % 3 == 0 ? 1e300 : 1e-310) * (i % 2 ? -1.0 : 1.0) + 0.1 * i;
      k0[i] = 1.0 / (1.0 + i);
      k1[i] = -0.0;
      k2[i] = 3.0e-8 * i - 1.0;
    }
    const double* K[3] = {k0.data(), k1.data(), k2.data()};
    const double coef[3] = {0.1, 0.0, -2.0 / 3.0};
    simd->combine(n, x.data(), 0.37, coef, K, 3, a.data());
    portable->combine(n, x.data(), 0.37, coef, K, 3, b.data());
    for (std::size_t i = 0; i < size; ++i) EXPECT_EQ(a[i], b[i]) << simd->isa << " value " << i;
    // Lane l of width L equals the L = 1 kernel on that lane's column.
    const ErkLaneKernels* scalar = erk_lane_kernels(1);
    for (int l = 0; l < L; ++l) {
      std::vector<double> xs(n), c0(n), c1(n), c2(n), out(n);
      for (std::size_t i = 0; i < n; ++i) {
        xs[i] = x[i * L + l];
        c0[i] = k0[i * L + l];
        c1[i] = k1[i * L + l];
        c2[i] = k2[i * L + l];
      }
      const double* Ks[3] = {c0.data(), c1.data(), c2.data()};
      scalar->combine(n, xs.data(), 0.37, coef, Ks, 3, out.data());
      for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], a[i * L + l]) << simd->isa;
    }
    EXPECT_TRUE(simd->all_finite(n, x.data()));
    x[size - 1] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(simd->all_finite(n, x.data()));
  }
}

}  // namespace
}  // namespace odesens::integrate::erk
