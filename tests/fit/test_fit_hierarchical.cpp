// Hierarchical fits (PetabOptions::hierarchical through
// OptimizerOptions::evaluation): the optimizers vary k1 alone, the
// evaluations set scale (an affine inner parameter) and sd (a sigma), and
// the fit ends where the fit of all three does; a profile of an inner
// parameter holds it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "estimate/synthetic_petab_problem.hpp"
#include "fit/inner_projection.hpp"
#include "odesens/fit.hpp"
#include "odesens/profile.hpp"

namespace odesens {
namespace {

test::SyntheticOptions noisy() {
  test::SyntheticOptions so;
  so.sd_estimated = true;
  so.perturbation = 0.05;
  return so;
}

FitOptions options(const std::string& optimizer, bool hierarchical) {
  FitOptions o;
  o.optimizer.optimizer = optimizer;
  o.optimizer.evaluation.hierarchical = hierarchical;
  o.starts = 4;
  o.seed = 3;
  o.threads = 2;
  return o;
}

TEST(FitHierarchical, EndsWhereTheFitOfEveryParameterEnds) {
  test::SyntheticProblem synthetic(noisy());
  auto problem = PetabProblem::load(synthetic.yaml());
  ASSERT_EQ(problem->inner_parameters(), (std::vector<std::size_t>{1, 2}));  // scale, sd
  for (const char* optimizer : {"ceres_lm", "nlopt_lbfgs", "ceres_lm_lbfgs", "lbfgsb"}) {
    SCOPED_TRACE(optimizer);
    const FitResult all = fit(*problem, options(optimizer, false));
    const FitResult inner = fit(*problem, options(optimizer, true));
    const StartResult& a = all.starts[0];
    const StartResult& h = inner.starts[0];
    EXPECT_NEAR(h.nlpost, a.nlpost, 1e-6) << h.exit_reason;
    for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(h.end[i], a.end[i], 1e-4) << i;
    // The end point's inner values are the evaluation's, not the start's.
    EXPECT_NE(h.end[1], h.start[1]);
    // ceres_lm alone ends on its function tolerance short of 1e-5 on both.
    EXPECT_LT(h.gradient_norm, std::max(1e-4, 2 * a.gradient_norm)) << h.exit_reason;
    EXPECT_EQ(inner.starts_at_best, 4u);
  }
}

OptimizerOptions hierarchical_options() {
  OptimizerOptions o;
  o.evaluation.hierarchical = true;
  return o;
}

TEST(FitHierarchical, AProfileOfAnInnerParameterHoldsIt) {
  test::SyntheticProblem synthetic(noisy());
  auto problem = PetabProblem::load(synthetic.yaml());
  const OptimizerOptions o = hierarchical_options();
  const StartResult best = optimize(*problem, {std::log10(0.3), 2.0, -1.0}, {}, o);
  ASSERT_EQ(best.status, Status::ok) << best.exit_reason;
  ProfileOptions po;
  po.parameters = {1};  // scale
  po.optimizer = o;
  const std::vector<Profile> profiles = profile(*problem, best.end, po);
  ASSERT_EQ(profiles.size(), 1u);
  const Profile& p = profiles[0];
  EXPECT_EQ(p.lower_end, ProfileEnd::crossed);
  EXPECT_EQ(p.upper_end, ProfileEnd::crossed);
  EXPECT_FALSE(p.found_better);
  for (const ProfilePoint& q : p.points) EXPECT_EQ(q.x[1], q.value);
  EXPECT_LT(p.lower, best.end[1]);
  EXPECT_GT(p.upper, best.end[1]);
}

// From a start whose inner parameter is off its optimum, the profile's
// reference is nlpost with that parameter held where the start has it: the
// start's nlpost with it set to its optimum lay below every profile point,
// and the interval came out 5e-5 wide around the start, "crossed" on both
// sides, with no word that the start was no optimum.
TEST(FitHierarchical, AProfileOfAnInnerParameterStartsWhereTheStartHoldsIt) {
  test::SyntheticProblem synthetic(noisy());
  auto problem = PetabProblem::load(synthetic.yaml());
  const OptimizerOptions o = hierarchical_options();
  const StartResult best = optimize(*problem, {std::log10(0.3), 2.0, -1.0}, {}, o);
  ASSERT_EQ(best.status, Status::ok) << best.exit_reason;
  std::vector<double> start = best.end;
  start[1] += 0.3;  // scale off its optimum
  PetabOptions held = o.evaluation;
  held.hold = {false, true, false};
  const double at_start = problem->evaluate(start, held).nlpost;
  ASSERT_GT(at_start, best.nlpost + 0.1);
  ProfileOptions po;
  po.parameters = {1};
  po.optimizer = o;
  const Profile p = profile(*problem, start, po).at(0);
  EXPECT_EQ(p.best_nlpost, at_start);
  EXPECT_TRUE(p.found_better);
  EXPECT_LT(p.lower, best.end[1]);  // the side towards the optimum went past it
  for (const ProfilePoint& q : p.points) EXPECT_EQ(q.x[1], q.value);
}

// The projected columns are orthogonal to the inner ones, and the inner
// ones vanish.
TEST(FitHierarchical, ProjectionRemovesTheInnerColumnsFromEveryColumn) {
  const std::size_t rows = 7, n = 4;
  std::vector<double> j(rows * n);
  for (std::size_t k = 0; k < j.size(); ++k) j[k] = std::sin(1.0 + 3.7 * static_cast<double>(k));
  const std::vector<std::size_t> inner = {1, 3};
  fitting::project_out_columns(j, rows, n, inner);
  for (std::size_t a : inner)
    for (std::size_t c = 0; c < n; ++c) {
      double dot = 0.0;
      for (std::size_t r = 0; r < rows; ++r) dot += j[r * n + a] * j[r * n + c];
      if (c != a) {
        EXPECT_NEAR(dot, 0.0, 1e-12) << a << " " << c;
      }
    }
  for (std::size_t r = 0; r < rows; ++r) EXPECT_NEAR(j[r * n + 1], 0.0, 1e-12);
}

}  // namespace
}  // namespace odesens
