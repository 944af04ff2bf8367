// The check of the states' global error that cvodes_fsa, cvodes_asa, odesd,
// dopri8s and grk4as run with state_check=1, and auto runs for the method
// it chooses (methods/common/state_error_ratio.hpp), and erk_adjoint's with
// its own tableau (methods/erk_adjoint/state_error_check.hpp), on by
// default: where errors grow along the solution, what is computed along the
// states inherits their error, within every step's tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "odesens/odesens.hpp"
#include "support/hard_models.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

// Lotka-Volterra: the period depends on the orbit, so the phase error
// grows with time. At the defaults (rtol 1e-8) over [0, 1000] the states
// of these methods differ from a solve 10 times tighter by 1e4 to 6e5
// times their tolerances and S(T) is off by 1e-4 to 5e-3 (measured); over
// [0, 10] by 8 to 200 times.
const char* const kPredatorPrey = R"(
param a = 1
param b = 1
param c = 1
param d = 1
state x = 3
state y = 0.5
dx/dt = a*x - b*x*y
dy/dt = -c*y + d*x*y
)";

Problem checked_problem(double t_end, const std::string& method, int state_check) {
  Problem p = testing::ode_text_problem(kPredatorPrey, testing::linspace(0.0, t_end, 101),
                                        1e-8, 1e-10);
  p.rtol.reset();  // the method's own defaults
  p.atol.clear();
  if (method != "auto") p.options.set("state_check", std::int64_t{state_check});
  if (method == "cvodes_asa") p.options.set("final_sensitivity", std::int64_t{1});
  return p;
}

bool says_growing_errors(const Result& r) {
  return testing::warns(r, "errors grow along this solution");
}

class StateCheck : public ::testing::TestWithParam<const char*> {};

TEST_P(StateCheck, GrowingErrorsAreSaidWhenAsked) {
  const std::string method = GetParam();
  const Result r = solve(checked_problem(1000.0, method, 1), method);
  EXPECT_GT(r.stats.extra.at("state_error_ratio"), 300.0) << method;
  EXPECT_TRUE(says_growing_errors(r)) << method;

  const Result quiet = solve(checked_problem(1000.0, method, 0), method);
  EXPECT_EQ(quiet.stats.extra.count("state_error_ratio"), 0u) << method;
  EXPECT_FALSE(says_growing_errors(quiet)) << method;
  EXPECT_EQ(quiet.s, r.s) << method;  // the check changes nothing but the warning
  EXPECT_EQ(quiet.x, r.x) << method;
}

TEST_P(StateCheck, StatesRightToTheirTolerancesPassQuietly) {
  const std::string method = GetParam();
  const Result r = solve(checked_problem(10.0, method, 1), method);
  EXPECT_LT(r.stats.extra.at("state_error_ratio"), 300.0) << method;
  EXPECT_FALSE(says_growing_errors(r)) << method;
}

INSTANTIATE_TEST_SUITE_P(Methods, StateCheck,
                         ::testing::Values("cvodes_fsa", "cvodes_asa", "odesd", "dopri8s",
                                           "grk4as"));

// auto turns the check on for the method it runs; its own option turns it
// off.
TEST(StateCheckAuto, AutoChecksTheMethodItChooses) {
  const Result r = solve(checked_problem(1000.0, "auto", 1), "auto");
  EXPECT_GT(r.stats.extra.at("state_error_ratio"), 300.0) << r.method;
  EXPECT_TRUE(says_growing_errors(r)) << r.method;
  // The warning is about the problem, not the method: auto keeps the
  // method instead of falling back for it.
  EXPECT_EQ(r.method_choice.find("failed"), std::string::npos) << r.method_choice;

  Problem unchecked = checked_problem(1000.0, "auto", 0);
  unchecked.options.set("state_check", std::int64_t{0});
  const Result quiet = solve(unchecked, "auto");
  EXPECT_EQ(quiet.method, r.method);
  EXPECT_FALSE(says_growing_errors(quiet)) << quiet.method;
}

