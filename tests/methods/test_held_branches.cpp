// erk_adjoint takes f on the branches the solution holds between located
// switches (ModelRhs::hold_branches), and its products on the same
// (EventSystem::vjp_on_branches). A stage within rounding of a switch
// evaluated as it is fell on the other branch: across a kink the gradient
// was 0.4 % off at the default tolerances (4 % with an output on the kink),
// across a jump the states 7e-5 off, with no warning.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

// dx/dt = -k a while x > a, then -k x (the branches meet: a kink at x = a,
// t* = (1 - a) / (k a)): x(T) = a exp(-k T + (1 - a) / a), so dx(T)/dk =
// -T x(T) and dx(T)/da = x(T) (1/a - 1/a^2).
const char* kKink = R"(
param k = 1
param a = 0.5
state x = 1
dx/dt = piecewise(-k*x, x <= a, -k*a)
)";

// dx/dt = -k while x > a, then -0.2 k x (f jumps at x = a, t* = (1 - a)/k):
// x(T) = a exp(-0.2 k T + 0.2 (1 - a)), dx/dk = -0.2 T x, dx/da = x (1/a - 0.2).
const char* kJump = R"(
param k = 1
param a = 0.5
state x = 1
dx/dt = piecewise(-k, x > a, -0.2*k*x)
)";

struct Expected {
  double x, dk, da;
};

Expected kink_at(double T) {
  const double k = 1, a = 0.5, x = a * std::exp(-k * T + (1 - a) / a);
  return {x, -T * x, x * (1 / a - 1 / (a * a))};
}

Expected jump_at(double T) {
  const double k = 1, a = 0.5, x = a * std::exp(-0.2 * k * T + 0.2 * (1 - a));
  return {x, -0.2 * T * x, x * (1 / a - 0.2)};
}

void expect_gradient(const Problem& problem, const Expected& e, const std::string& label) {
  const Result r = solve(problem, "erk_adjoint");
  ASSERT_EQ(r.gradient.size(), 2u) << label;
  EXPECT_NEAR(r.x.back(), e.x, 1e-6 * e.x) << label;
  EXPECT_NEAR(r.gradient[0], e.dk, 1e-5 * std::fabs(e.dk)) << label;
  EXPECT_NEAR(r.gradient[1], e.da, 1e-5 * std::fabs(e.da)) << label;
}

// At the default tolerances, with and without an output on the switch
// (t* = 1 for both), in the checkpointing modes that run switches and with
// the reverse sweep split over threads.
TEST(HeldBranches, ErkAdjointIsRightAcrossAKinkAndAJump) {
  for (const auto& times : {std::vector<double>{0, 2}, testing::linspace(0, 2, 101),
                            std::vector<double>{0, 0.5, 1, 1.5, 2}}) {
    for (const char* mode : {"states", "stages"}) {
      for (const bool kink : {true, false}) {
        Problem problem = testing::ode_text_problem(kink ? kKink : kJump, times, 1e-6, 1e-8);
        problem.options.set("checkpointing", std::string(mode));
        problem.options.set("final_sensitivity", false);
        problem.options.set("threads", std::int64_t{2});
        const std::string label = std::string(kink ? "kink" : "jump") + ", " + mode + ", " +
                                  std::to_string(times.size()) + " outputs";
        expect_gradient(problem, kink ? kink_at(2) : jump_at(2), label);
      }
    }
  }
}

// A stage may cross a switch the solution only grazes, in a step with no
// instant: every step holds the branches. x = 0.01 + s^2 (1 + 0.05 s), s =
// t - 2, stays above 0, so y(4) = 4 k1, dy/dk1 = 4, dy/dk2 = 0; with f taken
// as it is in such steps erk_adjoint gave 4.138, 2.619 and 1.381.
TEST(HeldBranches, ErkAdjointIsRightWhereAStageCrossesASwitchTheSolutionGrazes) {
  const char* text = R"(
param k1 = 1
param k2 = 1.1
param e = 0.01
state x = e + 2^2 - 0.05*2^3
state v = -2*2 + 3*0.05*2^2
state y = 0
dx/dt = v
dv/dt = 2 + 6*0.05*(t - 2)
dy/dt = piecewise(k1, x > 0, k2)
)";
  Problem problem = testing::ode_text_problem(text, {0, 4}, 1e-3, 1e-3);
  problem.adjoint_weights.assign(3 * 2, 0.0);
  problem.adjoint_weights[2 + 3 * 1] = 1.0;  // G = y(4)
  problem.options.set("final_sensitivity", false);
  const Result r = solve(problem, "erk_adjoint");
  EXPECT_NEAR(r.x_at(1, 2), 4.0, 1e-6);
  ASSERT_EQ(r.gradient.size(), 3u);
  EXPECT_NEAR(r.gradient[0], 4.0, 1e-6);
  EXPECT_NEAR(r.gradient[1], 0.0, 1e-6);
}

