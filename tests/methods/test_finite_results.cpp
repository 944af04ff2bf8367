// No method returns NaN or Inf as a number: a non-finite entry of x, S, a
// gradient or an objective ends the solve with Status::not_finite and a
// message naming the array and the entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>
#include <sys/stat.h>

#include "odesens/expr_model.hpp"
#include "odesens/model_loader.hpp"
#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

// y' = x^p with x = 0 held: d(x^p)/dx is infinite at x = 0, so S, the
// Jacobian and every adjoint meet 0 * Inf.
const char* kInfiniteDerivative = R"(
param p = 0.5
state x = 0
state y = 1
dx/dt = 0
dy/dt = x^p
time t_end = 1
)";

bool all_finite(const std::vector<double>& v) {
  for (double d : v)
    if (!std::isfinite(d)) return false;
  return true;
}

TEST(FiniteResults, EveryMethodEitherFailsOrReturnsFiniteNumbers) {
  Problem problem;
  problem.model = load_ode_text(kInfiniteDerivative, "infinite_derivative");
  problem.output_times = {0.0, 0.5, 1.0};
  for (const MethodInfo& info : method_infos()) {
    if (info.capabilities.bounds) continue;  // needs a parameter box
    SCOPED_TRACE(info.id);
    try {
      const Result r = solve(problem, info.id);
      EXPECT_TRUE(all_finite(r.x) && all_finite(r.s) && all_finite(r.gradient) &&
                  all_finite(r.gradient_x0) && all_finite(r.objective_values));
    } catch (const Error& e) {
      EXPECT_NE(e.status(), Status::ok);
      EXPECT_NE(e.status(), Status::internal_error) << e.what();
    }
  }
}

TEST(FiniteResults, TheDiscreteAdjointsNaNIsNamedByArrayStateAndParameter) {
  Problem problem;
  problem.model = load_ode_text(kInfiniteDerivative, "infinite_derivative");
  problem.output_times = {0.0, 1.0};
  try {
    solve(problem, "erk_adjoint");
    FAIL() << "erk_adjoint returned a result";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite);
    const std::string m = e.what();
    EXPECT_NE(m.find("erk_adjoint"), std::string::npos) << m;
    EXPECT_NE(m.find("adjoint of the discrete solution became NaN or Inf"), std::string::npos) << m;
  }
}

// cvodes_fsa on the .ode text over [0, t_end] ends with not_finite, and its
// message holds each of `parts`.
void expect_cvodes_names(const char* text, double t_end, const std::vector<std::string>& parts) {
  Problem problem;
  problem.model = load_ode_text(text, "not_finite_sensitivity");
  problem.output_times = {0.0, t_end};
  try {
    solve(problem, "cvodes_fsa");
    ADD_FAILURE() << "cvodes_fsa returned a result";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite);
    const std::string m = e.what();
    for (const std::string& part : parts) EXPECT_NE(m.find(part), std::string::npos) << m;
  }
}

