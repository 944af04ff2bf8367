// cvodes_asa against cvodes_fsa: gradients of weighted objectives and the
// rows of S at the final time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "model/builtin/builtin_reference.hpp"
#include "odesens/odesens.hpp"
#include "expr/expr_test_support.hpp"
#include "support/reference.hpp"
#include "support/sanitized.hpp"

namespace odesens {
namespace {

using testing::builtin_problem;
using testing::linspace;
using testing::relative_max_difference;

// S block at output k of a forward result.
std::vector<double> block(const Result& r, std::size_t k) {
  const std::size_t m = r.nx * r.np;
  return {r.s.begin() + k * m, r.s.begin() + (k + 1) * m};
}

class AdjointVersusForward : public ::testing::TestWithParam<const char*> {};

TEST_P(AdjointVersusForward, FinalSensitivityAndGradientMatch) {
  auto problem = builtin_problem(GetParam(), {});
  problem.output_times = linspace(problem.t0, problem.model->default_t_end(), 5);
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  const Result fsa = solve(problem, "cvodes_fsa");
  const Result asa = solve(problem, "cvodes_asa");
  ASSERT_EQ(asa.s_times.size(), 1u);
  EXPECT_EQ(asa.s_times[0], problem.output_times.back());
  const auto s_final = block(fsa, 4);
  EXPECT_LT(relative_max_difference(asa.s, s_final), 1e-6);
  // Default objective: G = sum_i x_i(T).
  std::vector<double> expected(fsa.np, 0.0);
  for (std::size_t j = 0; j < fsa.np; ++j)
    for (std::size_t i = 0; i < fsa.nx; ++i) expected[j] += s_final[i + j * fsa.nx];
  EXPECT_LT(relative_max_difference(asa.gradient, expected), 1e-6);
  EXPECT_LT(relative_max_difference(asa.x, fsa.x), 1e-7);
  EXPECT_GT(asa.stats.extra.at("backward_steps"), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Builtins, AdjointVersusForward,
                         ::testing::Values("chua", "glv:10", "vanderpol"));

TEST(CvodesAdjoint, WeightsAtEveryOutputTimeIncludingT0) {
  auto problem = builtin_problem("vanderpol", {0.0, 0.1, 0.2, 0.35, 0.5});
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  std::mt19937 gen(11);
  std::normal_distribution<double> g;
  problem.adjoint_weights.resize(2 * 5);
  for (auto& w : problem.adjoint_weights) w = g(gen);
  const Result fsa = solve(problem, "cvodes_fsa");
  problem.options.set("final_sensitivity", 0);
  const Result asa = solve(problem, "cvodes_asa");
  EXPECT_TRUE(asa.s.empty());
  double expected = 0.0;
  for (std::size_t k = 0; k < 5; ++k)
    for (std::size_t i = 0; i < 2; ++i) expected += problem.adjoint_weights[i + 2 * k] * fsa.s_at(k, i, 0);
  ASSERT_EQ(asa.gradient.size(), 1u);
  EXPECT_NEAR(asa.gradient[0], expected, 1e-6 * std::fabs(expected));
}

TEST(CvodesAdjoint, InterpolationAndCheckpointingDoNotChangeTheAnswer) {
  auto problem = builtin_problem("glv:6", {5.0, 10.0});
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  const Result reference = solve(problem, "cvodes_asa");
  problem.options.set("interpolation", "polynomial");
  problem.options.set("checkpoint_steps", 13);
  problem.options.set("lmm", "adams");
  const Result r = solve(problem, "cvodes_asa");
  EXPECT_LT(relative_max_difference(r.gradient, reference.gradient), 1e-6);
  EXPECT_LT(relative_max_difference(r.s, reference.s), 1e-6);
}

// A span so short that CVODES' backward steps underflow (chua over
// [0, 1e-200]) ends in solver_failed with a sentence that names the way
// out, not CVODES' "CV_BAD_TB0"; cvodes_fsa solves the same span.
TEST(CvodesAdjoint, ASpanTooShortForBackwardStepsSaysWhatToUse) {
  auto problem = builtin_problem("chua", {1e-200});
  try {
    solve(problem, "cvodes_asa");
    ADD_FAILURE() << "cvodes_asa solved [0, 1e-200]";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::solver_failed);
    EXPECT_EQ(std::string(e.what()).find("CV_BAD_TB0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cvodes_fsa"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(solve(problem, "cvodes_fsa"));
}

TEST(CvodesAdjoint, FewCheckpointStepsAreRefusedForPolynomialInterpolation) {
  auto problem = builtin_problem("glv:6", {10.0});
  problem.options.set("interpolation", "polynomial");
  problem.options.set("checkpoint_steps", 3);
  try {
    solve(problem, "cvodes_asa");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::option_type);
    EXPECT_NE(std::string(e.what()).find("at least 13"), std::string::npos) << e.what();
  }
  problem.options.set("interpolation", "hermite");
  EXPECT_NO_THROW(solve(problem, "cvodes_asa"));
}

// CVODES allocates checkpoint_steps + 1 interpolation points at the first
// step whatever the solve needs (1.2 GB for a million on one state), and
// crashed when that allocation failed; beyond half the memory at hand the
// option is refused first, naming itself, at once.
TEST(CvodesAdjoint, CheckpointStepsBeyondTheMemoryAreRefusedBeforeTheyAreAllocated) {
  auto problem = builtin_problem("glv:6", {10.0});
  problem.options.set("checkpoint_steps", std::int64_t{1'000'000'000});
  try {
    solve(problem, "cvodes_asa");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::out_of_memory);
    EXPECT_NE(std::string(e.what()).find("lower checkpoint_steps"), std::string::npos) << e.what();
  }
  problem.options.set("checkpoint_steps", std::int64_t{1000});
  const Result r = solve(problem, "cvodes_asa");
  // The interpolation data are counted with the vectors' own overhead.
  EXPECT_GT(r.stats.extra.at("workspace_bytes"), 2.0 * 1001 * (8.0 * 6 + 500.0));
}

TEST(CvodesAdjoint, SparseHeatEquationMatchesAnalyticSensitivity) {
  const std::size_t grid = 10;
  auto problem = builtin_problem("heat2d:10", {0.01});
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  problem.options.set("linear_solver", "klu");
  const Result r = solve(problem, "cvodes_asa");
  std::vector<double> x(grid * grid), s(grid * grid);
  builtin::heat2d_exact_solution(grid, 1.0, 0.01, x.data(), s.data());
  EXPECT_LT(relative_max_difference(r.s, s), 1e-6);
}

// The acceptance criterion of the tool: at the default tolerances the
// adjoint S(T) of glv:40 is within 1e-6 of the forward one.
TEST(CvodesAdjoint, Glv40ReproducesForwardFinalSensitivityAtDefaultTolerances) {
  auto problem = builtin_problem("glv:40", {10.0});
  const Result fsa = solve(problem, "cvodes_fsa");
  const Result asa = solve(problem, "cvodes_asa");
  EXPECT_LT(relative_max_difference(asa.s, fsa.s), 1e-6);
}

// Lang's cell-cycle model (124 states up to 1e12, 317 parameters): with the
// backward tolerances derived from the problem the adjoint gradient of
// G = sum_i x_i(100) agrees with forward sensitivities. With the forward
// min(atol) for lambda and the quadratures (the old rule), the first
// backward step failed with CV_TOO_MUCH_WORK.
TEST(CvodesAdjoint, LangGradientMatchesForwardSensitivities) {
  ODESENS_SKIP_WHEN_SANITIZED("the other CvodesAdjoint tests run the same driver");
  const std::string path = expr_testing::shared_dir() + "/models/sbml/Lang_PLOSComputBiol2024.xml";
  if (!expr_testing::readable(path)) GTEST_SKIP() << path << " not found (set ODESENS_SHARED_DIR)";
  Problem problem;
  problem.model = load_model(path);
  problem.output_times = linspace(0, 100, 11);
  problem.rtol = 1e-6;
  problem.atol = {1e-8};
  const Result forward = solve(problem, "cvodes_fsa");
  problem.options.set("final_sensitivity", 0);
  const Result adjoint = solve(problem, "cvodes_asa");
  const std::size_t nx = forward.nx, np = forward.np, last = forward.times.size() - 1;
  std::vector<double> expected(np, 0.0);
  for (std::size_t j = 0; j < np; ++j)
    for (std::size_t i = 0; i < nx; ++i) expected[j] += forward.s_at(last, i, j);
  EXPECT_LT(relative_max_difference(adjoint.gradient, expected), 1e-4);
}

TEST(CvodesAdjoint, BackwardToleranceOptionsAreCheckedAndNamedOnFailure) {
  auto problem = builtin_problem("chua", {0.0, 10.0});
  problem.options.set("final_sensitivity", 0);
  for (const char* name : {"rtol_adjoint", "rtol_quadrature"}) {
    auto bad = problem;
    bad.options.set(name, 2.0);
    EXPECT_THROW(solve(bad, "cvodes_asa"), Error) << name;
  }
  for (const char* name : {"atol_adjoint", "atol_quadrature"}) {
    auto bad = problem;
    bad.options.set(name, -1.0);
    EXPECT_THROW(solve(bad, "cvodes_asa"), Error) << name;
  }
  // Explicit tolerances are used: a looser quadrature moves the gradient.
  const Result derived = solve(problem, "cvodes_asa");
  auto loose = problem;
  loose.options.set("atol_quadrature", 1e-2);
  loose.options.set("rtol_quadrature", 1e-2);
  const Result explicit_loose = solve(loose, "cvodes_asa");
  EXPECT_NE(derived.gradient, explicit_loose.gradient);
  EXPECT_LT(relative_max_difference(explicit_loose.gradient, derived.gradient), 1e-1);
  // A backward solve that fails says which tolerances it ran with.
  auto impossible = problem;
  impossible.options.set("rtol_adjoint", 1e-30);
  impossible.options.set("atol_adjoint", 1e-300);
  try {
    solve(impossible, "cvodes_asa");
    ADD_FAILURE() << "an impossible backward tolerance was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rtol_adjoint = 1e-30"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("atol_quadrature"), std::string::npos) << e.what();
  }
}

// A chain x_0 -> x_1 -> ... -> x_{n-1} whose far states underflow to
// exactly 0 by t_end: dx_i/dt = k x_{i-1} - (1 + 0.01 i) k x_i, x_0(0) = b.
std::string chain_model(int n, double t_end) {
  std::string text = "param k = 1\nparam b = 1\nstate x0 = b\n";
  for (int i = 1; i < n; ++i) text += "state x" + std::to_string(i) + " = 0\n";
  text += "dx0/dt = -k*x0\n";
  for (int i = 1; i < n; ++i)
    text += "dx" + std::to_string(i) + "/dt = k*x" + std::to_string(i - 1) + " - (1 + 0.01*" +
            std::to_string(i) + ")*k*x" + std::to_string(i) + "\n";
  return text + "time t_end = " + std::to_string(t_end) + "\n";
}

// The rows of S(T) of the far states are 0, so the quadrature tolerances
// derived from them (rtol times |J_p| along the trajectory) were 0 and
// CVODES refused them ("Initial ewtQ has component(s) equal to zero").
TEST(CvodesAdjoint, RowsOfSThatUnderflowToZeroStillGetPositiveTolerances) {
  Problem problem;
  problem.model = load_ode_text(chain_model(160, 0.1), "underflowing_chain");
  problem.output_times = {0.0, 0.1};
  problem.rtol = 1e-8;
  problem.atol = {1e-10};
  const Result fsa = solve(problem, "cvodes_fsa");
  ASSERT_EQ(fsa.x.back(), 0.0) << "the chain's last state must underflow for this test";
  const Result asa = solve(problem, "cvodes_asa");
  EXPECT_LT(relative_max_difference(asa.s, block(fsa, 1)), 1e-5);
  EXPECT_LT(relative_max_difference(asa.gradient, fsa.gradient), 1e-5);
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// x0' = -k x0 + F(t), x1' = k x0 - x1. F = 0 while CVODES' forward pass
// runs; from the first call that comes from far behind the furthest time
// seen (CVodeB recomputing the forward solution from a checkpoint, at t_d)
// F = 10 (t - t_d)^4 sin(50 (t - t_d)) after t_d: smooth there, and fast
// enough that the recomputation needs more steps than the forward pass took
// between two checkpoints, as where they diverge on real models
// (Chen_MSB2009 at a point a fit visited), where CVODES wrote past its
// interpolation data (a segmentation fault). `switch_at`: t_d from the start.
class TwoFacedModel final : public Model {
 public:
  explicit TwoFacedModel(double switch_at = kNever) : switch_at_(switch_at) {}
  static constexpr double kNever = std::numeric_limits<double>::infinity();
  double switch_time() const { return switch_at_; }
  std::size_t nx() const override { return 2; }
  std::size_t np() const override { return 1; }
  const std::vector<std::string>& state_names() const override { return states_; }
  const std::vector<std::string>& param_names() const override { return params_; }
  std::vector<double> nominal_params() const override { return {2.0}; }
  std::string name() const override { return "two_faced"; }
  double default_t_end() const override { return 10.0; }
  bool initial_state_depends_on_params() const override { return false; }
  void initial_state(const double*, double* x0, Workspace*) const override {
    x0[0] = 1.0;
    x0[1] = 0.0;
  }
  void rhs(double t, const double* x, const double* p, double* xdot,
           Workspace*) const override {
    furthest_ = std::max(furthest_, t);
    if (switch_at_ == kNever && t < furthest_ - 0.5) switch_at_ = t;
    const double s = t - switch_at_;
    xdot[0] = -p[0] * x[0] + (s > 0.0 ? 10.0 * s * s * s * s * std::sin(50.0 * s) : 0.0);
    xdot[1] = p[0] * x[0] - x[1];
  }
  bool has_analytic_jacobians() const override { return true; }
  void jac_x(double, const double*, const double* p, double* J, Workspace*) const override {
    J[0] = -p[0];  // column-major
    J[1] = p[0];
    J[2] = 0.0;
    J[3] = -1.0;
  }
  void jac_p(double, const double* x, const double*, double* Jp, Workspace*) const override {
    Jp[0] = -x[0];
    Jp[1] = x[0];
  }

 private:
  std::vector<std::string> states_{"a", "b"}, params_{"k"};
  mutable double furthest_ = 0.0;
  mutable double switch_at_;
};

TEST(CvodesAdjoint, RecomputationThatOutrunsTheForwardPassHoldsWholeSegments) {
  Problem problem;
  auto model = std::make_shared<TwoFacedModel>();
  problem.model = model;
  problem.output_times = testing::linspace(0.0, 10.0, 3);
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  problem.options.set("checkpoint_steps", 5);
  const Result asa = solve(problem, "cvodes_asa");
  ASSERT_EQ(asa.stats.extra.count("whole_segments"), 1u) << "no recomputation outran";
  // The backward pass ran on the recomputed solution alone, F switched on
  // at t_d throughout: the gradient of sum_i x_i(T) is that model's.
  ASSERT_LT(model->switch_time(), 10.0);
  problem.model = std::make_shared<TwoFacedModel>(model->switch_time());
  problem.options = Options();
  const Result fsa = solve(problem, "cvodes_fsa");
  const std::size_t last = fsa.times.size() - 1;
  const double expected = fsa.s_at(last, 0, 0) + fsa.s_at(last, 1, 0);
  EXPECT_NEAR(asa.gradient[0], expected, 1e-5 * std::fabs(expected));
}

}  // namespace
}  // namespace odesens
