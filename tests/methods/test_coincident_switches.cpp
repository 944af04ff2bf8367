// Switches crossed at one instant whose times move differently with p
// (src/integrate/events/coincident_switches.hpp): each takes the jump of
// S with its own time derivative, in every method; where that cannot be
// ordered, a warning.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "sbml/sbml_test_documents.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

using testing::central_difference_sensitivities;
using testing::relative_max_difference;

const char* const kForward[] = {"cvodes_fsa", "pbsr", "exp", "odesd", "dopri8s", "grk4as"};
const char* const kAdjoint[] = {"cvodes_asa", "erk_adjoint"};

double s_tolerance(const std::string& method) {
  return method == "dopri8s" || method == "grk4as" ? 1e-5 : 1e-6;
}

// x' = a [t > T1] + b [t > T2] - x/10 from x(0) = 0: after both,
// x = 10 a (1 - e^(-(t - T1)/10)) + 10 b (1 - e^(-(t - T2)/10)), so
// dx/dT1 = -a e^(-(t - T1)/10) and dx/dT2 = -b e^(-(t - T2)/10). With
// T1 = T2 = 10 both switches fall on one instant; the jump of S took
// the time derivative of the first for both: dx/dT1 was -(a + b) e^(...),
// dx/dT2 zero.
const char* kTwoSwitchTimes = R"(
param a = 1
param b = 2
param T1 = 10
param T2 = 10
state x = 0
dx/dt = piecewise(a, t > T1, 0) + piecewise(b, t > T2, 0) - 0.1*x
)";

// The same with the first switch at a fixed time, 10.
const char* kFixedAndMovingSwitch = R"(
param a = 1
param b = 2
param T2 = 10
state x = 0
dx/dt = piecewise(a, t > 10, 0) + piecewise(b, t > T2, 0) - 0.1*x
)";

// Exact S (np = 4: a, b, T1, T2; with_t1 false: a, b, T2) at times.
std::vector<double> exact_two_switches(const std::vector<double>& times, bool with_t1) {
  const double a = 1, b = 2, T = 10;
  std::vector<double> s;
  for (double t : times) {
    // At t = T itself: after the instant, as at every output on one.
    const double after = t >= T ? 1.0 : 0.0, decay = std::exp(-(t - T) / 10);
    const double da = after * 10 * (1 - decay);
    s.push_back(da);
    s.push_back(da);  // dx/db = 10 (1 - decay) too
    if (with_t1) s.push_back(-a * decay * after);
    s.push_back(-b * decay * after);
  }
  return s;
}

TEST(CoincidentSwitches, EachSwitchOfTimeJumpsWithItsOwnTimeDerivative) {
  for (bool with_t1 : {true, false}) {
    SCOPED_TRACE(with_t1 ? "t > T1 and t > T2" : "t > 10 and t > T2");
    const std::string text = with_t1 ? kTwoSwitchTimes : kFixedAndMovingSwitch;
    const std::vector<double> times = {5, 10, 12, 20};  // one output on the instant
    const auto problem = testing::ode_text_problem(text, times, 1e-10, 1e-12);
    const auto exact = exact_two_switches(times, with_t1);
    ASSERT_LT(exact.back(), -0.7);
    for (const char* method : kForward) {
      const Result r = solve(problem, method);
      EXPECT_LT(relative_max_difference(r.s, exact), s_tolerance(method)) << method;
      EXPECT_TRUE(r.warnings.empty()) << method << ": " << r.warnings.front();
    }
    const std::size_t np = with_t1 ? 4 : 3;
    const std::vector<double> final(exact.end() - static_cast<std::ptrdiff_t>(np), exact.end());
    for (const char* method : kAdjoint) {
      const Result r = solve(problem, method);
      EXPECT_LT(relative_max_difference(r.gradient, final), 1e-6) << method;
    }
  }
}

// A dose x += 3 y at t > T1 and a switch of f at t > T2, T1 = T2 = 10:
// the dose executes at T1's time, the switch jumps with T2's. dx/dT1 was 0
// and dx/dT2 -0.234 where they are 0.1339 and -0.3679 (central
// differences).
const char* kDoseAndSwitch = R"(
param a = 1
param T1 = 10
param T2 = 10
state x = 1
state y = 0
dx/dt = piecewise(a, t > T2, 0) - 0.1*x
dy/dt = 0.2*x - 0.05*y
event dose when t > T1: x = x + 3*y
)";