// Where the probe solved the whole span (nothing switches in the model),
// auto compares the chosen method's states with the probe's (dopri5 at the
// same tolerances) and solves them again only where the two differ by
// more than the check's limit.
TEST(StateCheckAuto, TheProbesSolutionChecksFirst) {
  const Problem p = checked_problem(10.0, "auto", 1);
  const Result r = solve(p, "auto");
  ASSERT_EQ(r.method, "dopri8s") << r.method_choice;
  ASSERT_EQ(r.stats.extra.count("state_difference_from_probe"), 1u) << r.method_choice;
  const double difference = r.stats.extra.at("state_difference_from_probe");
  EXPECT_LE(difference, 300.0);
  EXPECT_EQ(r.stats.extra.count("state_error_ratio"), 0u);  // no second solve
  EXPECT_FALSE(says_growing_errors(r));
  // The difference bounds the states' actual error (in units of their
  // tolerances): the probe's dopri5 errs more than dopri8s.
  Problem exact = p;
  exact.rtol = 1e-8;
  exact.atol = {1e-10};
  const Result ref = testing::tight_reference(exact);
  double error = 0;
  for (std::size_t k = 0; k < r.x.size(); ++k)
    error = std::max(error, std::fabs(r.x[k] - ref.x[k]) / (1e-8 * std::fabs(ref.x[k]) + 1e-10));
  EXPECT_GT(error, 0.0);
  EXPECT_LE(error, difference);

  // Over [0, 1000] with a probe long enough to solve it the two differ by
  // far more: the tighter solve runs and the warning is given.
  Problem longer = checked_problem(1000.0, "auto", 1);
  longer.options.set("probe_steps", std::int64_t{100000});
  const Result far = solve(longer, "auto");
  EXPECT_EQ(far.stats.extra.count("state_difference_from_probe"), 0u);
  EXPECT_GT(far.stats.extra.at("state_error_ratio"), 300.0) << far.method;
  EXPECT_TRUE(says_growing_errors(far)) << far.method;

  // A session at other parameters has no probe there: the method checks
  // its states itself, from then on.
  auto session = prepare(p, "auto");
  EXPECT_EQ(session->run(RunInputs{}).stats.extra.count("state_difference_from_probe"), 1u);
  const Result moved = session->run(std::vector<double>{1.1, 1, 1, 1});
  EXPECT_EQ(moved.stats.extra.count("state_difference_from_probe"), 0u);
  EXPECT_LT(moved.stats.extra.at("state_error_ratio"), 300.0);
  EXPECT_EQ(session->run(RunInputs{}).stats.extra.count("state_difference_from_probe"), 0u);

  // A switch in f: the probe's solution (it ignores switches) is not the
  // problem's, and the method checks itself.
  Problem switching = testing::ode_text_problem(
      std::string(kPredatorPrey) + "state z = 0\ndz/dt = piecewise(1, t > 5, 0)\n",
      testing::linspace(0.0, 10.0, 101), 1e-8, 1e-10);
  switching.rtol.reset();
  switching.atol.clear();
  const Result switched = solve(switching, "auto");
  EXPECT_EQ(switched.stats.extra.count("state_difference_from_probe"), 0u);
  EXPECT_EQ(switched.stats.extra.count("state_error_ratio"), 1u) << switched.method;
}

// With fixed steps the check solves adaptively (the same fixed steps again
// would repeat the solve and see no difference: it said 0 where the states
// were 27 000 times their tolerances off).
TEST(StateCheckDopri8s, FixedStepsAreCheckedByAdaptiveOnes) {
  Problem p = checked_problem(10.0, "dopri8s", 1);
  p.options.set("fixed_step", 1.0);
  const Result r = solve(p, "dopri8s");
  EXPECT_GT(r.stats.extra.at("state_error_ratio"), 300.0);
  EXPECT_TRUE(says_growing_errors(r));
}

// dopri8s checks its states with itself, and the check measures their
// actual error: on the stiff Van der Pol oscillator over [0, 0.5] with 51
// outputs at rtol 1e-8 its states are 0.024 times their tolerances from
// the exact ones and the check says 0.024 (measured), while a CVODES Adams
// solve at rtol 1e-9, the check before, differed from them by 0.86 times
// (its own error: 36 times too much).
const char* const kStiffVanDerPol = R"(
param mu = 1000
state x = 2
state v = -2/3 + 10/(81*mu) - 292/(2187*mu^2)
dx/dt = v
dv/dt = mu*(1 - x^2)*v - mu*x
)";

// The states' largest error in units of their tolerances, as the check
// weighs it, against the states of `exact`.
double state_error_in_tolerances(const Result& r, const Result& exact, double rtol, double atol) {
  double worst = 0.0;
  for (std::size_t q = 0; q < r.x.size(); ++q)
    worst = std::max(worst, std::fabs(r.x[q] - exact.x[q]) / (rtol * std::fabs(exact.x[q]) + atol));
  return worst;
}

