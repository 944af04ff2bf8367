// Measured orders on a problem with a known solution: global order of
// every tableau by step halving, the embedded estimate against the true
// local error, and the local order of the dense output.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "erk_test_problems.hpp"
#include "integrate/erk/erk_engine.hpp"

namespace odesens::integrate::erk {
namespace {

using testing::LogisticAndLinear;

double max_abs_error(const double* x, const double* exact) {
  return std::max(std::fabs(x[0] - exact[0]), std::fabs(x[1] - exact[1]));
}

// Global error at t_end with N fixed steps.
double fixed_step_error(TableauId id, double t_end, int steps) {
  LogisticAndLinear system;
  ErkWorkspace ws(tableau(id), 2, 1);
  ErkSettings settings;
  settings.h_fixed = t_end / steps;
  ErkEngine engine(system, ws, settings);
  double x0[2], exact[2];
  LogisticAndLinear::exact(0.0, x0);
  engine.reset(0.0, x0, t_end);
  engine.integrate_to(t_end);
  EXPECT_EQ(engine.stats().accepted, steps) << tableau(id).name;
  LogisticAndLinear::exact(t_end, exact);
  return max_abs_error(engine.x(), exact);
}

struct OrderCase {
  TableauId id;
  int coarse_steps;  // chosen so that round-off stays far below the error
  double tolerance;
};

class GlobalOrder : public ::testing::TestWithParam<OrderCase> {};

TEST_P(GlobalOrder, HalvingTheStepDividesTheErrorBy2ToTheOrder) {
  const OrderCase c = GetParam();
  const Tableau& tab = tableau(c.id);
  const double e1 = fixed_step_error(c.id, 5.0, c.coarse_steps);
  const double e2 = fixed_step_error(c.id, 5.0, 2 * c.coarse_steps);
  const double e3 = fixed_step_error(c.id, 5.0, 4 * c.coarse_steps);
  const double p12 = std::log2(e1 / e2), p23 = std::log2(e2 / e3);
  EXPECT_NEAR(p23, tab.order, c.tolerance) << tab.name << " errors " << e1 << " " << e2 << " " << e3;
  EXPECT_NEAR(p12, tab.order, c.tolerance + 0.2) << tab.name;
}

INSTANTIATE_TEST_SUITE_P(Tableaux, GlobalOrder,
                         ::testing::Values(OrderCase{TableauId::euler, 400, 0.2},
                                           OrderCase{TableauId::rk4, 32, 0.2},
                                           OrderCase{TableauId::bs3, 64, 0.2},
                                           OrderCase{TableauId::cash_karp, 64, 0.2},
                                           OrderCase{TableauId::dopri5, 64, 0.2},
                                           OrderCase{TableauId::dop853, 4, 0.3}),
                         [](const auto& p) { return std::string(tableau(p.param.id).name); });

// Records the stages of the last accepted step.
class StageRecorder final : public ErkObserver {
 public:
  explicit StageRecorder(const Tableau& tab, std::size_t size)
      : k(tab.stages, std::vector<double>(size)) {}
  void on_step_accepted(double, double, const double*, const double*,
                        const double* const* stages) override {
    for (std::size_t i = 0; i < k.size(); ++i) k[i].assign(stages[i], stages[i] + k[i].size());
  }
  std::vector<std::vector<double>> k;
};

// One step of size h from the exact solution at t0 = 0: returns the
// estimate e = h Σ e_j k_j and the true error of the embedded solution
// x_hat = x_{n+1} - e, both for state 0.
void one_step_errors(TableauId id, double h, double* estimate, double* true_error) {
  const Tableau& tab = tableau(id);
  const double t0 = 0.0;
  double x0[2], exact[2];
  LogisticAndLinear::exact(t0, x0);
  LogisticAndLinear::exact(t0 + h, exact);
  LogisticAndLinear system;
  ErkWorkspace ws(tab, 2, 1);
  ErkSettings settings;
  StageRecorder recorder(tab, 2);
  ErkEngine engine(system, ws, settings, &recorder);
  engine.reset(t0, x0, t0 + 1);
  engine.take_step(h);
  double e = 0;
  for (int j = 0; j < tab.stages; ++j) e += tab.e[j] * recorder.k[j][0];
  *estimate = h * e;
  const double x_hat = engine.x()[0] - *estimate;
  *true_error = exact[0] - x_hat;
}

class EmbeddedEstimate : public ::testing::TestWithParam<TableauId> {};

// x_{n+1} - x_hat = (exact - x_hat) + O(h^(p+1)): the ratio tends to 1 like h^(p-p_hat).
TEST_P(EmbeddedEstimate, MatchesTheTrueLocalErrorOfTheEmbeddedSolution) {
  const Tableau& tab = tableau(GetParam());
  // Steps where the true error stays far above round-off.
  const double h_large = tab.order >= 8 ? 0.4 : 0.1;
  double gap[3];
  for (int k = 0; k < 3; ++k) {
    const double h = h_large / (1 << k);
    double estimate, true_error;
    one_step_errors(GetParam(), h, &estimate, &true_error);
    gap[k] = std::fabs(estimate / true_error - 1);
  }
  EXPECT_LT(gap[2], 0.1) << tab.name;
  EXPECT_LT(gap[2], gap[0]) << tab.name << " does not approach 1";
}

INSTANTIATE_TEST_SUITE_P(Tableaux, EmbeddedEstimate,
                         ::testing::Values(TableauId::bs3, TableauId::cash_karp,
                                           TableauId::dopri5, TableauId::dop853),
                         [](const auto& p) { return std::string(tableau(p.param).name); });

// Error of the interpolant at θ = 0.3 after one step from the exact solution.
double dense_midpoint_error(TableauId id, double h) {
  const double t0 = 0.0, t_mid = t0 + 0.3 * h;
  double x0[2], exact[2], mid[2];
  LogisticAndLinear::exact(t0, x0);
  LogisticAndLinear::exact(t_mid, exact);
  LogisticAndLinear system;
  ErkWorkspace ws(tableau(id), 2, 1);
  ErkSettings settings;
  settings.h_fixed = h;
  ErkEngine engine(system, ws, settings);
  engine.reset(t0, x0, t0 + 1);
  engine.take_step(h);
  engine.interpolate(t_mid, mid);
  return max_abs_error(mid, exact);
}

class DenseOrder : public ::testing::TestWithParam<TableauId> {};

// Local error of an interpolant of order q is O(h^(q+1)).
TEST_P(DenseOrder, MidStepErrorScalesLikeTheDenseOrderPlusOne) {
  const Tableau& tab = tableau(GetParam());
  const double h = tab.dense_order >= 7 ? 0.8 : 0.1;
  const double e1 = dense_midpoint_error(GetParam(), h);
  const double e2 = dense_midpoint_error(GetParam(), h / 2);
  const double e3 = dense_midpoint_error(GetParam(), h / 4);
  EXPECT_NEAR(std::log2(e2 / e3), tab.dense_order + 1, 0.3)
      << tab.name << " errors " << e1 << " " << e2 << " " << e3;
}

INSTANTIATE_TEST_SUITE_P(Tableaux, DenseOrder,
                         ::testing::Values(TableauId::rk4, TableauId::bs3, TableauId::cash_karp,
                                           TableauId::dopri5, TableauId::dop853),
                         [](const auto& p) { return std::string(tableau(p.param).name); });

}  // namespace
}  // namespace odesens::integrate::erk