// x^h of a negative x at an integer h (a species a little below 0 by
// rounding under a Hill term, SBML Test Suite case 01395): the derivative
// in h is that of the continuation sign(x)^h |x|^h, which at h = 4 is
// |x|^h. Every method that differentiates f gives the S of central
// differences of the model written with |x|, where cvodes_fsa used to end
// on ln(x) of x < 0. Internal differences perturb h to a non-integer, where
// x^h is NaN: they refuse, saying so, not "a stiff model overshoots".
TEST(FiniteResults, AnIntegerPowerOfANegativeStateHasItsContinuationsSensitivity) {
  const std::vector<double> times = {0.0, 0.5, 1.0};
  const Problem written_with_abs = testing::ode_text_problem(
      "param h = 4\nparam k = 1\nstate x = -0.5*k\ndx/dt = -(abs(x)^h)\n", times, 1e-8, 1e-10);
  const std::vector<double> reference =
      testing::central_difference_sensitivities(written_with_abs);
  const Problem problem = testing::ode_text_problem(
      "param h = 4\nparam k = 1\nstate x = -0.5*k\ndx/dt = -(x^h)\n", times, 1e-8, 1e-10);
  for (const MethodInfo& info : method_infos()) {
    if (info.capabilities.bounds) continue;  // needs a parameter box
    SCOPED_TRACE(info.id);
    if (info.id == "dopri8s" || info.id == "grk4as") {
      try {
        solve(problem, info.id);
        ADD_FAILURE() << "differences across x^h at a non-integer h returned a result";
      } catch (const Error& e) {
        EXPECT_EQ(e.status(), Status::not_finite);
        EXPECT_NE(std::string(e.what()).find("on the trajectory perturbed along dx/dh"),
                  std::string::npos) << e.what();
      }
      continue;
    }
    const double tolerance = info.id == "pbsr" || info.id == "exp" ? 1e-3 : 1e-5;
    const Result r = solve(problem, info.id);
    ASSERT_EQ(r.s_times.back(), 1.0);
    const std::vector<double> s(r.s.end() - 2, r.s.end()), expected(reference.end() - 2,
                                                                      reference.end());
    EXPECT_TRUE(all_finite(s));
    EXPECT_LT(testing::relative_max_difference(s, expected), tolerance);
  }
}

// A stiff overshoot: every trajectory of dopri8s' bundle leaves sqrt's
// domain at once, the nominal too, and the message is the engine's, not the
// one of f undefined next to the solution.
TEST(FiniteResults, AStiffOvershootIsNotBlamedOnThePerturbedTrajectories) {
  Problem problem;
  problem.model = load_ode_text(
      "param k = 500\nparam c = 0.01\nstate x = 1\ndx/dt = -k*x + c*sqrt(x)\n", "overshoot");
  problem.output_times = {0.0, 0.5, 1.0};
  try {
    solve(problem, "dopri8s");
    ADD_FAILURE() << "dopri8s stepped through the overshoot";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find("perturbed along"), std::string::npos) << e.what();
  }
}

// sqrt(x) at x = 0: f is 0, its derivative in x is infinite, and so is
// J_x S for the parameter that sets x(0). The message says the state's
// derivative, not the parameter's (a is not in f).
TEST(FiniteResults, CvodesNamesAStateDerivativeThatIsNotFinite) {
  expect_cvodes_names("param a = 0\nstate x = a\ndx/dt = 1 - sqrt(x)\n", 0.1,
                      {"first in the sensitivity of state 'x' to parameter 'a' at t = 0",
                       "a derivative of f in a state"});
}

// sqrt(p) at p = 0: dx/dp is +Inf for t > 0. dopri8s and grk4as gave the
// quotient of their perturbed trajectories, about 1/sqrt(eps) (4.2e6), with
// no word, and auto ran dopri8s; they now refuse, naming the entry.
TEST(FiniteResults, DifferencesAcrossAnInfiniteDerivativeAreRefused) {
  for (const char* text : {"param p = 0\nstate x = 0\ndx/dt = sqrt(p)\n",
                           "param k = 0.3\nparam p = 0\nstate x = 1\ndx/dt = -k*x + sqrt(p)\n"}) {
    Problem problem;
    problem.model = load_ode_text(text, "infinite_parameter_derivative");
    problem.output_times = {0.0, 1.0};
    for (const char* method : {"dopri8s", "grk4as", "auto"}) {
      SCOPED_TRACE(std::string(method) + " on " + text);
      try {
        const Result r = solve(problem, method);
        ADD_FAILURE() << "S(1) = " << r.s.back();
      } catch (const Error& e) {
        EXPECT_EQ(e.status(), Status::not_finite) << e.what();
        if (std::string(method) != "auto") {
          EXPECT_NE(std::string(e.what()).find("df/dp of state 'x' in parameter 'p' is inf"),
                    std::string::npos)
              << e.what();
        }
      }
    }
  }
}