TEST(StateCheckDopri8s, MeasuresTheStatesActualError) {
  const double rtol = 1e-8, atol = 1e-10;
  Problem p = testing::ode_text_problem(kStiffVanDerPol, testing::linspace(0.0, 0.5, 51), rtol, atol);
  p.options.set("state_check", std::int64_t{1});
  const Result r = solve(p, "dopri8s");
  Problem tight = testing::ode_text_problem(kStiffVanDerPol, p.output_times, 1e-13, 1e-15);
  tight.options.set("sensitivities", std::int64_t{0});
  const double actual = state_error_in_tolerances(r, solve(tight, "cvodes_fsa"), rtol, atol);
  const double said = r.stats.extra.at("state_error_ratio");
  EXPECT_LT(actual, 1.0);
  EXPECT_LT(said, 3.0 * actual + 0.1);
  EXPECT_GT(said, actual / 3.0);
  EXPECT_FALSE(says_growing_errors(r));
}

// Where dopri8s' own check cannot solve the states (its stiffness test ends
// the tighter solve), BDF checks them instead: on the collapsing predator over
// [0, 6] at rtol 1e-4 dopri8s' states were 7e9 times their tolerances from
// BDF's at tolerances 10 times tighter, and it said nothing of them.
TEST(StateCheckDopri8s, WhereItsOwnCheckFailsBdfChecks) {
  Problem p = testing::ode_text_problem(testing::kCollapsingPredator,
                                        testing::linspace(0.0, 6.0, 101), 1e-4, 1e-6);
  p.atol.clear();  // dopri8s' own
  p.options.set("state_check", std::int64_t{1});
  const Result r = solve(p, "dopri8s");
  EXPECT_TRUE(says_growing_errors(r) || testing::warns(r, "the states' check could not solve"))
      << r.warnings.size();
}

// erk_adjoint's gradient and S(T) are the exact derivatives of its discrete
// solution (measured at its defaults: the states' ratio 6 over [0, 50], 260
// over [0, 300], 7700 over [0, 1000], S(T) off by 2.6e-2).

// |S(T) - S_ref(T)| relative to S_ref(T)'s largest entry.
double final_s_error(const Result& r, const Result& ref) {
  const std::size_t nm = r.nx * r.np;
  const double* s = r.s.data() + (r.s.size() - nm);
  const double* s_ref = ref.s.data() + (ref.s.size() - nm);
  double error = 0.0, scale = 0.0;
  for (std::size_t q = 0; q < nm; ++q) {
    error = std::max(error, std::fabs(s[q] - s_ref[q]));
    scale = std::max(scale, std::fabs(s_ref[q]));
  }
  return error / scale;
}

bool erk_adjoint_says_global_error(const Result& r) { return testing::warns(r, "states' global error"); }

TEST(ErkAdjointStateCheck, AGrowingErrorOfTheStatesIsSaid) {
  const Problem p = checked_problem(1000.0, "erk_adjoint", 1);
  const Result r = solve(p, "erk_adjoint");
  EXPECT_GT(final_s_error(r, testing::tight_reference(p)), 5e-3);  // the warning is deserved
  EXPECT_GT(r.stats.extra.at("state_error_ratio"), 300.0);
  EXPECT_TRUE(erk_adjoint_says_global_error(r)) << (r.warnings.empty() ? "no warning" : r.warnings[0]);

  const Result quiet = solve(checked_problem(1000.0, "erk_adjoint", 0), "erk_adjoint");
  EXPECT_FALSE(erk_adjoint_says_global_error(quiet));
  EXPECT_EQ(quiet.stats.extra.count("state_error_ratio"), 0u);
  EXPECT_EQ(quiet.s, r.s);  // the check changes nothing but the warning
  EXPECT_EQ(quiet.gradient, r.gradient);
}

TEST(ErkAdjointStateCheck, StatesRightToTheirTolerancesPassQuietly) {
  const Problem p = checked_problem(50.0, "erk_adjoint", 1);
  const Result r = solve(p, "erk_adjoint");
  EXPECT_LT(r.stats.extra.at("state_error_ratio"), 30.0);
  EXPECT_FALSE(erk_adjoint_says_global_error(r));
  EXPECT_LT(final_s_error(r, testing::tight_reference(p)), 1e-3);
}

}  // namespace
}  // namespace odesens
