// The textbook bouncing ball, h' = v, v' = -g, with v -> -v at h = 0, on
// every method and every kind of output grid: two times (no output between
// bounces, where the integrator restarts with g = h exactly 0), many, times
// on and between the bounces; triggers h <= 0 and h < 0, with and without
// resetting h. Against the exact solution, and S across the bounces against
// central differences in g of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

constexpr double kG = 9.81, kH0 = 1.0, kEnd = 3.0;

// Dropped from h0 at rest: bounces at t_k = (2k - 1) t1, t1 = sqrt(2 h0 / g),
// each leaving the ground at v0 = sqrt(2 g h0). `bounces`: how many happened
// by t (chosen with the nominal g, so that a difference quotient in g stays
// on one branch, the one after an instant at an output on it).
struct BallState {
  double h, v;
};
BallState exact_ball(double t, double g, int bounces) {
  if (bounces == 0) return {kH0 - 0.5 * g * t * t, -g * t};
  const double t1 = std::sqrt(2.0 * kH0 / g), v0 = std::sqrt(2.0 * g * kH0);
  const double tau = t - (2 * bounces - 1) * t1;
  return {v0 * tau - 0.5 * g * tau * tau, v0 - g * tau};
}
int bounces_by(double t, double t_instant_tolerance) {
  const double t1 = std::sqrt(2.0 * kH0 / kG);
  int k = 0;
  while ((2 * k + 1) * t1 <= t + t_instant_tolerance) ++k;
  return k;
}

std::string ball_text(const std::string& comparison, bool reset_h) {
  return "param g = 9.81\nstate h = 1\nstate v = 0\ndh/dt = v\ndv/dt = -g\n"
         "event bounce when h " +
         comparison + " 0: v = -v" + (reset_h ? "; h = 0" : "") + "\ntime t_end = 3\n";
}

std::vector<std::vector<double>> output_grids() {
  const double t1 = std::sqrt(2.0 * kH0 / kG);
  return {{0.0, kEnd},
          testing::linspace(0.0, kEnd, 31),
          testing::linspace(0.0, kEnd, 301),
          {0.0, t1, 3.0 * t1, 5.0 * t1, kEnd},        // on the bounces
          {0.0, 2.0 * t1, 4.0 * t1, 6.0 * t1, kEnd}};  // at the tops between them
}

// x and S within `tolerance` (absolute, the solution is O(1)) of the exact
// ball at every output time.
void expect_exact(const Result& r, double tolerance, const std::string& what) {
  const double dg = 1e-6 * kG;
  for (std::size_t i = 0; i < r.times.size(); ++i) {
    const double t = r.times[i];
    // An output on a bounce (to within the integration's accuracy in
    // time) may be the value on either side of it: where the root lies
    // relative to a time that close is below the tolerance. The outputs
    // after it are not.
    int k = bounces_by(t, 1e-8);
    if (k != bounces_by(t, -1e-8) && r.x_at(i, 1) < 0.0) --k;
    const BallState x = exact_ball(t, kG, k);
    const BallState up = exact_ball(t, kG + dg, k), down = exact_ball(t, kG - dg, k);
    const std::string at = what + ", t = " + std::to_string(t);
    EXPECT_NEAR(r.x_at(i, 0), x.h, tolerance) << at;
    EXPECT_NEAR(r.x_at(i, 1), x.v, tolerance) << at;
    if (r.s.empty()) continue;
    EXPECT_NEAR(r.s_at(i, 0, 0), (up.h - down.h) / (2 * dg), tolerance) << "dh/dg, " << at;
    EXPECT_NEAR(r.s_at(i, 1, 0), (up.v - down.v) / (2 * dg), tolerance) << "dv/dg, " << at;
  }
}

Problem ball_problem(const char* comparison, bool reset_h, const std::vector<double>& times) {
  Problem p;
  p.model = load_ode_text(ball_text(comparison, reset_h), "ball.ode");
  p.output_times = times;
  p.rtol = 1e-9;
  p.atol = {1e-11};
  return p;
}

std::string variant(const std::string& method, const char* comparison, bool reset_h,
                    std::size_t outputs) {
  return method + ", h " + comparison + " 0" + (reset_h ? " with h = 0" : "") + ", " +
         std::to_string(outputs) + " outputs";
}

class BouncingBall : public ::testing::TestWithParam<const char*> {};

TEST_P(BouncingBall, EveryBounceOnEveryOutputGrid) {
  const std::string method = GetParam();
  // pbsr and exp: S is O(dt^2) along the state solver's steps.
  const double tolerance = method == "pbsr" || method == "exp" ? 1e-4 : 1e-5;
  for (const char* comparison : {"<=", "<"})
    for (bool reset_h : {true, false})
      for (const auto& times : output_grids()) {
        const std::string what = variant(method, comparison, reset_h, times.size());
        const Result r = solve(ball_problem(comparison, reset_h, times), method);
        ASSERT_EQ(r.times.size(), times.size()) << what;
        expect_exact(r, tolerance, what);
        EXPECT_EQ(r.stats.extra.at("events_executed"), 3.0) << what;
      }
}

