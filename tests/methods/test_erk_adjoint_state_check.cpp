// erk_adjoint's check of the states' global error
// (methods/erk_adjoint/state_error_check.hpp): its gradient and S(T) are the
// exact derivatives of the discrete solution, so where errors grow along
// the solution they inherit the states' error, within every step's
// tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "odesens/odesens.hpp"
#include "support/reference.hpp"

namespace odesens {
namespace {

// Lotka-Volterra: the period depends on the orbit, so the phase error
// grows with time (measured at the defaults: the states' ratio 6 over
// [0, 50], 260 over [0, 300], 7700 over [0, 1000], S(T) off by 2.6e-2).
const char* const kLotkaVolterra = R"(
param a = 1
param b = 1
param c = 1
param d = 1
state x = 3
state y = 0.5
dx/dt = a*x - b*x*y
dy/dt = -c*y + d*x*y
)";

Problem at_defaults(double t_end) {
  Problem p = testing::ode_text_problem(kLotkaVolterra, testing::linspace(0.0, t_end, 101),
                                        1e-6, 1e-8);
  p.rtol.reset();  // the method's own defaults
  p.atol.clear();
  return p;
}

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

bool says_global_error(const Result& r) {
  return std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string& w) {
    return w.find("states' global error") != std::string::npos;
  });
}

TEST(ErkAdjointStateCheck, AGrowingErrorOfTheStatesIsSaid) {
  const Problem p = at_defaults(1000.0);
  const Result r = solve(p, "erk_adjoint");
  EXPECT_GT(final_s_error(r, testing::tight_reference(p)), 5e-3);  // the warning is deserved
  EXPECT_GT(r.stats.extra.at("state_error_ratio"), 300.0);
  EXPECT_TRUE(says_global_error(r)) << (r.warnings.empty() ? "no warning" : r.warnings[0]);

  Problem unchecked = p;
  unchecked.options.set("state_check", std::int64_t{0});
  const Result quiet = solve(unchecked, "erk_adjoint");
  EXPECT_FALSE(says_global_error(quiet));
  EXPECT_EQ(quiet.stats.extra.count("state_error_ratio"), 0u);
  EXPECT_EQ(quiet.s, r.s);  // the check changes nothing but the warning
  EXPECT_EQ(quiet.gradient, r.gradient);
}

TEST(ErkAdjointStateCheck, StatesRightToTheirTolerancesPassQuietly) {
  const Problem p = at_defaults(50.0);
  const Result r = solve(p, "erk_adjoint");
  EXPECT_LT(r.stats.extra.at("state_error_ratio"), 30.0);
  EXPECT_FALSE(says_global_error(r));
  EXPECT_LT(final_s_error(r, testing::tight_reference(p)), 1e-3);
}

}  // namespace
}  // namespace odesens
