// Adaptive solves meet their tolerance; FSAL and lazy dense stages cost what
// they should; every failure ends in the documented status.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "erk_test_problems.hpp"
#include "integrate/erk/erk_engine.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate::erk {
namespace {

using testing::LogisticAndLinear;

// Global error at t = 10 of an adaptive solve with rtol = atol = tol.
double adaptive_error(TableauId id, double tol, ErkStats* stats = nullptr) {
  LogisticAndLinear system;
  ErkWorkspace ws(tableau(id), 2, 1);
  ErkSettings settings;
  settings.tolerances.rtol = tol;
  settings.tolerances.atol = tol;
  ErkEngine engine(system, ws, settings);
  double x0[2], exact[2];
  LogisticAndLinear::exact(0.0, x0);
  engine.reset(0.0, x0, 10.0);
  engine.integrate_to(10.0);
  EXPECT_EQ(engine.t(), 10.0);
  LogisticAndLinear::exact(10.0, exact);
  if (stats) *stats = engine.stats();
  return std::max(std::fabs(engine.x()[0] - exact[0]), std::fabs(engine.x()[1] - exact[1]));
}

class AdaptiveSolve : public ::testing::TestWithParam<TableauId> {};

TEST_P(AdaptiveSolve, MeetsTheToleranceAndTighterToleranceGivesSmallerError) {
  const Tableau& tab = tableau(GetParam());
  ErkStats loose_stats, tight_stats;
  const double loose = adaptive_error(GetParam(), 1e-6, &loose_stats);
  const double tight = adaptive_error(GetParam(), 1e-10, &tight_stats);
  // Local error control: the global error stays within a small multiple of tol.
  EXPECT_LT(loose, 20 * 1e-6) << tab.name;
  EXPECT_LT(tight, 20 * 1e-10) << tab.name;
  EXPECT_LT(tight, loose) << tab.name;
  EXPECT_GT(tight_stats.accepted, loose_stats.accepted) << tab.name;
}

TEST_P(AdaptiveSolve, EvaluationCountsMatchTheStageStructure) {
  const Tableau& tab = tableau(GetParam());
  ErkStats stats;
  adaptive_error(GetParam(), 1e-8, &stats);
  const long s = tab.stages;
  // reset: f(t0, x0) and one for the starting step.
  long expected = 2;
  if (tab.id == TableauId::dop853) {
    // 11 stages per attempt; the FSAL stage only once a step is accepted.
    expected += (s - 2) * stats.steps + stats.accepted;
  } else if (tab.fsal) {
    expected += (s - 1) * stats.steps;  // k_0 reused from the last step
  } else {
    // k_0 = f(t_n, x_n) once per step after the first (reused on rejection).
    expected += (s - 1) * stats.steps + (stats.accepted - 1);
  }
  EXPECT_EQ(stats.rhs_evaluations, expected) << tab.name;
  EXPECT_EQ(stats.steps, stats.accepted + stats.rejected);
}

INSTANTIATE_TEST_SUITE_P(Tableaux, AdaptiveSolve,
                         ::testing::Values(TableauId::bs3, TableauId::cash_karp,
                                           TableauId::dopri5, TableauId::dop853),
                         [](const auto& p) { return std::string(tableau(p.param).name); });

TEST(AdaptiveSolve, IntegratesBackwardInTime) {
  LogisticAndLinear system;
  ErkWorkspace ws(tableau(TableauId::dopri5), 2, 1);
  ErkSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-9;
  ErkEngine engine(system, ws, settings);
  double x0[2], exact[2];
  LogisticAndLinear::exact(3.0, x0);
  engine.reset(3.0, x0, 0.0);
  engine.integrate_to(0.0);
  LogisticAndLinear::exact(0.0, exact);
  EXPECT_NEAR(engine.x()[0], exact[0], 1e-7);
  EXPECT_NEAR(engine.x()[1], exact[1], 1e-7);
}

TEST(AdaptiveSolve, RespectsHmaxAndGivenFirstStep) {
  LogisticAndLinear system;
  ErkWorkspace ws(tableau(TableauId::dopri5), 2, 1);
  ErkSettings settings;
  settings.h0 = 1e-3;
  settings.h_max = 0.05;
  ErkEngine engine(system, ws, settings);
  double x0[2];
  LogisticAndLinear::exact(0.0, x0);
  engine.reset(0.0, x0, 1.0);
  EXPECT_EQ(engine.h_next(), 1e-3);
  engine.step(1.0);
  EXPECT_EQ(engine.h_last(), 1e-3);
  while (engine.t() < 1.0) {
    engine.step(1.0);
    EXPECT_LE(engine.h_last(), 0.05 * (1 + 1e-12));
  }
}

// reset's h_first overrides h0 and the guess, within h_max; fixed steps
// keep theirs; a negative or NaN one is refused.
TEST(AdaptiveSolve, ResetTakesTheCallersFirstStep) {
  LogisticAndLinear system;
  ErkWorkspace ws(tableau(TableauId::dopri5), 2, 1);
  ErkSettings settings;
  settings.h0 = 1e-3;
  settings.h_max = 0.05;
  ErkEngine engine(system, ws, settings);
  double x0[2];
  LogisticAndLinear::exact(0.0, x0);
  engine.reset(0.0, x0, 1.0, 2e-3);
  EXPECT_EQ(engine.h_next(), 2e-3);
  engine.reset(0.0, x0, 1.0, 1.0);
  EXPECT_EQ(engine.h_next(), 0.05);
  engine.reset(1.0, x0, 0.0, 2e-3);
  EXPECT_EQ(engine.h_next(), -2e-3);
  EXPECT_THROW(engine.reset(0.0, x0, 1.0, -1.0), Error);
  EXPECT_THROW(engine.reset(0.0, x0, 1.0, std::nan("")), Error);
  settings.h_fixed = 0.01;
  ErkEngine fixed(system, ws, settings);
  fixed.reset(0.0, x0, 1.0, 2e-3);
  EXPECT_EQ(fixed.h_next(), 0.01);
}

TEST(DenseStages, Dop853ComputesItsExtraStagesOnlyWhenAskedAndOncePerStep) {
  LogisticAndLinear system;
  ErkWorkspace ws(tableau(TableauId::dop853), 2, 1);
  ErkEngine engine(system, ws, ErkSettings{});
  double x0[2], out[2];
  LogisticAndLinear::exact(0.0, x0);
  engine.reset(0.0, x0, 1.0);
  engine.step(1.0);
  EXPECT_EQ(engine.stats().dense_evaluations, 0);
  const double t_mid = 0.5 * (engine.t_previous() + engine.t());
  engine.interpolate(t_mid, out);
  engine.interpolate(0.9 * t_mid, out);
  EXPECT_EQ(engine.stats().dense_evaluations, 3);
  EXPECT_THROW(engine.interpolate(engine.t() + 1.0, out), Error);
  // The time in the message is short and exact, not 301 digits.
  try {
    engine.interpolate(1e300, out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_STREQ(e.what(), "interpolate: t = 1e+300 lies outside the last step");
  }
}

// ---- failures ---------------------------------------------------------------

Status status_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const Error& e) {
    return e.status();
  }
  return Status::ok;
}