TEST(CoincidentSwitches, ADoseAndASwitchOfFAtOneInstantMoveApart) {
  const auto problem = testing::ode_text_problem(kDoseAndSwitch, {5, 15, 20}, 1e-11, 1e-13);
  const auto fd = central_difference_sensitivities(problem, 1e-6);
  ASSERT_GT(fd[fd.size() - 2 * 3 + 2], 0.1);  // dx(20)/dT1: S(0, 1) of nx = 2, np = 3
  for (const char* method : kForward) {
    Problem looser = problem;
    looser.rtol = 1e-9;
    looser.atol = {1e-11};
    EXPECT_LT(relative_max_difference(solve(looser, method).s, fd), 1e-5) << method;
  }
  const std::vector<double> fd_final(fd.end() - 2 * 3, fd.end());
  for (const char* method : kAdjoint)
    EXPECT_LT(relative_max_difference(solve(problem, method).s, fd_final), 1e-5) << method;
}

// s0' = floor(a t), s1' = ceil(b t), s2' = floor(a t) s1 - s2 with a = 1,
// b = 1/2: at t = 2 and 4 both switch, with dtau/da = -t/a and dtau/db =
// -t/b. ds1/db was 0 where it is 12 at t = 5.5 (the floor's dtau for both).
std::string floor_and_ceil_at_once() {
  using namespace sbml_testing;
  const std::string time =
      "<csymbol encoding=\"text\" definitionURL=\"http://www.sbml.org/sbml/symbols/time\"> t "
      "</csymbol>";
  const std::string floor_at = fn("floor", fn("times", ci("a") + time));
  const std::string ceil_bt = fn("ceiling", fn("times", ci("b") + time));
  return list("Parameters", parameter("a", "1", true) + parameter("b", "0.5", true) +
                                parameter("s0", "0", false) + parameter("s1", "0", false) +
                                parameter("s2", "0", false)) +
         list("Rules", rate_rule("s0", floor_at) + rate_rule("s1", ceil_bt) +
                           rate_rule("s2", fn("minus", fn("times", floor_at + ci("s1")) +
                                                           ci("s2"))));
}

TEST(CoincidentSwitches, FloorAndCeilOfTimeAtOneInstantMoveApart) {
  Problem problem;
  problem.model = load_sbml_text(sbml_testing::l3v2(floor_and_ceil_at_once()), "fc.xml");
  problem.output_times = {1.5, 3.5, 5.5};
  problem.rtol = 1e-10;
  problem.atol = {1e-12};
  const auto fd = central_difference_sensitivities(problem, 1e-6);
  ASSERT_NEAR(fd[fd.size() - 3 * 2 + 4], 12.0, 1e-4);  // ds1(5.5)/db
  for (const char* method : kForward)
    EXPECT_LT(relative_max_difference(solve(problem, method).s, fd), 1e-5) << method;
  const std::vector<double> fd_final(fd.end() - 3 * 2, fd.end());
  for (const char* method : kAdjoint)
    EXPECT_LT(relative_max_difference(solve(problem, method).s, fd_final), 1e-5) << method;
}

// x' = 1 from 0 meets the switch x > c at c = 10, at the instant of t > T
// (T = 10): y(20) = (20 - c) + 2 (20 - T), dy/dc = -1, dy/dT = -2. The
// state switch's time moves with S, which an order of the jumps would
// have to follow. Where a method takes both at one instant (one-step
// methods: x = 10 exactly at t = 10) a warning says the instant moved as
// one (odesd gave dy/dc = 0, dy/dT = -3 without a word); CVODES' root
// finder puts them at two instants, and S is right.
TEST(CoincidentSwitches, AStateSwitchAtTheInstantOfASwitchOfTimeIsNamed) {
  const char* text = R"(
param c = 10
param T = 10
state x = 0
state y = 0
dx/dt = 1
dy/dt = piecewise(1, x > c, 0) + piecewise(2, t > T, 0)
)";
  const auto problem = testing::ode_text_problem(text, {20}, 1e-10, 1e-12);
  const std::vector<double> exact = {0, -1, 0, -2};  // S(20): (x, y) by (c, T)
  bool named = false;
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "odesd", "pbsr", "dopri8s"}) {
    const Result r = solve(problem, method);
    const bool warned = testing::warns(r, "are crossed at once");
    named = named || warned;
    if (!warned) {
      EXPECT_LT(relative_max_difference(r.s, exact), 1e-6) << method;
    }
  }
  EXPECT_TRUE(named);  // odesd, pbsr and dopri8s take one instant
}

