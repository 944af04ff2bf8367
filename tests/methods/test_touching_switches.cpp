// A switch whose root function touches 0 without crossing it: f takes the
// other branch at one instant only, which moves nothing, so S is that of f
// without the switch, in every method, whether or not an output falls on
// the touch.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

// x' = piecewise(1, (t - c)^2 > 0, 3) - x/10: the comparison fails at t = c
// alone, so x = 10 + (x0 - 10) e^(-t/10) and dx/dc = 0. With an output at
// t = c, its two instants (g = 0 at c, back above one ulp later) put
// (f- - f+) dtau into S, dtau from g_p / g_t, both near 0 at the second:
// dx/dc was 2 after t = c in cvodes_fsa, and odesd failed ("step size
// collapsed at t = 4.999999999999999").
TEST(TouchingSwitches, ATouchMovesNothing) {
  const char* text = R"(
param c = 5
state x = 1
dx/dt = piecewise(1, (t-c)^2 > 0, 3) - 0.1*x
)";
  const auto problem = testing::ode_text_problem(text, testing::linspace(0, 8, 9), 1e-10, 1e-12);
  const std::vector<double> zero(problem.output_times.size(), 0.0);
  for (const char* method : {"cvodes_fsa", "pbsr", "odesd", "dopri8s", "grk4as"}) {
    const Result r = solve(problem, method);
    EXPECT_LT(testing::relative_max_difference(r.s, zero), 1e-8) << method;
  }
  for (const char* method : {"cvodes_asa", "erk_adjoint"}) {
    const Result r = solve(problem, method);
    EXPECT_LT(testing::relative_max_difference(r.gradient, {0.0}), 1e-8) << method;
  }
}

// (t - c)^3 > 0 crosses at t = c with g' = 0 there: the side waits for the
// next step, and the switch jumps by (f- - f+) dtau with dtau = 1 (dx(8)/dc
// = 2 e^(-0.3)).
TEST(TouchingSwitches, ACrossingWithAZeroRateStillSwitches) {
  const char* text = R"(
param c = 5
state x = 1
dx/dt = piecewise(1, (t-c)^3 > 0, 3) - 0.1*x
)";
  // No output on t = c, where S is the value after the switch and a central
  // difference the mean of the two sides.
  const auto problem = testing::ode_text_problem(text, {2, 4, 6, 8}, 1e-10, 1e-12);
  const auto fd = testing::central_difference_sensitivities(problem, 1e-6);
  for (const char* method : {"cvodes_fsa", "pbsr", "odesd", "dopri8s", "grk4as"})
    EXPECT_LT(testing::relative_max_difference(solve(problem, method).s, fd), 1e-5) << method;
}

}  // namespace
}  // namespace odesens
