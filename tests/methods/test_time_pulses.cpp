// Switches of t alone that are not linear in t (integrate/events/
// time_switches.hpp): a pulse narrower than the steps, `abs(t - 6.1) <
// 0.02`, and the peaks of `sin(3 t) > 0.999`. With the dose 0, nothing in
// x makes a solver's steps small, and a solver that locates switches by
// the signs at its steps' ends stepped over them: S of the dose was 0 from
// cvodes_fsa, odesd, pbsr and exp, 0.081 from erk_adjoint, where it is
// 0.0124, and cvodes_asa ran out of steps. Every method now finds the
// switches before it steps. x' = -k x + dose [pulse], so
//   dx(T)/d dose = sum over the pulse's windows [a, b] of
//                  (e^{-k (T - b)} - e^{-k (T - a)}) / k,
// and x(T) = e^{-k T} + dose * that.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

constexpr double kPulsePi = 3.14159265358979323846;
constexpr double kPulseRate = 0.3, kPulseEnd = 10.0;

Problem pulse_problem(const std::string& pulse, double dose) {
  const std::string text = "param dose = " + std::to_string(dose) +
                           "\nparam k = 0.3\nstate x = 1\n"
                           "dx/dt = -k*x + piecewise(dose, " + pulse + ", 0)\n";
  Problem p = testing::ode_text_problem(text, {0.0, kPulseEnd}, 1e-10, 1e-12);
  p.rtol.reset();  // each method's defaults, as a user runs it
  p.atol.clear();
  return p;
}

double dose_sensitivity(const std::vector<std::pair<double, double>>& windows) {
  double s = 0.0;
  for (const auto& [a, b] : windows)
    s += (std::exp(-kPulseRate * (kPulseEnd - b)) - std::exp(-kPulseRate * (kPulseEnd - a))) /
         kPulseRate;
  return s;
}

// The windows of sin(3 t) > 0.999 in [0, 10].
std::vector<std::pair<double, double>> wave_windows() {
  std::vector<std::pair<double, double>> w;
  const double half = std::acos(0.999) / 3.0;
  for (int j = 0; j < 5; ++j) {
    const double centre = (0.5 * kPulsePi + 2.0 * kPulsePi * j) / 3.0;
    w.push_back({centre - half, centre + half});
  }
  return w;
}

class TimePulses : public ::testing::TestWithParam<const char*> {};

TEST_P(TimePulses, NarrowerThanTheStepsAreFoundAtDoseZeroAndOne) {
  const std::string method = GetParam();
  const bool adjoint = method == "cvodes_asa" || method == "erk_adjoint";
  // pbsr and exp: their O(h^2) S and their state solve at their defaults
  // (rtol 1e-5; x(10) = e^-3 is 2e-4 off without any pulse).
  const bool loose = method == "pbsr" || method == "exp";
  const double tolerance = loose ? 2e-4 : 2e-5, x_tolerance = loose ? 1e-3 : 1e-4;
  const std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> cases = {
      {"abs(t - 6.1) < 0.02", {{6.08, 6.12}}},
      {"sin(3*t) > 0.999", wave_windows()},
      // g exactly 0 over [3, 10] (the comparison holds there), and NaN
      // outside the pulse (NaN < 2 fails): neither may hide the pulse or
      // use up the search's budget.
      {"min(t, 3) >= 3 && abs(t - 6.1) < 0.02", {{6.08, 6.12}}},
      {"min(1, sqrt(0.0004 - (t - 6.1)^2)) < 2", {{6.08, 6.12}}}};
  for (const auto& [pulse, windows] : cases)
    for (double dose : {0.0, 1.0}) {
      const std::string what = method + ", " + pulse + ", dose " + std::to_string(dose);
      const Result r = solve(pulse_problem(pulse, dose), method);
      const double s_dose = dose_sensitivity(windows);
      const double x_end = std::exp(-kPulseRate * kPulseEnd) + dose * s_dose;
      // The adjoints' S(T) is the gradient of x(T); the others' S at t = 10.
      const double got = adjoint ? r.gradient.at(0) : r.s_at(1, 0, 0);
      EXPECT_NEAR(got, s_dose, tolerance * s_dose) << what;
      if (!adjoint) {
        EXPECT_NEAR(r.x_at(1, 0), x_end, x_tolerance * x_end) << what;
      }
      EXPECT_TRUE(r.warnings.empty()) << what << ": " << r.warnings.front();
    }
}