INSTANTIATE_TEST_SUITE_P(ForwardMethods, BouncingBall,
                         ::testing::Values("cvodes_fsa", "pbsr", "exp", "odesd", "dopri8s",
                                           "grk4as"));

// The adjoint methods: the gradient of G = h(T) + v(T) and S(T).
TEST(BouncingBallAdjoint, GradientAndFinalSensitivityAcrossEveryBounce) {
  const double dg = 1e-6 * kG;
  const int k = bounces_by(kEnd, 0.0);
  const BallState up = exact_ball(kEnd, kG + dg, k), down = exact_ball(kEnd, kG - dg, k);
  const double dh = (up.h - down.h) / (2 * dg), dv = (up.v - down.v) / (2 * dg);
  for (const char* method : {"cvodes_asa", "erk_adjoint"})
    for (const char* comparison : {"<=", "<"})
      for (bool reset_h : {true, false})
        for (const auto& times : output_grids()) {
          Problem p = ball_problem(comparison, reset_h, times);
          p.options.set("final_sensitivity", 1);
          // G = h(T) + v(T): weights on the last output only.
          p.adjoint_weights.assign(times.size() * 2, 0.0);
          p.adjoint_weights[2 * (times.size() - 1)] = 1.0;
          p.adjoint_weights[2 * (times.size() - 1) + 1] = 1.0;
          const std::string what = variant(method, comparison, reset_h, times.size());
          const Result r = solve(p, method);
          ASSERT_EQ(r.gradient.size(), 1u) << what;
          EXPECT_NEAR(r.gradient[0], dh + dv, 1e-5) << what;
          ASSERT_EQ(r.s.size(), 2u) << what;
          EXPECT_NEAR(r.s[0], dh, 1e-5) << what;
          EXPECT_NEAR(r.s[1], dv, 1e-5) << what;
        }
}

}  // namespace
}  // namespace odesens

namespace odesens {
namespace {

// A ball that keeps half its speed at each bounce bounces infinitely often
// before t* = 0.4515 + 0.4515 / (1 - 0.5) = 1.3546. Every method says so:
// it either returns with a warning that names the accumulation (the states
// after t* follow the trigger, which stays true: the ball falls through the
// floor, h(3) = -g (3 - t*)^2 / 2, as an SBML simulator gives them), or it
// fails afterwards with a message that names it. With restitution 0.9 and
// t_end = 3 (4 bounces) there is no warning.
class ZenoBall : public ::testing::TestWithParam<const char*> {};

Problem lossy_ball(double restitution, double t_end) {
  Problem p;
  p.model = load_ode_text("param g = 9.81\nstate h = 1\nstate v = 0\ndh/dt = v\n"
                          "dv/dt = -g\nevent bounce when h <= 0: v = -" +
                              std::to_string(restitution) + "*v; h = 0\n",
                          "ball.ode");
  p.output_times = {0.0, t_end};
  p.rtol = 1e-8;
  p.atol = {1e-10};
  p.adjoint_weights = {0.0, 0.0, 1.0, 0.0};  // G = h(t_end)
  return p;
}

bool names_the_accumulation(const std::string& text) {
  return text.find("events accumulate at t = 1.35") != std::string::npos &&
         text.find("Zeno") != std::string::npos;
}

TEST_P(ZenoBall, AccumulatingEventsAreNamed) {
  Result r;
  try {
    r = solve(lossy_ball(0.5, 3.0), GetParam());
  } catch (const Error& e) {
    EXPECT_TRUE(names_the_accumulation(e.what())) << GetParam() << ": " << e.what();
    return;
  }
  const bool warned = std::any_of(r.warnings.begin(), r.warnings.end(), names_the_accumulation);
  EXPECT_TRUE(warned) << GetParam() << ": no warning of the accumulation";
  const double t_star = 0.45152364098 * 3.0, tail = 3.0 - t_star;
  EXPECT_NEAR(r.x_at(1, 0), -0.5 * 9.81 * tail * tail, 1e-3) << GetParam();
}

TEST_P(ZenoBall, FewShrinkingBouncesRun) {
  const Result r = solve(lossy_ball(0.9, 3.0), GetParam());
  EXPECT_EQ(r.stats.extra.at("events_executed"), 4.0) << GetParam();
  EXPECT_TRUE(r.warnings.empty()) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(EveryMethod, ZenoBall,
                         ::testing::Values("cvodes_fsa", "cvodes_asa", "pbsr", "exp", "odesd",
                                           "dopri8s", "grk4as", "erk_adjoint"));

}  // namespace
}  // namespace odesens