// sqrt(x) of a state that starts at 0 and does not depend on k: df/dx is
// infinite at t0, but no direction moves x there, and S is finite
// (dy(1)/dk = -0.0564887 by central differences of a tight solve). The
// check leaves it to dopri8s, whose differences resolve it.
TEST(FiniteResults, AnInfiniteDerivativeNoDirectionMovesIsLeftAlone) {
  Problem problem;
  problem.model = load_ode_text(
      "param k = 1\nstate x = 0\nstate y = 0\ndx/dt = 1 - k*x\ndy/dt = sqrt(x) - y\n", "sq");
  problem.output_times = {0.0, 1.0};
  const Result r = solve(problem, "dopri8s");
  EXPECT_NEAR(r.s.back(), -0.0564887, 1e-5);  // S(1)[y][k], the last entry
}

// sqrt(p) at p = 0: J_x is 0, and J_x S by tangents meets 0 * Inf through
// p's derivative. The message blamed "a derivative of f in a state".
TEST(FiniteResults, CvodesBlamesTheParameterWhereJxIsFinite) {
  expect_cvodes_names("param p = 0\nstate x = 0\ndx/dt = sqrt(p)\n", 1.0,
                      {"first in the sensitivity of state 'x' to parameter 'p' at t = 0",
                       "a derivative of f in that parameter"});
}

// A real model whose solution stays constant for long stretches: the
// forward error estimate lets explicit steps grow far beyond the stability
// region, and the discrete adjoint of those steps overflows. erk_adjoint's
// stability limit keeps the steps inside the region, and as the model then
// needs thousands of them the stiffness test ends the solve naming the
// implicit methods; without the limit the overflow is an error, not NaN.
TEST(FiniteResults, LucarellisOverflowingAdjointIsAnErrorNotNaN) {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  const std::string file = std::string(env && *env ? env : ODESENS_DEFAULT_SHARED_DIR) +
                           "/models/sbml/Lucarelli_CellSystems2018.xml";
  struct stat st;
  if (::stat(file.c_str(), &st) != 0) GTEST_SKIP() << "shared models absent: " << file;
  Problem problem;
  problem.model = load_model(file);
  problem.output_times = {0.0, 50.0, 100.0};
  try {
    solve(problem, "erk_adjoint");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::stiff) << e.what();
    EXPECT_NE(std::string(e.what()).find("cvodes_asa"), std::string::npos) << e.what();
  }
  problem.options.set("stability_limit", std::int64_t{0});
  problem.options.set("stiffness_check", std::int64_t{0});
  try {
    const Result r = solve(problem, "erk_adjoint");
    EXPECT_TRUE(all_finite(r.s) && all_finite(r.gradient));
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite) << e.what();
  }
}

// A species that starts at 0 under Hill terms with a parameter exponent:
// d(x^h)/dh = x^h ln x and d(x^h)/dx = h x^(h-1) are 0 * Inf at x = 0 as
// written, 0 in the limit. Every method gives the S of central differences
// of the states (the gradient methods, the rows of S they compute).
const char* kHillFromZero = R"(
param h = 2
param K = 0.5
param v = 1
state x = 0
state y = 0
state z = 0
dx/dt = v - 0.5*x
dy/dt = x^h/(K^h + x^h) - 0.1*y
dz/dt = hill(x, 2*K, h + 1)
time t_end = 2
)";

TEST(FiniteResults, HillTermsOfASpeciesStartingAtZeroHaveTheSensitivitiesOfDifferences) {
  Problem problem = testing::ode_text_problem(kHillFromZero, {0.0, 0.5, 1.0, 2.0}, 1e-8, 1e-10);
  const std::vector<double> reference = testing::central_difference_sensitivities(problem);
  const std::size_t block = 3 * 3;
  for (const MethodInfo& info : method_infos()) {
    if (info.capabilities.bounds) continue;  // needs a parameter box
    SCOPED_TRACE(info.id);
    // pbsr and exp build S from the state solution's steps: about 1e-4 here.
    const double tolerance = info.id == "pbsr" || info.id == "exp" ? 1e-3 : 1e-5;
    const Result r = solve(problem, info.id);
    ASSERT_FALSE(r.s_times.empty());
    for (std::size_t k = 0; k < r.s_times.size(); ++k) {
      const std::size_t at = static_cast<std::size_t>(
          std::find(problem.output_times.begin(), problem.output_times.end(), r.s_times[k]) -
          problem.output_times.begin());
      ASSERT_LT(at, problem.output_times.size());
      const std::vector<double> s(r.s.begin() + static_cast<std::ptrdiff_t>(k * block),
                                  r.s.begin() + static_cast<std::ptrdiff_t>((k + 1) * block));
      const std::vector<double> expected(
          reference.begin() + static_cast<std::ptrdiff_t>(at * block),
          reference.begin() + static_cast<std::ptrdiff_t>((at + 1) * block));
      EXPECT_TRUE(all_finite(s)) << "t = " << r.s_times[k];
      EXPECT_LT(testing::relative_max_difference(s, expected), tolerance) << "t = " << r.s_times[k];
    }
  }
}

