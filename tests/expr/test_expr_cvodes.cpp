// ExprModel inside the CVODES baselines: the same sensitivities as the
// hand-written built-in model, dense and sparse (KLU) linear solvers.
#include <gtest/gtest.h>

#include <cmath>

#include "expr_test_support.hpp"
#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

using expr_testing::ode_model_path;
using testing::linspace;
using testing::relative_max_difference;

TEST(ExprCvodes, ChuaOdeGivesTheSameSensitivitiesAsTheBuiltin) {
  ODESENS_REQUIRE_SHARED_MODEL("chua.ode");
  Problem a;
  a.model = load_model(ode_model_path("chua.ode"));
  a.output_times = linspace(0, 10, 21);
  a.rtol = 1e-12;
  a.atol = {1e-14};
  Problem b = a;
  b.model = make_builtin_model("chua");
  const Result ra = solve(a, "cvodes_fsa"), rb = solve(b, "cvodes_fsa");
  EXPECT_LT(relative_max_difference(ra.x, rb.x), 1e-8);
  EXPECT_LT(relative_max_difference(ra.s, rb.s), 1e-8);
}

TEST(ExprCvodes, CamkiiRunsWithForwardSensitivities) {
  ODESENS_REQUIRE_SHARED_MODEL("camkii.ode");
  Problem pr;
  pr.model = load_model(ode_model_path("camkii.ode"));
  pr.output_times = linspace(0, 600, 61);
  const Result r = solve(pr, "cvodes_fsa");
  ASSERT_EQ(r.s.size(), 61u * 21u * 59u);
  for (double v : r.s) ASSERT_TRUE(std::isfinite(v));
  for (double v : r.x) ASSERT_TRUE(std::isfinite(v));
}

TEST(ExprCvodes, SparseAndDenseLinearSolversAgreeOnAGeneratedModel) {
  std::string text = "param k = 0.8\n";
  const int n = 60;
  for (int i = 0; i < n; ++i) text += "state u" + std::to_string(i) + " = " + std::to_string(0.5 + 0.01 * i) + "\n";
  for (int i = 0; i < n; ++i) {
    const std::string l = "u" + std::to_string((i + n - 1) % n), c = "u" + std::to_string(i);
    text += "d" + c + "/dt = k*(" + l + " - " + c + ") - 0.1*" + c + "^3\n";
  }
  Problem a;
  a.model = load_ode_text(text, "ring.ode");
  a.output_times = {0.5, 1.0};
  a.rtol = 1e-10;
  a.atol = {1e-12};
  a.options.set("linear_solver", "klu");
  Problem b = a;
  b.options = Options();
  b.options.set("linear_solver", "dense");
  const Result ra = solve(a, "cvodes_fsa"), rb = solve(b, "cvodes_fsa");
  EXPECT_LT(relative_max_difference(ra.s, rb.s), 1e-7);
}

TEST(ExprCvodes, AdjointGradientMatchesForwardSensitivities) {
  ODESENS_REQUIRE_SHARED_MODEL("michaelis_menten.ode");
  Problem pr;
  pr.model = load_model(ode_model_path("michaelis_menten.ode"));
  pr.output_times = {50.0};
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const Result fwd = solve(pr, "cvodes_fsa"), adj = solve(pr, "cvodes_asa");
  ASSERT_EQ(adj.gradient.size(), 3u);
  for (std::size_t j = 0; j < 3; ++j) {
    double g = 0.0;
    for (std::size_t i = 0; i < 4; ++i) g += fwd.s_at(0, i, j);
    EXPECT_NEAR(adj.gradient[j], g, 1e-6 * (1 + std::fabs(g)));
  }
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

const char* const kAffine =
    "param k = 2\nparam u = 1\nstate x = 0\nstate y = 1\n"
    "dx/dt = -2*x + y + u^2 + k\ndy/dt = x - 3*y\n";

// f affine in x, with coefficients and parameter terms free of t and x:
// constant J_x and J_p, decided symbolically. A parameter multiplying a
// state (J_p then holds the state), a nonlinear term or a time-dependent
// coefficient makes them vary.
TEST(ExprModel, ConstantJacobiansAreRecognisedSymbolically) {
  EXPECT_TRUE(load_ode_text(kAffine, "affine.ode")->has_constant_jacobians());
  EXPECT_FALSE(load_ode_text("param k = 2\nstate x = 1\ndx/dt = -k*x\n", "scaled.ode")
                   ->has_constant_jacobians());
  EXPECT_FALSE(load_ode_text("param k = 2\nstate x = 1\ndx/dt = -k*x^2\n", "quadratic.ode")
                   ->has_constant_jacobians());
  EXPECT_FALSE(load_ode_text("param k = 2\nstate x = 1\ndx/dt = -k*sin(t)*x\n", "varying.ode")
                   ->has_constant_jacobians());
  EXPECT_FALSE(load_ode_text("param k = 2\nstate x = 1\ndx/dt = -k*x + x*t\n", "forced.ode")
                   ->has_constant_jacobians());
}

// pbsr on an affine .ode model takes the constant-Jacobian path and agrees
// with forward sensitivities.
TEST(ExprModel, PbsrOnAnAffineModelMatchesForwardSensitivities) {
  Problem problem;
  problem.model = load_ode_text(kAffine, "affine.ode");
  problem.output_times = {0.5, 1.0, 2.0};
  problem.options.set("force_pbs", 1);
  const Result pbsr = solve(problem, "pbsr");
  Problem tight = problem;
  tight.options = Options{};
  tight.rtol = 1e-10;
  tight.atol = {1e-12};
  const Result fsa = solve(tight, "cvodes_fsa");
  for (std::size_t q = 0; q < fsa.s.size(); ++q) EXPECT_NEAR(pbsr.s[q], fsa.s[q], 1e-3);
  EXPECT_EQ(pbsr.stats.extra.at("exp_intervals"), 0.0);
}

}  // namespace
}  // namespace odesens
