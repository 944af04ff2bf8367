// Comparisons of f that read parameters alone (SBML's piecewise(1, k > 0,
// 0), Alkan_SciSignal2018's drug switches): f never switches during a
// solve, and S is the derivative on the branch the parameters are on, as
// CVODES' sensitivity equations give it. Internal differences perturb the
// parameters: a perturbed trajectory that crossed to the other branch took
// in the jump of f over eps (grk4as on Alkan: Inf in S, or steps that
// collapsed for minutes). They now follow the nominal's branch, in f and in
// grk4as' Jacobian products.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/parameter_subset.hpp"
#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

// At a = 1, k = 0 both comparisons are false, and a perturbation of a or k
// upwards makes them true: x' = -a x + k, y' = x on the nominal's branches.
const char* kBranchesOnParameters =
    "param a = 1\nparam k = 0\nstate x = 1\nstate y = 0\n"
    "dx/dt = -a*x + k - piecewise(1000, k > 0, 0)*x\n"
    "dy/dt = piecewise(2, a > 1, 1)*x\n";

// x, y and their derivatives in a and k at a = 1, k = 0, on those branches.
struct Exact {
  double x, y, x_a, x_k, y_a, y_k;
};
Exact exact_at(double t) {
  const double e = std::exp(-t);
  return {e, 1 - e, -t * e, 1 - e, -(1 - e * (1 + t)), t - (1 - e)};
}

class ParameterBranches : public ::testing::TestWithParam<std::string> {};

TEST_P(ParameterBranches, SIsTheDerivativeOnTheNominalsBranch) {
  Problem p;
  p.model = load_ode_text(kBranchesOnParameters, "branches.ode");
  p.output_times = testing::linspace(0.25, 3.0, 12);
  p.rtol = 1e-8;
  p.atol = {1e-10};
  if (GetParam() == "grk4as_frozen") p.options.set("jacobian", "frozen");
  const std::string method = GetParam() == "grk4as_frozen" ? "grk4as" : GetParam();
  const Result r = solve(p, method);
  ASSERT_EQ(r.s.size(), 2u * 2u * p.output_times.size());
  // Frozen Jacobians converge at order 1 in S (docs/methods/grk4as.md).
  const double tolerance = GetParam() == "grk4as_frozen" ? 1e-3 : 1e-5;
  for (std::size_t k = 0; k < p.output_times.size(); ++k) {
    const Exact e = exact_at(p.output_times[k]);
    const double* s = r.s.data() + k * 4;  // nx x np, column-major, per output
    const std::string at = method + " at t = " + std::to_string(p.output_times[k]);
    EXPECT_NEAR(r.x[k * 2], e.x, 1e-6) << at;
    EXPECT_NEAR(s[0], e.x_a, tolerance) << at << ": dx/da";
    EXPECT_NEAR(s[1], e.y_a, tolerance) << at << ": dy/da";
    EXPECT_NEAR(s[2], e.x_k, tolerance) << at << ": dx/dk";
    EXPECT_NEAR(s[3], e.y_k, tolerance) << at << ": dy/dk";
  }
}

INSTANTIATE_TEST_SUITE_P(EveryForwardMethod, ParameterBranches,
                         ::testing::Values("cvodes_fsa", "odesd", "pbsr", "exp", "dopri8s",
                                           "grk4as", "grk4as_frozen"),
                         [](const auto& param_info) { return param_info.param; });

// The model counts its comparisons of parameters alone, and f at many
// points takes them as point 0 does.
TEST(ParameterBranches, BatchedRhsTakesThemFromPointZero) {
  const auto model = load_ode_text(kBranchesOnParameters, "branches.ode");
  const BatchedRhs* batched = model->batched_rhs();
  ASSERT_NE(batched, nullptr);
  EXPECT_EQ(batched->parameter_branch_count(), 2u);
  const double t[2] = {0.0, 0.0}, X[4] = {1.0, 0.0, 1.0, 0.0};
  const double P[4] = {1.0, 0.0, 1.0 + 1e-8, 1e-8};  // point 1 across both comparisons
  double F[4], own[4];
  batched->rhs_points_on_first_parameters(2, t, X, P, F, nullptr);
  batched->rhs_points(2, t, X, P, own, nullptr);
  EXPECT_NEAR(F[2], -(1.0 + 1e-8) + 1e-8, 1e-15);  // x' on the branch k <= 0
  EXPECT_EQ(F[3], 1.0);                            // y' on the branch a <= 1
  EXPECT_LT(own[2], -1000.0);                      // its own branches: the jump
  EXPECT_EQ(own[3], 2.0);
  double jv[2];
  const double v[2] = {1.0, 0.0};
  batched->jvp_on_first_parameters(0.0, X + 2, P + 2, P, 1, v, jv, nullptr);
  EXPECT_NEAR(jv[0], -(1.0 + 1e-8), 1e-15);
  EXPECT_EQ(jv[1], 1.0);
}

// A model of some of the parameters (PEtab's estimated ones) keeps them.
TEST(ParameterBranches, AParameterSubsetTakesThemFromPointZeroToo) {
  const auto full = load_ode_text(kBranchesOnParameters, "branches.ode");
  const auto subset = parameter_subset(full, {1}, {1.0, 0.0});  // k free, a held at 1
  const BatchedRhs* batched = subset->batched_rhs();
  ASSERT_NE(batched, nullptr);
  EXPECT_EQ(batched->parameter_branch_count(), 2u);
  const auto ws = subset->make_workspace();
  const double t[2] = {0.0, 0.0}, X[4] = {1.0, 0.0, 1.0, 0.0}, P[2] = {0.0, 1e-8};
  double F[4];
  batched->rhs_points_on_first_parameters(2, t, X, P, F, ws.get());
  EXPECT_NEAR(F[2], -1.0 + 1e-8, 1e-15);
  double jv[2];
  const double v[2] = {1.0, 0.0};
  batched->jvp_on_first_parameters(0.0, X + 2, P + 1, P, 1, v, jv, ws.get());
  EXPECT_EQ(jv[0], -1.0);
  Problem p;
  p.model = subset;
  p.output_times = {1.0, 2.0};
  const Result fsa = solve(p, "cvodes_fsa"), grk = solve(p, "grk4as");
  for (std::size_t k = 0; k < fsa.s.size(); ++k) EXPECT_NEAR(grk.s[k], fsa.s[k], 1e-5) << k;
}

// A model without such comparisons has none, and no event system for them.
TEST(ParameterBranches, AModelWithoutThemHasNone) {
  const auto model = load_ode_text("param k = 1\nstate x = 1\ndx/dt = -k*x\n", "plain.ode");
  EXPECT_EQ(model->batched_rhs()->parameter_branch_count(), 0u);
  const auto branches = load_ode_text(kBranchesOnParameters, "branches.ode");
  EXPECT_EQ(branches->event_system(), nullptr);
}

}  // namespace
}  // namespace odesens