// The enclosures cannot take x^h over a range of h at x = 0 (its Taylor
// expansion in h holds ln x): a refusal that says so, not NaN bounds.
TEST(FiniteResults, BoundsOfHillTermsAtZeroAreRefusedClearly) {
  Problem problem = testing::ode_text_problem(kHillFromZero, {0.0, 1.0}, 1e-8, 1e-10);
  problem.param_lower = {1.9, 0.5, 1.0};
  problem.param_upper = {2.1, 0.5, 1.0};
  try {
    solve(problem, "bounds_fsa");
    FAIL() << "bounds_fsa enclosed x^h at x = 0";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unbounded) << e.what();
    EXPECT_NE(std::string(e.what()).find("reaches 0"), std::string::npos) << e.what();
  }
}

// x' = -k x^n over a box of Hill exponents that holds 1 (n in [1, 3], and
// [0.8, 2.5]): the derivatives of x^n must not compare n or n - 1 with 0,
// which the enclosures cannot decide over such a box (they refused it when
// d(a^b)/da tested b == 0 for the limit at a = b = 0). The enclosure holds
// the point solutions at the box's ends and middle.
TEST(FiniteResults, BoundsOfAPowerOverExponentsThroughOneEncloseThePoints) {
  for (const std::pair<double, double>& box : {std::pair{1.0, 3.0}, std::pair{0.8, 2.5}}) {
    Problem problem = testing::ode_text_problem(
        "param n = 2\nparam k = 1\nstate x = 2\ndx/dt = -k*x^n\n", {0.0, 1.0}, 1e-8, 1e-10);
    problem.param_lower = {box.first, 1.0};
    problem.param_upper = {box.second, 1.0};
    const Result bounds = solve(problem, "bounds_fsa");
    const std::vector<double>& hull = bounds.bounds.x_hull;  // [lower, upper] per model
    ASSERT_EQ(hull.size(), 4u);
    for (double n : {box.first, 0.5 * (box.first + box.second), box.second}) {
      Problem point = problem;
      point.param_lower.clear();
      point.param_upper.clear();
      point.params = {n, 1.0};
      const double x1 = solve(point, "cvodes_fsa").x.back();
      EXPECT_LE(hull[2], x1) << "n = " << n;
      EXPECT_GE(hull[3], x1) << "n = " << n;
    }
  }
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// A rate that is NaN from the first call (a constant of the model at NaN,
// as an SBML parameter of value "NaN"): CVODES says only that its first
// call failed; the message names the state whose rate it was, and when.
TEST(FiniteResults, CvodesNamesTheStateWhoseRateIsNotFiniteAtTheStart) {
  Problem problem;
  problem.model = load_ode_text(
      "param k = 1\nstate x = 1\nstate y = 1\ndx/dt = -k*x\ndy/dt = log(-k)*y\ntime t_end = 1\n",
      "nan_rate");
  problem.output_times = {0.0, 1.0};
  try {
    solve(problem, "cvodes_fsa");
    ADD_FAILURE() << "a NaN rate was integrated";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite) << e.what();
    EXPECT_NE(std::string(e.what()).find("first d'y'/dt = NaN at t = 0 (at the start"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace odesens