// Instants the order of whose switches cannot be taken: every method says
// so rather than give one of the one-sided derivatives without a word.
// - an event whose trigger reads two switches that part (t > T1 && t > T2
//   at T1 = T2 executes at the later of the two; t > T1 && t < T2 never
//   fires at p but fires along +T2, a jump of x in T2);
// - two events at times that part (each executes at its own);
// - a dose on a clock state c = t at c > 10 as t > 10 switches f (the two
//   come one ulp apart, their order rounding's: dy/dk 2129 where the
//   forward difference gives 0.004 and the backward 1092);
// - t > a b with a b = 0.06999999999999999, 2 ulps before t > 0.07.
TEST(CoincidentSwitches, InstantsThatCannotBeOrderedAreNamedByEveryMethod) {
  const char* const models[] = {
      "param T1 = 10\nparam T2 = 10\nstate x = 1\ndx/dt = -0.1*x\n"
      "event dose when t > T1 && t > T2: x = x + 1\n",
      "param T1 = 5\nparam T2 = 5\nstate x = 1\ndx/dt = -0.1*x + piecewise(1, t > 8, 0)\n"
      "event w when t > T1 && t < T2: x = x + 1\n",
      "param T1 = 5\nparam T2 = 5\nstate x = 1\nstate y = 1\ndx/dt = -0.2*x\n"
      "dy/dt = -0.2*y\nevent A when t > T1: x = x + 1\nevent B when t > T2: y = 2*y\n",
      "param k = 1\nstate c = 0\nstate y = 0\ndc/dt = k\n"
      "dy/dt = piecewise(2*y, t > 10, 0.1)\nevent E when c > 10: y = y + 1\n",
      "param a = 0.7\nparam b = 0.1\nstate x = 1\nlet T = a*b\n"
      "dx/dt = piecewise(3, t > T && t > 0.07, 1) - x\n"};
  for (const char* text : models) {
    SCOPED_TRACE(text);
    const auto problem = testing::ode_text_problem(text, {12}, 1e-10, 1e-12);
    for (const char* method : {"cvodes_fsa", "cvodes_asa", "pbsr", "odesd", "dopri8s",
                               "grk4as", "erk_adjoint"})
      EXPECT_TRUE(testing::warns(solve(problem, method), "are crossed at once")) << method;
  }
}

// t > a b (a b = 0.06999999999999999) and t > 0.07 switch 2 ulps apart,
// read as one instant; the solver restarts at the later one. An output at
// 0.07, between the two, failed in dopri8s ("interpolate: t = 0.07 lies
// outside the last step"), odesd ("step size collapsed") and grk4as and
// erk_adjoint ("t_limit must lie ahead of t"); it takes the state after
// the instant.
TEST(CoincidentSwitches, AnOutputBetweenSwitchesAFewUlpsApartIsServed) {
  const char* text = R"(
param a = 0.7
param b = 0.1
param k = 1
state x = 1
state y = 0
dx/dt = piecewise(-k*x, t > a*b, 0)
dy/dt = piecewise(1, t > 0.07, 0)
)";
  const auto problem = testing::ode_text_problem(text, {0.07, 0.5}, 1e-10, 1e-12);
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "pbsr", "odesd", "dopri8s", "grk4as",
                             "erk_adjoint"}) {
    const Result r = solve(problem, method);
    EXPECT_NEAR(r.x[0], 1.0, 1e-8) << method;  // x, y at 0.07
    EXPECT_NEAR(r.x[1], 0.0, 1e-8) << method;
    EXPECT_NEAR(r.x[2], std::exp(-(0.5 - 0.07)), 1e-8) << method;
  }
}

// A clock state c = t meets c > 10 as the fixed t > 10 switches: neither
// moves with p (dtau = 0 for both along S), so a forward method is right
// without a word.
TEST(CoincidentSwitches, SwitchesThatBothStayPutNeedNoWord) {
  const char* text = R"(
param k = 0.1
state c = 0
state y = 0
dc/dt = 1
dy/dt = piecewise(1, c > 10, 0) + piecewise(k*y, t > 10, 0.1)
)";
  const auto problem = testing::ode_text_problem(text, {12}, 1e-10, 1e-12);
  const auto fd = central_difference_sensitivities(problem, 1e-6);
  for (const char* method : kForward) {
    const Result r = solve(problem, method);
    EXPECT_FALSE(testing::warns(r, "are crossed at once")) << method;
    EXPECT_LT(relative_max_difference(r.s, fd), 1e-5) << method;
  }
}

}  // namespace
}  // namespace odesens