INSTANTIATE_TEST_SUITE_P(Methods, TimePulses,
                         ::testing::Values("cvodes_fsa", "cvodes_asa", "odesd", "pbsr", "exp",
                                           "dopri8s", "grk4as", "erk_adjoint"));

// g = sin(2 pi t / 24) - 0.99999 over two whole periods, [0, 48], has
// the same value at t0, the midpoint and t_end: three values on a line,
// which once sent it to the path of roots linear in t, whose answer (no
// crossing) stood. S was 0 from cvodes_fsa and odesd, and cvodes_asa's
// forward pass, which searches twice the span, gave 0 over [0, 12] too.
TEST(TimePulsesPeriodic, AWholeNumberOfPeriodsIsNotTakenForALine) {
  const double omega = 2.0 * kPulsePi / 24.0, half = std::acos(0.99999) / omega;
  for (double end : {48.0, 12.0}) {
    const std::string text =
        "param dose = 0\nparam k = 0.3\nstate x = 1\n"
        "dx/dt = -k*x + piecewise(dose, sin(0.2617993877991494*t) > 0.99999, 0)\n";
    Problem p = testing::ode_text_problem(text, {0.0, end}, 1e-10, 1e-12);
    double s_dose = 0.0;
    for (double centre : {6.0, 30.0})
      if (centre < end)
        s_dose += (std::exp(-kPulseRate * (end - centre - half)) -
                   std::exp(-kPulseRate * (end - centre + half))) / kPulseRate;
    for (const char* method : {"cvodes_fsa", "odesd", "cvodes_asa"}) {
      const Result r = solve(p, method);
      const double got = std::string(method) == "cvodes_asa" ? r.gradient.at(0) : r.s_at(1, 0, 0);
      EXPECT_NEAR(got, s_dose, 1e-4 * s_dose) << method << " over [0, " << end << "]";
    }
  }
}

// More switches than one solve searches for (sin(1000 t) > 0.99999 has
// 1592 windows in [0, 10], each a pair of crossings to locate): the
// result says that narrow pulses may have been stepped over.
TEST(TimePulsesBudget, TooManySwitchesToLocateAreWarnedAbout) {
  const Result r = solve(pulse_problem("sin(1000*t) > 0.99999", 0.0), "cvodes_fsa");
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings.front().find("were not all located before the solve"), std::string::npos)
      << r.warnings.front();
}

// Each root has its own allowance of halvings: a root with too many
// switches (warned about) does not leave a narrow pulse of another root
// unsearched, in either order. With one allowance shared by the roots,
// the pulse's dose had S 0 where the root of many switches came first.
TEST(TimePulsesBudget, ARootWithTooManySwitchesDoesNotStarveTheNext) {
  const std::string wave = "piecewise(d1, sin(1000*t) > 0.99999, 0)";
  const std::string pulse = "piecewise(d2, abs(t - 6.1) < 0.02, 0)";
  const double s_dose = dose_sensitivity({{6.08, 6.12}});
  for (const bool wave_first : {true, false}) {
    const std::string text = "param d1 = 0\nparam d2 = 0\nparam k = 0.3\nstate x = 1\n"
                             "dx/dt = -k*x + " + (wave_first ? wave + " + " + pulse
                                                            : pulse + " + " + wave) + "\n";
    const Problem p = testing::ode_text_problem(text, {0.0, kPulseEnd}, 1e-10, 1e-12);
    const Result r = solve(p, "cvodes_fsa");
    EXPECT_NEAR(r.s_at(1, 0, 1), s_dose, 2e-5 * s_dose) << "wave first: " << wave_first;
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_NE(r.warnings.front().find("sin("), std::string::npos)
        << r.warnings.front();
  }
}

}  // namespace
}  // namespace odesens
