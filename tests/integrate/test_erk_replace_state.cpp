// ErkEngine::replace_state: a state overwritten between two steps is
// integrated as if a solve had started there with the same step size, k_0
// is evaluated afresh, and the old step's dense output is gone.
#include <gtest/gtest.h>

#include <vector>

#include "erk_test_problems.hpp"
#include "integrate/erk/erk_engine.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate::erk {
namespace {

using testing::LotkaVolterra;

// Lane l starts at (1 + 0.2 l, 0.5).
std::vector<double> start(int lanes, double shift = 0.0) {
  std::vector<double> x(2 * static_cast<std::size_t>(lanes));
  for (int l = 0; l < lanes; ++l) {
    x[l] = 1.0 + 0.2 * l + shift;
    x[lanes + l] = 0.5 - shift;
  }
  return x;
}

class ReplaceState : public ::testing::TestWithParam<TableauId> {};

// Fixed steps: replacing at t1 and going on equals a fresh solve from t1.
TEST_P(ReplaceState, ContinuesLikeAFreshStartFromTheNewState) {
  const Tableau& tab = tableau(GetParam());
  ErkSettings settings;
  settings.h_fixed = 0.05;
  LotkaVolterra system_a(4), system_b(4);
  ErkWorkspace ws_a(tab, 2, 4), ws_b(tab, 2, 4);
  ErkEngine a(system_a, ws_a, settings), b(system_b, ws_b, settings);
  const auto x0 = start(4), x1 = start(4, 0.1);
  a.reset(0.0, x0.data(), 2.0);
  for (int k = 0; k < 20; ++k) a.take_step(0.05);
  const double t1 = a.t();
  a.replace_state(x1.data());
  EXPECT_EQ(std::vector<double>(a.x(), a.x() + 8), x1);
  b.reset(t1, x1.data(), 2.0);
  for (int k = 0; k < 10; ++k) {
    a.take_step(0.05);
    b.take_step(0.05);
  }
  for (std::size_t q = 0; q < 8; ++q) EXPECT_EQ(a.x()[q], b.x()[q]) << tab.name << " value " << q;
}

// Adaptive steps: the step after a replacement costs one more f evaluation
// (k_0 anew) and keeps the proposed step size; dense output of the step
// before it is refused.
TEST_P(ReplaceState, EvaluatesTheFirstStageAgainAndForgetsDenseOutput) {
  const Tableau& tab = tableau(GetParam());
  ErkSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-8;
  LotkaVolterra system(1);
  ErkWorkspace ws(tab, 2, 1);
  ErkEngine engine(system, ws, settings);
  const auto x0 = start(1);
  engine.reset(0.0, x0.data(), 10.0);
  for (int k = 0; k < 5; ++k) engine.step(10.0);
  // A step without replacement, then one with: same attempt count each.
  long before = engine.stats().rhs_evaluations;
  const long steps_before = engine.stats().steps;
  engine.step(10.0);
  const long plain = engine.stats().rhs_evaluations - before;
  ASSERT_EQ(engine.stats().steps, steps_before + 1) << "a rejection spoils the count";
  const double h_next = engine.h_next();
  std::vector<double> x(engine.x(), engine.x() + 2);
  engine.replace_state(x.data());
  EXPECT_THROW(engine.interpolate(engine.t(), x.data()), Error);
  before = engine.stats().rhs_evaluations;
  engine.step(10.0);
  ASSERT_EQ(engine.stats().steps, steps_before + 2) << "a rejection spoils the count";
  const long after_replace = engine.stats().rhs_evaluations - before;
  EXPECT_EQ(after_replace, plain + (tab.fsal ? 1 : 0)) << tab.name;
  EXPECT_DOUBLE_EQ(engine.h_last(), h_next) << tab.name;
}

TEST(ReplaceState, NeedsAStartedSolveAndFiniteValues) {
  LotkaVolterra system(1);
  ErkWorkspace ws(tableau(TableauId::dopri5), 2, 1);
  ErkEngine engine(system, ws, ErkSettings{});
  const auto x0 = start(1);
  EXPECT_THROW(engine.replace_state(x0.data()), Error);
  engine.reset(0.0, x0.data(), 1.0);
  std::vector<double> bad = {1.0, std::nan("")};
  try {
    engine.replace_state(bad.data());
    FAIL() << "NaN accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite);
  }
}

INSTANTIATE_TEST_SUITE_P(Tableaux, ReplaceState,
                         ::testing::Values(TableauId::bs3, TableauId::cash_karp, TableauId::dopri5,
                                           TableauId::dop853),
                         [](const auto& p) { return std::string(tableau(p.param).name); });

}  // namespace
}  // namespace odesens::integrate::erk
