// An adjoint method asked for the states alone (no row of S(T), every
// weight 0, as a PEtab evaluation without a gradient asks) runs no
// backward sweep: the states are those of a run with weights, the
// gradient is 0.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

using testing::builtin_problem;
using testing::linspace;

struct Runs {
  Result weighted, unweighted;
};

Runs states_with_and_without_weights(const std::string& method) {
  Problem problem = builtin_problem("vanderpol", {});
  problem.output_times = linspace(problem.t0, 1.0, 6);
  problem.options.set("final_sensitivity", 0);
  problem.adjoint_weights.assign(problem.output_times.size() * problem.model->nx(), 0.0);
  Runs runs;
  runs.unweighted = solve(problem, method);
  problem.adjoint_weights.back() = 1.0;
  runs.weighted = solve(problem, method);
  return runs;
}

TEST(AdjointWithoutWeights, CvodesAsaRunsNoBackwardSweep) {
  const Runs r = states_with_and_without_weights("cvodes_asa");
  EXPECT_EQ(r.unweighted.stats.extra.at("backward_sweeps"), 0.0);
  EXPECT_GT(r.weighted.stats.extra.at("backward_sweeps"), 0.0);
  EXPECT_EQ(r.unweighted.x, r.weighted.x);
  ASSERT_EQ(r.unweighted.gradient.size(), 1u);
  EXPECT_EQ(r.unweighted.gradient[0], 0.0);
  EXPECT_NE(r.weighted.gradient[0], 0.0);
}

TEST(AdjointWithoutWeights, ErkAdjointRunsNoReverseSweep) {
  const Runs r = states_with_and_without_weights("erk_adjoint");
  EXPECT_EQ(r.unweighted.stats.extra.at("reverse_rhs_evals"), 0.0);
  EXPECT_EQ(r.unweighted.stats.extra.at("vjp_products"), 0.0);
  EXPECT_GT(r.weighted.stats.extra.at("vjp_products"), 0.0);
  EXPECT_EQ(r.unweighted.x, r.weighted.x);
  ASSERT_EQ(r.unweighted.gradient.size(), 1u);
  EXPECT_EQ(r.unweighted.gradient[0], 0.0);
  EXPECT_NE(r.weighted.gradient[0], 0.0);
}

// Rows of S(T) asked for: the sweep runs with weights 0 too.
TEST(AdjointWithoutWeights, RowsOfSAtTheEndStillRunTheSweep) {
  for (const char* method : {"cvodes_asa", "erk_adjoint"}) {
    Problem problem = builtin_problem("vanderpol", {});
    problem.output_times = linspace(problem.t0, 1.0, 6);
    problem.adjoint_weights.assign(problem.output_times.size() * problem.model->nx(), 0.0);
    const Result r = solve(problem, method);
    ASSERT_EQ(r.s.size(), r.nx * r.np) << method;
    EXPECT_NE(r.s[0], 0.0) << method;  // dx(1)/dmu of the oscillator
    EXPECT_EQ(r.gradient[0], 0.0) << method;
  }
}

}  // namespace
}  // namespace odesens