// A method's own error norm replaces the engine's: one that recomputes the
// engine's WRMS norm reproduces the step sequence exactly, one that asks
// for 100 times more accuracy takes more steps, and dop853's second
// estimate is handed over.
class WrmsNorm final : public StepErrorNorm {
 public:
  WrmsNorm(const Tolerances& tol, double scale) : tol_(tol), scale_(scale) {}
  double norm(const StepErrorEstimate& e) override {
    ++calls;
    if (e.err_low) ++with_low;
    std::vector<double> w(e.n * e.lanes);
    error_weights(tol_, e.n, e.lanes, e.x_old, e.x_new, w.data());
    return scale_ * weighted_rms_norm(e.n, e.lanes, e.err, w.data());
  }
  long calls = 0, with_low = 0;

 private:
  Tolerances tol_;
  double scale_;
};

TEST(AdaptiveSolve, AMethodsErrorNormDecidesTheSteps) {
  for (TableauId id : {TableauId::dopri5, TableauId::dop853}) {
    auto run = [&](StepErrorNorm* norm, ErkStats* stats) {
      LogisticAndLinear system;
      ErkWorkspace ws(tableau(id), 2, 1);
      ErkSettings settings;
      settings.tolerances.rtol = settings.tolerances.atol = 1e-8;
      settings.error_norm = norm;
      ErkEngine engine(system, ws, settings);
      double x0[2];
      LogisticAndLinear::exact(0.0, x0);
      engine.reset(0.0, x0, 10.0);
      engine.integrate_to(10.0);
      *stats = engine.stats();
      return engine.x()[0];
    };
    Tolerances tol;
    tol.rtol = tol.atol = 1e-8;
    ErkStats base, same, strict;
    const double x_base = run(nullptr, &base);
    WrmsNorm copy(tol, 1.0), demanding(tol, 100.0);
    const double x_same = run(&copy, &same);
    run(&demanding, &strict);
    if (id == TableauId::dopri5) {
      EXPECT_EQ(same.accepted, base.accepted);
      EXPECT_EQ(same.rejected, base.rejected);
      EXPECT_EQ(x_same, x_base);
      EXPECT_EQ(copy.with_low, 0);
    } else {
      EXPECT_EQ(copy.with_low, copy.calls);  // dop853 hands over its err3
    }
    EXPECT_EQ(copy.calls, same.steps);
    EXPECT_GT(strict.accepted, same.accepted);
  }
}

