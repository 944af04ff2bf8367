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

// Per method, the statistics that count the backward sweep's work.
struct SweepCounts {
  const char* method;
  std::vector<const char*> zero_without_weights;
  const char* positive_with_weights;
};

class AdjointWithoutWeights : public ::testing::TestWithParam<SweepCounts> {};

TEST_P(AdjointWithoutWeights, RunsNoBackwardSweep) {
  const SweepCounts& c = GetParam();
  const Runs r = states_with_and_without_weights(c.method);
  for (const char* stat : c.zero_without_weights)
    EXPECT_EQ(r.unweighted.stats.extra.at(stat), 0.0) << stat;
  EXPECT_GT(r.weighted.stats.extra.at(c.positive_with_weights), 0.0);
  EXPECT_EQ(r.unweighted.x, r.weighted.x);
  ASSERT_EQ(r.unweighted.gradient.size(), 1u);
  EXPECT_EQ(r.unweighted.gradient[0], 0.0);
  EXPECT_NE(r.weighted.gradient[0], 0.0);
}

INSTANTIATE_TEST_SUITE_P(
    Methods, AdjointWithoutWeights,
    ::testing::Values(SweepCounts{"cvodes_asa", {"backward_sweeps"}, "backward_sweeps"},
                      SweepCounts{"erk_adjoint", {"reverse_rhs_evals", "vjp_products"},
                                  "vjp_products"}),
    [](const ::testing::TestParamInfo<SweepCounts>& param_info) {
      return std::string(param_info.param.method);
    });

// Rows of S(T) asked for: the sweep runs with weights 0 too.
TEST(AdjointWithFinalRows, StillRunTheSweepWithoutWeights) {
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
