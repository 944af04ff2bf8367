// No method returns NaN or Inf as a number: a non-finite entry of x, S, a
// gradient or an objective ends the solve with Status::not_finite and a
// message naming the array and the entry.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <sys/stat.h>

#include "odesens/expr_model.hpp"
#include "odesens/model_loader.hpp"
#include "odesens/odesens.hpp"

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

// A real model whose solution stays constant for long stretches: the
// forward error estimate lets explicit steps grow far beyond the stability
// region, and the discrete adjoint of those steps overflows.
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
    const Result r = solve(problem, "erk_adjoint");
    EXPECT_TRUE(all_finite(r.s) && all_finite(r.gradient));
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::not_finite) << e.what();
  }
}

}  // namespace
}  // namespace odesens