// min, max and abs are not located: erk_adjoint says so, and is right on
// the same kink written as a piecewise.
TEST(HeldBranches, ErkAdjointWarnsOfAKinkItDoesNotLocate) {
  const char* min_kink = R"(
param k = 1
param a = 0.5
state x = 1
dx/dt = -k*min(x, a)
)";
  Problem problem = testing::ode_text_problem(min_kink, {0, 1, 2}, 1e-6, 1e-8);
  problem.options.set("final_sensitivity", false);
  EXPECT_TRUE(testing::warns(solve(problem, "erk_adjoint"), "'min' kink `min(x, a)`"));
  problem.model = load_ode_text(kKink, "kink.ode");
  const Result r = solve(problem, "erk_adjoint");
  EXPECT_TRUE(r.warnings.empty());
  expect_gradient(problem, kink_at(2), "piecewise");
}

// pbsr and exp follow CVODES' steps, which cross a switch before it is
// located: S inside such a step and at the crossing comes from partial
// updates with J on the branch held before it (0.3 % off before).
TEST(HeldBranches, PbsrAndExpAreRightAcrossAKink) {
  for (const char* method : {"pbsr", "exp"}) {
    Problem problem = testing::ode_text_problem(kKink, {0, 0.999, 1.001, 2}, 1e-5, 1e-8);
    const Result r = solve(problem, method);
    const Expected e = kink_at(2);
    EXPECT_NEAR(r.s_at(1, 0, 0), -0.999 * 0.5, 1e-5) << method;  // S_k = -a t before t* = 1
    EXPECT_NEAR(r.s_at(3, 0, 0), e.dk, 2e-4 * std::fabs(e.dk)) << method;
    EXPECT_NEAR(r.s_at(3, 0, 1), e.da, 3e-4 * std::fabs(e.da)) << method;
  }
}

// With an output on the kink, the instant is put on it while the state
// there may still lie on the old side by rounding: the solvers restart
// from it moved onto the new side (EventedSolution::enter_sides; odesd
// took its first f and J there on the old branch: S 4e-4 off at any
// tolerance).
TEST(HeldBranches, ForwardMethodsAreRightWithAnOutputOnTheKink) {
  const Expected e = kink_at(2);
  for (const char* method : {"cvodes_fsa", "odesd", "dopri8s", "grk4as", "pbsr", "exp"}) {
    Problem problem = testing::ode_text_problem(kKink, {0, 1, 1.001, 2}, 1e-6, 1e-8);
    problem.rtol.reset();  // each method's defaults, as a user runs it
    problem.atol.clear();
    const Result r = solve(problem, method);
    const bool loose = std::string(method) == "pbsr" || std::string(method) == "exp";
    const double tolerance = loose ? 3e-4 : 2e-5;
    // S_a = -t up to t* = 1, then -t e^-(t - 1): at t = 1, that of a t*
    // placed to the state's tolerance.
    EXPECT_NEAR(r.s_at(1, 0, 1), -1.0, 3e-5) << method;
    EXPECT_NEAR(r.s_at(3, 0, 0), e.dk, tolerance * std::fabs(e.dk)) << method;
    EXPECT_NEAR(r.s_at(3, 0, 1), e.da, tolerance * std::fabs(e.da)) << method;
  }
}

// The products on given branches are those of f on them, also at a point
// on the other side of the switch (x = 0.4 < a with the branch of x > a).
TEST(HeldBranches, ProductsOnGivenBranchesAreThoseOfThatBranch) {
  const auto model = load_ode_text(kJump, "jump.ode");
  const EventSystem* events = model->event_system();
  ASSERT_NE(events, nullptr);
  ASSERT_EQ(events->branch_roots().size(), 1u);
  const double p[2] = {1.3, 0.5}, t = 0.7, W[2] = {2.0, -0.5};
  for (const double x : {0.4, 0.9}) {
    for (const double truth : {0.0, 1.0}) {
      double out_x[2], out_p[4] = {1, 1, 1, 1};
      events->vjp_on_branches(t, &x, p, &truth, 2, W, out_x, out_p);
      // f = -k (truth 1) or -0.2 k x (truth 0): J_x, J_k, J_a.
      const double jx = truth == 1.0 ? 0.0 : -0.2 * p[0];
      const double jk = truth == 1.0 ? -1.0 : -0.2 * x;
      for (int c = 0; c < 2; ++c) {
        EXPECT_DOUBLE_EQ(out_x[c], jx * W[c]) << x << " " << truth;
        EXPECT_DOUBLE_EQ(out_p[2 * c], 1.0 + jk * W[c]) << x << " " << truth;
        EXPECT_DOUBLE_EQ(out_p[2 * c + 1], 1.0) << x << " " << truth;
      }
    }
  }
}

}  // namespace
}  // namespace odesens
