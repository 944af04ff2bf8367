// cvodes_fsa against exact sensitivities and central differences.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "model/builtin/builtin_reference.hpp"
#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

using testing::builtin_problem;
using testing::central_difference_sensitivities;
using testing::linspace;
using testing::relative_max_difference;

TEST(CvodesForward, MatchesExactSensitivitiesOfLinearSystem) {
  auto problem = builtin_problem("linear:5", linspace(0, 10, 11));
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  const Result r = solve(problem, "cvodes_fsa");
  const auto p = problem.model->nominal_params();
  std::vector<double> x_exact(5 * 11), s_exact(25 * 11);
  for (std::size_t k = 0; k < 11; ++k)
    builtin::linear_exact_solution(5, p.data(), r.times[k], x_exact.data() + 5 * k,
                                   s_exact.data() + 25 * k);
  EXPECT_LT(relative_max_difference(r.x, x_exact), 1e-8);
  EXPECT_LT(relative_max_difference(r.s, s_exact), 1e-8);
  EXPECT_EQ(r.s_times, r.times);
}

class CvodesForwardHeat : public ::testing::TestWithParam<const char*> {};

TEST_P(CvodesForwardHeat, MatchesAnalyticSensitivityOfHeatEquation) {
  const std::size_t grid = 12;
  auto problem = builtin_problem("heat2d:12", {0.005, 0.01});
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  problem.options.set("linear_solver", GetParam());
  const Result r = solve(problem, "cvodes_fsa");
  std::vector<double> x(grid * grid), s(grid * grid);
  for (std::size_t k = 0; k < 2; ++k) {
    builtin::heat2d_exact_solution(grid, 1.0, r.times[k], x.data(), s.data());
    const std::vector<double> xs(r.x.begin() + k * grid * grid, r.x.begin() + (k + 1) * grid * grid);
    const std::vector<double> ss(r.s.begin() + k * grid * grid, r.s.begin() + (k + 1) * grid * grid);
    EXPECT_LT(relative_max_difference(xs, x), 1e-7);
    EXPECT_LT(relative_max_difference(ss, s), 1e-6);
  }
}

INSTANTIATE_TEST_SUITE_P(DenseAndSparse, CvodesForwardHeat, ::testing::Values("dense", "klu"));

// The acceptance criterion of the tool: at the default tolerances S is
// within 1e-5 of central differences, relative to max |S|.
TEST(CvodesForward, ChuaAgreesWithCentralDifferencesAtDefaultTolerances) {
  auto problem = builtin_problem("chua", linspace(0, 10, 101));
  const Result r = solve(problem, "cvodes_fsa");
  const auto fd = central_difference_sensitivities(problem);
  EXPECT_LT(relative_max_difference(r.s, fd), 1e-5);
}

TEST(CvodesForward, VanDerPolAgreesWithCentralDifferencesIncludingInitialSensitivity) {
  auto problem = builtin_problem("vanderpol", {0.0, 0.1, 0.25, 0.5});
  const Result r = solve(problem, "cvodes_fsa");
  EXPECT_NE(r.s_at(0, 1, 0), 0.0);  // dv(0)/dmu
  const auto fd = central_difference_sensitivities(problem);
  EXPECT_LT(relative_max_difference(r.s, fd), 1e-5);
}

TEST(CvodesForward, CorrectorMultistepAndJacobianVariantsAgree) {
  auto base = builtin_problem("chua", linspace(0, 10, 11));
  base.rtol = 1e-10;
  base.atol = {1e-12};
  const Result reference = solve(base, "cvodes_fsa");
  const std::vector<std::pair<const char*, const char*>> variants = {
      {"corrector", "staggered"}, {"lmm", "adams"}, {"jacobian", "difference_quotient"}};
  for (const auto& [key, value] : variants) {
    auto problem = base;
    problem.options.set(key, value);
    // CVODES' difference quotients limit the attainable accuracy.
    const bool dq = std::string(value) == "difference_quotient";
    if (dq) problem.rtol = 1e-8;
    const Result r = solve(problem, "cvodes_fsa");
    EXPECT_LT(relative_max_difference(r.s, reference.s), dq ? 1e-5 : 1e-6) << key << "=" << value;
  }
}

int chua_rhs(double, const double* x, const double* p, double* f, void*) {
  const double g = -8.0 / 7.0 * x[0] + 4.0 / 63.0 * x[0] * x[0] * x[0];
  f[0] = p[0] * (x[1] - x[0] - g);
  f[1] = x[0] - x[1] + x[2];
  f[2] = -p[1] * x[1];
  return 0;
}

