// Memory of a solve: every method reports the work space it held
// (Stats::extra["workspace_bytes"]), it grows with nnz, not nx^2, on a
// sparse model, and cvodes_asa's S(T) rows run in batches whose work space
// follows the batch, with the same numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

using testing::builtin_problem;
using testing::linspace;

double workspace_of(const Result& r) {
  const auto it = r.stats.extra.find("workspace_bytes");
  return it == r.stats.extra.end() ? -1.0 : it->second;
}

TEST(Workspace, EveryMethodReportsIt) {
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "pbsr", "exp"}) {
    const Result r = solve(builtin_problem("glv:6", linspace(0, 5, 6)), method);
    // At least the states' CVODES vectors, at most a few MB for 6 states.
    EXPECT_GT(workspace_of(r), 6 * 8 * 5) << method;
    EXPECT_LT(workspace_of(r), 8e6) << method;
  }
}

// heat2d:N has N^2 states and 5 N^2 Jacobian entries: four times the grid
// points must cost about four times the memory with KLU (sparse updates for
// pbsr), not sixteen times.
TEST(Workspace, GrowsWithTheNonZerosOfASparseModel) {
  for (const char* method : {"cvodes_fsa", "pbsr"}) {
    const Result small = solve(builtin_problem("heat2d:20", linspace(0, 0.01, 3)), method);
    const Result large = solve(builtin_problem("heat2d:40", linspace(0, 0.01, 3)), method);
    const double ratio = workspace_of(large) / workspace_of(small);
    EXPECT_GT(ratio, 3.0) << method;
    EXPECT_LT(ratio, 7.0) << method;
  }
}

TEST(Workspace, AdjointRowsOfSRunInBatches) {
  auto problem = builtin_problem("heat2d:6", linspace(0, 0.01, 3));
  const Result all = solve(problem, "cvodes_asa");
  EXPECT_EQ(all.stats.extra.at("backward_sweeps"), 1.0);
  for (std::int64_t batch : {1, 5, 36}) {
    problem.options.set("backward_batch", batch);
    const Result r = solve(problem, "cvodes_asa");
    EXPECT_EQ(r.stats.extra.at("backward_sweeps"), std::ceil(36.0 / static_cast<double>(batch)));
    EXPECT_EQ(r.stats.extra.at("backward_problems"), static_cast<double>(1 + batch));
    ASSERT_EQ(r.s.size(), all.s.size());
    for (std::size_t q = 0; q < r.s.size(); ++q)
      EXPECT_NEAR(r.s[q], all.s[q], 1e-12 + 1e-9 * std::fabs(all.s[q])) << "batch " << batch;
    ASSERT_EQ(r.gradient.size(), all.gradient.size());
    EXPECT_NEAR(r.gradient[0], all.gradient[0], 1e-12 * std::fabs(all.gradient[0]));
    if (batch == 1) {
      // 3.5 times less: the forward pass' interpolation data (about 180 KB
      // here, the vectors' own overhead counted) are the same either way.
      EXPECT_LT(3.5 * workspace_of(r), workspace_of(all));
    }
  }
}

}  // namespace
}  // namespace odesens