TEST(ErkFailures, MaxStepsIsTooMuchWork) {
  LogisticAndLinear system;
  ErkWorkspace ws(tableau(TableauId::dopri5), 2, 1);
  ErkSettings settings;
  settings.max_steps = 5;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-12;
  ErkEngine engine(system, ws, settings);
  double x0[2];
  LogisticAndLinear::exact(0.0, x0);
  engine.reset(0.0, x0, 10.0);
  EXPECT_EQ(status_of([&] { engine.integrate_to(10.0); }), Status::too_much_work);
}

class NaNAfter final : public ErkSystem {
 public:
  void rhs(double t, const double* X, double* F) override {
    F[0] = t < 0.5 ? -X[0] : std::numeric_limits<double>::quiet_NaN();
  }
};

TEST(ErkFailures, NaNInFIsNotFinite) {
  NaNAfter system;
  for (TableauId id : {TableauId::dopri5, TableauId::cash_karp}) {
    ErkWorkspace ws(tableau(id), 1, 1);
    ErkEngine engine(system, ws, ErkSettings{});
    const double x0 = 1.0;
    engine.reset(0.0, &x0, 1.0);
    EXPECT_EQ(status_of([&] { engine.integrate_to(1.0); }), Status::not_finite);
  }
}

TEST(ErkFailures, NaNInX0IsNotFinite) {
  NaNAfter system;
  ErkWorkspace ws(tableau(TableauId::dopri5), 1, 1);
  ErkEngine engine(system, ws, ErkSettings{});
  const double x0 = std::numeric_limits<double>::infinity();
  EXPECT_EQ(status_of([&] { engine.reset(0.0, &x0, 1.0); }), Status::not_finite);
}

TEST(ErkFailures, BadFixedStepsAreInvalidArguments) {
  LogisticAndLinear system;
  ErkWorkspace euler(tableau(TableauId::euler), 2, 1);
  ErkWorkspace rk4(tableau(TableauId::rk4), 2, 1);
  EXPECT_EQ(status_of([&] { ErkEngine e(system, euler, ErkSettings{}); }), Status::invalid_argument);
  EXPECT_EQ(status_of([&] { ErkEngine e(system, rk4, ErkSettings{}); }), Status::invalid_argument);
  for (double h : {0.0, -0.1, std::numeric_limits<double>::quiet_NaN()}) {
    ErkSettings settings;
    settings.h_fixed = h;
    EXPECT_EQ(status_of([&] { ErkEngine e(system, rk4, settings); }), Status::invalid_argument)
        << "h_fixed = " << h;
  }
  ErkSettings ok;
  ok.h_fixed = 0.1;
  EXPECT_EQ(status_of([&] { ErkEngine e(system, euler, ok); }), Status::ok);
  EXPECT_EQ(status_of([&] { ErkWorkspace ws(tableau(TableauId::dopri5), 2, 3); }),
            Status::invalid_argument);
}

// f jumps by 1e6 at t = 0.5: no step straddling the jump passes the error
// test at tolerance 1e-12, so the step size collapses onto t = 0.5.
class JumpAtHalf final : public ErkSystem {
 public:
  void rhs(double t, const double*, double* F) override { F[0] = t > 0.5 ? 1e6 : 0.0; }
};

TEST(ErkFailures, StepSizeCollapseIsSolverFailed) {
  JumpAtHalf system;
  ErkWorkspace ws(tableau(TableauId::dopri5), 1, 1);
  ErkSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-12;
  settings.max_steps = 1000000;
  ErkEngine engine(system, ws, settings);
  const double x0 = 0.0;
  engine.reset(0.0, &x0, 1.0);
  EXPECT_EQ(status_of([&] { engine.integrate_to(1.0); }), Status::solver_failed);
  EXPECT_NEAR(engine.t(), 0.5, 1e-12);
}

TEST(ErkFailures, StepBeforeResetIsInvalid) {
  LogisticAndLinear system;
  ErkWorkspace ws(tableau(TableauId::dopri5), 2, 1);
  ErkEngine engine(system, ws, ErkSettings{});
  EXPECT_EQ(status_of([&] { engine.step(1.0); }), Status::invalid_argument);
}

}  // namespace
}  // namespace odesens::integrate::erk