TEST(CvodesForward, CallbackModelWithoutJacobiansMatchesBuiltin) {
  CallbackModelSpec spec;
  spec.nx = 3;
  spec.np = 2;
  spec.nominal_params = {7.0, 15.0};
  spec.x0 = {0.0, 0.0, -0.1};
  spec.f = chua_rhs;
  auto problem = builtin_problem("chua", linspace(0, 10, 11));
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  const Result reference = solve(problem, "cvodes_fsa");
  problem.model = make_callback_model(spec);
  problem.rtol = 1e-8;  // difference quotients limit the attainable accuracy
  const Result r = solve(problem, "cvodes_fsa");
  EXPECT_LT(relative_max_difference(r.s, reference.s), 1e-5);
  problem.options.set("jacobian", "model");  // central-difference J_x and J_p
  const Result r_fd = solve(problem, "cvodes_fsa");
  EXPECT_LT(relative_max_difference(r_fd.s, reference.s), 1e-5);
}

TEST(CvodesForward, InitialStateOverrideHasZeroInitialSensitivity) {
  auto problem = builtin_problem("vanderpol", {0.0, 0.1});
  problem.initial_state = {2.0, -0.66};
  const Result r = solve(problem, "cvodes_fsa");
  EXPECT_EQ(r.x_at(0, 1), -0.66);
  EXPECT_EQ(r.s_at(0, 1, 0), 0.0);
  EXPECT_NE(r.s_at(1, 1, 0), 0.0);
  EXPECT_GT(r.stats.steps, 0);
  EXPECT_GT(r.stats.rhs_evals, 0);
  EXPECT_GT(r.stats.jac_evals, 0);
  EXPECT_GT(r.stats.wall_seconds, 0.0);
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// network:10 (sparse, stiff: rate constants over four decades) with its
// analytic sparse J_x and J_p against central differences of the trajectory.
TEST(CvodesForward, NetworkSensitivitiesMatchCentralDifferences) {
  auto problem = testing::builtin_problem("network:10", testing::linspace(0, 100, 11));
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  const Result r = solve(problem, "cvodes_fsa");
  const auto fd = testing::central_difference_sensitivities(problem);
  EXPECT_LT(testing::relative_max_difference(r.s, fd), 1e-5);
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// sensitivities=0: the same state solve without S (no sensitivity
// right-hand sides, S neither integrated nor returned).
TEST(CvodesForward, StatesOnlyWhenSensitivitiesAreOff) {
  auto problem = testing::builtin_problem("chua", testing::linspace(0, 10, 11));
  const Result with_s = solve(problem, "cvodes_fsa");
  problem.options.set("sensitivities", 0);
  const Result states = solve(problem, "cvodes_fsa");
  EXPECT_TRUE(states.s.empty());
  EXPECT_TRUE(states.s_times.empty());
  EXPECT_EQ(states.np, with_s.np);
  EXPECT_EQ(states.stats.extra.count("sens_rhs_evals"), 0u);
  EXPECT_LT(testing::relative_max_difference(states.x, with_s.x), 1e-6);
  problem.options.set("sensitivities", 2);
  EXPECT_THROW(solve(problem, "cvodes_fsa"), Error);
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// The simultaneous corrector's Newton systems solved in one block (the
// default) give the same S as CVODES' own solver, one vector at a time,
// with the dense LU and with KLU, for BDF and Adams.
TEST(CvodesForward, BatchedNewtonSolvesMatchCvodesOwnSolver) {
  struct Case {
    const char* model;
    const char* linear_solver;
    const char* lmm;
  };
  for (const Case& c : {Case{"glv:6", "dense", "bdf"}, Case{"glv:6", "dense", "adams"},
                        Case{"network:40", "klu", "bdf"}, Case{"network:40", "dense", "bdf"},
                        Case{"heat2d:8", "klu", "bdf"}}) {
    auto problem = testing::builtin_problem(c.model, testing::linspace(0, 1, 6));
    problem.options.set("linear_solver", std::string(c.linear_solver));
    problem.options.set("lmm", std::string(c.lmm));
    const Result batched = solve(problem, "cvodes_fsa");
    problem.options.set("batched_solves", 0);
    const Result own = solve(problem, "cvodes_fsa");
    const std::string label = std::string(c.model) + " " + c.linear_solver + " " + c.lmm;
    EXPECT_GT(batched.stats.extra.at("batched_solves"), 0.0) << label;
    EXPECT_EQ(batched.stats.extra.at("unbatched_solves"), 0.0) << label;
    EXPECT_EQ(own.stats.extra.count("batched_solves"), 0u) << label;
    EXPECT_EQ(batched.stats.steps, own.stats.steps) << label;
    EXPECT_LT(testing::relative_max_difference(batched.s, own.s), 1e-12) << label;
    EXPECT_LT(testing::relative_max_difference(batched.x, own.x), 1e-12) << label;
  }
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// atol 0 for a state whose S starts at 0 (x0 = 1 does not depend on k):
// CVODES' weights of S are infinite there. Refused naming the state and
// the parameter, not with CVODES' "Initial ewtS has component(s) equal to
// zero"; with atol > 0 for that state the solve runs.
TEST(CvodesForward, ZeroAtolWhereSStartsAtZeroIsRefusedNamingStateAndParameter) {
  Problem problem;
  problem.model = load_ode_text("param k = 1\nstate x = 1\ndx/dt = -k*x\n", "decay.ode");
  problem.output_times = {1.0};
  problem.atol = {0.0};
  try {
    solve(problem, "cvodes_fsa");
    ADD_FAILURE() << "atol 0 with S(t0) = 0 was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("state 'x' has atol 0 and its sensitivity to 'k'"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(std::string(e.what()).find("ewtS"), std::string::npos) << e.what();
  }
  problem.atol = {1e-12};
  EXPECT_NEAR(solve(problem, "cvodes_fsa").s.back(), -std::exp(-1.0), 1e-6);
}

// J_x S in the sensitivity right-hand side, as tangents of f or as J_x's
// values times S (sens_products): the same iteration to rounding on models
// with sparse and dense J_x, an SBML model among them; and auto takes the
// products where f sums over many parameters (one state, 600 of them: the
// tangents' cost there is quadratic in np, docs/methods/cvodes_fsa.md).
TEST(CvodesForward, JacobianProductsMatchTangents) {
  for (const char* model : {"chua", "network:40", "heat2d:8", "glv:6"}) {
    auto problem = testing::builtin_problem(model, testing::linspace(0, 1, 6));
    problem.options.set("sens_products", "tangents");
    const Result tangents = solve(problem, "cvodes_fsa");
    problem.options.set("sens_products", "jacobian");
    const Result products = solve(problem, "cvodes_fsa");
    EXPECT_EQ(tangents.stats.extra.at("sens_products_by_jacobian"), 0.0) << model;
    EXPECT_EQ(products.stats.extra.at("sens_products_by_jacobian"), 1.0) << model;
    EXPECT_LT(testing::relative_max_difference(products.s, tangents.s), 1e-9) << model;
    EXPECT_LT(testing::relative_max_difference(products.x, tangents.x), 1e-9) << model;
  }
  std::string text;
  const int n = 600;
  for (int i = 0; i < n; ++i) text += "param p" + std::to_string(i) + " = 0.001\n";
  text += "state x = 1\ndx/dt = -(";
  for (int i = 0; i < n; ++i) text += (i ? " + p" : "p") + std::to_string(i) + " * (1 + 0.001 * x)";
  text += ") * x\n";
  Problem many;
  many.model = load_ode_text(text, "many.ode");
  many.output_times = {0.5, 1.0};
  many.rtol = 1e-10;
  const Result automatic = solve(many, "cvodes_fsa");
  EXPECT_EQ(automatic.stats.extra.at("sens_products_by_jacobian"), 1.0);
  many.options.set("sens_products", "tangents");
  const Result tangents = solve(many, "cvodes_fsa");
  EXPECT_LT(testing::relative_max_difference(automatic.s, tangents.s), 1e-9);
  // dx(1)/dp_j by central differences for one parameter.
  const std::size_t j = 123;
  const double h = 1e-4;
  Problem plus = many, minus = many;
  plus.params = minus.params = effective_params(many);
  plus.params[j] += h;
  minus.params[j] -= h;
  plus.options = minus.options = Options();
  plus.options.set("sensitivities", 0);
  minus.options.set("sensitivities", 0);
  const double fd = (solve(plus, "cvodes_fsa").x.back() - solve(minus, "cvodes_fsa").x.back()) / (2 * h);
  EXPECT_NEAR(automatic.s_at(1, 0, j), fd, 1e-6 * std::fabs(fd));
}

}  // namespace
}  // namespace odesens
