// Hairer's stiffness test in the ERK engine: the stability boundaries it
// rests on, a stiff problem ended early with Status::stiff, the same problem
// solved to the end when the test is off, and non-stiff problems over many
// thousand steps left alone.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "erk_test_problems.hpp"
#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/stiffness_test.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate::erk {
namespace {

// y' = lambda (y - cos t) (HNW II §IV.1, (1.1) with lambda = -50): smooth
// solution near cos t, transient decaying at rate |lambda|.
class StiffCosine final : public ErkSystem {
 public:
  explicit StiffCosine(double lambda) : lambda_(lambda) {}
  void rhs(double t, const double* X, double* F) override { F[0] = lambda_ * (X[0] - std::cos(t)); }

 private:
  double lambda_;
};

TEST(StiffnessTest, StabilityBoundariesAreTheKnownOnes) {
  // Real stability boundaries: explicit Euler 2, classical RK4 2.7853
  // (HNW II Fig. IV.2.1), DOPRI5 3.3066 (HNW II §IV.2).
  EXPECT_NEAR(real_stability_boundary(tableau(TableauId::euler)), 2.0, 1e-6);
  EXPECT_NEAR(real_stability_boundary(tableau(TableauId::rk4)), 2.7853, 1e-3);
  EXPECT_NEAR(real_stability_boundary(tableau(TableauId::dopri5)), 3.3066, 1e-3);
  // DOP853 reaches past its code's threshold of 6.1.
  const double dop853 = real_stability_boundary(tableau(TableauId::dop853));
  EXPECT_GT(dop853, 6.1);
  EXPECT_LT(dop853, 6.6);
}

TEST(StiffnessTest, OnlyTableauxWithTwoStagesAtTheStepEndAreTested) {
  EXPECT_TRUE(StiffnessTest(tableau(TableauId::dopri5)).available());
  EXPECT_TRUE(StiffnessTest(tableau(TableauId::dop853)).available());
  EXPECT_FALSE(StiffnessTest(tableau(TableauId::bs3)).available());
  EXPECT_FALSE(StiffnessTest(tableau(TableauId::cash_karp)).available());
  EXPECT_FALSE(StiffnessTest(tableau(TableauId::rk4)).available());
}

TEST(StiffnessTest, FiringsDeclareStiffnessOnlyInARun) {
  StiffnessTest test(tableau(TableauId::dopri5));
  const double high = 1.01 * test.threshold(), low = 0.5 * test.threshold();
  for (int i = 0; i < StiffnessTest::run - 1; ++i) EXPECT_FALSE(test.record(high));
  // Enough calm tests in a row forget the firings.
  for (int i = 0; i < StiffnessTest::release; ++i) EXPECT_FALSE(test.record(low));
  EXPECT_FALSE(test.due(1));
  for (int i = 0; i < StiffnessTest::run - 1; ++i) EXPECT_FALSE(test.record(high));
  EXPECT_TRUE(test.due(1));  // tested on every step once it fired
  EXPECT_TRUE(test.record(high));
}

// h·ρ measured by a power iteration fires at its own, lower threshold: ρ
// may be |λ| of a complex pair, whose edge of the region lies inside the
// real boundary.
TEST(StiffnessTest, MeasuredHRhoFiresAtItsOwnThreshold) {
  StiffnessTest test(tableau(TableauId::dop853));
  ASSERT_LT(test.measured_threshold(), test.threshold());
  const double quiet = 0.1 * test.measured_threshold();
  const double between = 0.5 * (test.measured_threshold() + test.threshold());
  for (int i = 0; i < StiffnessTest::run - 1; ++i) EXPECT_FALSE(test.record(quiet, between));
  EXPECT_TRUE(test.record(quiet, between));
  EXPECT_DOUBLE_EQ(test.last_h_lambda(), between);
  test.reset();
  for (int i = 0; i < 3 * StiffnessTest::run; ++i)
    EXPECT_FALSE(test.record(quiet, 0.99 * test.measured_threshold()));
}

struct Outcome {
  bool stiff = false;
  std::string message;
  ErkStats stats;
  double t = 0, h_lambda = 0;
};

Outcome solve(ErkSystem& system, TableauId id, double t_end, bool detect, double tol,
              std::size_t n, const double* x0) {
  ErkWorkspace ws(tableau(id), n, 1);
  ErkSettings settings;
  settings.tolerances.rtol = tol;
  settings.tolerances.atol = tol;
  settings.max_steps = 10000000;
  settings.detect_stiffness = detect;
  ErkEngine engine(system, ws, settings);
  engine.reset(0.0, x0, t_end);
  Outcome out;
  try {
    engine.integrate_to(t_end);
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::stiff) << e.what();
    out.stiff = e.status() == Status::stiff;
    out.message = e.what();
  }
  out.stats = engine.stats();
  out.t = engine.t();
  out.h_lambda = engine.last_h_lambda();
  return out;
}

class StiffProblem : public ::testing::TestWithParam<TableauId> {};

TEST_P(StiffProblem, EndsEarlyWithStatusStiff) {
  StiffCosine system(-1e4);
  const double x0 = 0.0;
  const Outcome out = solve(system, GetParam(), 10.0, true, 1e-6, 1, &x0);
  ASSERT_TRUE(out.stiff);
  // The first test comes after `period` accepted steps, a run of firings after it.
  EXPECT_LE(out.stats.accepted, StiffnessTest::period + 3 * StiffnessTest::run);
  EXPECT_LT(out.t, 1.0);
  const Tableau& tab = tableau(GetParam());
  EXPECT_GT(out.h_lambda, StiffnessTest(tab).threshold());
  EXPECT_NE(out.message.find("stiff"), std::string::npos) << out.message;
  EXPECT_NE(out.message.find(tab.name), std::string::npos) << out.message;
}

TEST_P(StiffProblem, RunsToTheEndWhenTheTestIsOff) {
  StiffCosine system(-1e3);
  const double x0 = 0.0;
  const Outcome out = solve(system, GetParam(), 20.0, false, 1e-6, 1, &x0);
  EXPECT_FALSE(out.stiff);
  EXPECT_EQ(out.t, 20.0);
  // Held at the stability limit: far more than the period's steps.
  EXPECT_GT(out.stats.accepted, 3 * StiffnessTest::period);
}

TEST_P(StiffProblem, NonStiffProblemsOverManyStepsAreLeftAlone) {
  // Lotka–Volterra over 400 time units at tight tolerances: thousands of
  // steps, all limited by accuracy.
  testing::LotkaVolterra system(1);
  const double x0[2] = {2.0, 1.0};
  const Outcome out = solve(system, GetParam(), 400.0, true, 1e-12, 2, x0);
  EXPECT_FALSE(out.stiff) << out.message;
  EXPECT_EQ(out.t, 400.0);
  EXPECT_GT(out.stats.accepted, 2 * StiffnessTest::period);
}

INSTANTIATE_TEST_SUITE_P(TestedTableaux, StiffProblem,
                         ::testing::Values(TableauId::dopri5, TableauId::dop853),
                         [](const auto& p) { return std::string(tableau(p.param).name); });

}  // namespace
}  // namespace odesens::integrate::erk
