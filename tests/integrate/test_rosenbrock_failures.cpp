// Every failure of the Rosenbrock engine ends in its documented status:
// singular I − hγJ (fixed step; adaptive steps halve h and recover, or give
// up after max_singular_halvings), NaN anywhere, max_steps, bad settings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "integrate/implicit/rosenbrock_engine.hpp"
#include "rosenbrock_test_problems.hpp"

namespace odesens::integrate {
namespace {

using testing::DiagonalSystem;
using testing::NaNAfterHalf;
using testing::RiccatiSystem;
using testing::status_of;

// An eigenvalue λ that makes I − hγJ exactly singular for h = 0.3: the
// engine assembles 1 + (−hγ)·λ. Halving h is exact, so 2^k λ does the same
// for h/2^k.
constexpr double kSingularH = 0.3;
double singular_eigenvalue() {
  const double c = -kSingularH * grk4a().gamma;
  double lambda = -1.0 / c;
  for (int k = 0; k < 8 && 1.0 + c * lambda != 0.0; ++k)
    lambda = std::nextafter(lambda, 1.0 + c * lambda > 0.0 ? 2.0 * lambda : 0.0);
  EXPECT_EQ(1.0 + c * lambda, 0.0);
  return lambda;
}

TEST(RosenbrockFailures, SingularMatrixWithAFixedStepIsSolverFailed) {
  const double h = kSingularH, lambda = singular_eigenvalue();
  DiagonalSystem system({-1.0, lambda});
  RosenbrockWorkspace ws(grk4a(), 2, 1, nullptr);
  RosenbrockSettings settings;
  settings.h_fixed = h;
  RosenbrockEngine engine(system, ws, settings);
  const double x0[2] = {1.0, 1.0};
  engine.reset(0.0, x0, 1.0);
  std::string message;
  EXPECT_EQ(status_of([&] { engine.step(1.0); }, &message), Status::solver_failed);
  EXPECT_NE(message.find("singular"), std::string::npos) << message;
  EXPECT_EQ(status_of([&] { engine.take_step(h); }), Status::solver_failed);
  EXPECT_EQ(engine.stats().singular, 2);
  EXPECT_EQ(engine.t(), 0.0);
}

TEST(RosenbrockFailures, AdaptiveStepsHalveHOnASingularMatrixAndGoOn) {
  const double h = kSingularH, lambda = singular_eigenvalue();
  DiagonalSystem system({-1.0, lambda});
  RosenbrockWorkspace ws(grk4a(), 2, 1, nullptr);
  RosenbrockSettings settings;
  settings.h0 = h;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-8;
  RosenbrockEngine engine(system, ws, settings);
  const double x0[2] = {1.0, 1.0};
  engine.reset(0.0, x0, 1.0);
  engine.integrate_to(1.0);
  EXPECT_EQ(engine.stats().singular, 1);
  EXPECT_NEAR(engine.x()[0], std::exp(-1.0), 1e-6);
  EXPECT_NEAR(engine.x()[1] / std::exp(lambda), 1.0, 1e-6);
}

// Eigenvalues λ, 2λ, ..., 32λ make h, h/2, ..., h/32 all singular.
TEST(RosenbrockFailures, AMatrixThatStaysSingularIsSolverFailed) {
  const double h = kSingularH, base = singular_eigenvalue();
  std::vector<double> lambda;
  for (int k = 0; k <= max_singular_halvings; ++k) lambda.push_back(std::ldexp(base, k));
  DiagonalSystem system(lambda);
  RosenbrockWorkspace ws(grk4a(), lambda.size(), 1, nullptr);
  RosenbrockSettings settings;
  settings.h0 = h;
  RosenbrockEngine engine(system, ws, settings);
  const std::vector<double> x0(lambda.size(), 0.0);
  engine.reset(0.0, x0.data(), 1.0);
  std::string message;
  EXPECT_EQ(status_of([&] { engine.step(1.0); }, &message), Status::solver_failed);
  EXPECT_EQ(engine.stats().singular, max_singular_halvings + 1);
  EXPECT_NE(message.find("singular"), std::string::npos) << message;
  EXPECT_NE(message.find("halving"), std::string::npos) << message;
}

TEST(RosenbrockFailures, NaNInFIsNotFinite) {
  for (RosenbrockJacobian mode : {RosenbrockJacobian::frozen, RosenbrockJacobian::corrected}) {
    NaNAfterHalf system;
    RosenbrockWorkspace ws(grk4a(), 1, 1, nullptr);
    RosenbrockSettings settings;
    settings.jacobian = mode;
    RosenbrockEngine engine(system, ws, settings);
    const double x0 = 1.0;
    engine.reset(0.0, &x0, 1.0);
    std::string message;
    EXPECT_EQ(status_of([&] { engine.integrate_to(1.0); }, &message), Status::not_finite);
    EXPECT_NE(message.find("NaN"), std::string::npos) << message;
    EXPECT_LE(engine.t(), 0.5);
  }
}

TEST(RosenbrockFailures, NaNInX0IsNotFinite) {
  NaNAfterHalf system;
  RosenbrockWorkspace ws(grk4a(), 1, 1, nullptr);
  RosenbrockEngine engine(system, ws, RosenbrockSettings{});
  const double x0 = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(status_of([&] { engine.reset(0.0, &x0, 1.0); }), Status::not_finite);
}

// J or ∂f/∂t with a NaN entry.
class BrokenDerivatives final : public RosenbrockSystem {
 public:
  explicit BrokenDerivatives(bool jacobian) : jacobian_(jacobian) {}
  void rhs(double, const double* X, double* F) override { F[0] = -X[0]; }
  void jacobian(double, const double*, double* J) override {
    J[0] = jacobian_ ? std::numeric_limits<double>::quiet_NaN() : -1.0;
  }
  void jvp(std::size_t, double, const double*, const double* v, double* out) override {
    out[0] = -v[0];
  }
  void dfdt(double, const double*, double* D) override {
    D[0] = jacobian_ ? 0.0 : std::numeric_limits<double>::infinity();
  }

 private:
  bool jacobian_;
};

TEST(RosenbrockFailures, NaNInTheJacobianOrTheTimeDerivativeIsNotFinite) {
  for (bool jacobian : {true, false}) {
    BrokenDerivatives system(jacobian);
    RosenbrockWorkspace ws(grk4a(), 1, 1, nullptr);
    RosenbrockEngine engine(system, ws, RosenbrockSettings{});
    const double x0 = 1.0;
    engine.reset(0.0, &x0, 1.0);
    std::string message;
    EXPECT_EQ(status_of([&] { engine.step(1.0); }, &message), Status::not_finite);
    EXPECT_NE(message.find(jacobian ? "Jacobian" : "df/dt"), std::string::npos) << message;
  }
}

TEST(RosenbrockFailures, MaxStepsIsTooMuchWork) {
  RiccatiSystem system;
  RosenbrockWorkspace ws(grk4a(), 2, 1, nullptr);
  RosenbrockSettings settings;
  settings.max_steps = 5;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-12;
  RosenbrockEngine engine(system, ws, settings);
  const double x0[2] = {1.0, 0.0};
  engine.reset(0.0, x0, 10.0);
  std::string message;
  EXPECT_EQ(status_of([&] { engine.integrate_to(10.0); }, &message), Status::too_much_work);
  EXPECT_NE(message.find("max_steps (5)"), std::string::npos) << message;
  EXPECT_EQ(engine.stats().steps, 5);
}

// x' = x^2, x(0) = 1 blows up at t = 1: the step size collapses there.
class BlowUp final : public RosenbrockSystem {
 public:
  void rhs(double, const double* X, double* F) override { F[0] = X[0] * X[0]; }
  void jacobian(double, const double* x, double* J) override { J[0] = 2.0 * x[0]; }
  void jvp(std::size_t, double, const double* x, const double* v, double* out) override {
    out[0] = 2.0 * x[0] * v[0];
  }
  void dfdt(double, const double*, double* D) override { D[0] = 0.0; }
  bool autonomous() const override { return true; }
};

TEST(RosenbrockFailures, StepSizeCollapseIsSolverFailed) {
  BlowUp system;
  RosenbrockWorkspace ws(grk4a(), 1, 1, nullptr);
  RosenbrockSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-8;
  settings.max_steps = 1000000;
  RosenbrockEngine engine(system, ws, settings);
  const double x0 = 1.0;
  engine.reset(0.0, &x0, 2.0);
  std::string message;
  const Status status = status_of([&] { engine.integrate_to(2.0); }, &message);
  std::printf("blow-up: %s at t = %.17g\n", message.c_str(), engine.t());
  EXPECT_EQ(status, Status::solver_failed);
  EXPECT_NEAR(engine.t(), 1.0, 1e-6);
}

TEST(RosenbrockFailures, BadSettingsAndMisuseAreInvalidArguments) {
  RiccatiSystem system;
  RosenbrockWorkspace ws(grk4a(), 2, 1, nullptr);
  for (double h : {0.0, -0.1, std::numeric_limits<double>::quiet_NaN()}) {
    RosenbrockSettings settings;
    settings.h_fixed = h;
    EXPECT_EQ(status_of([&] { RosenbrockEngine e(system, ws, settings); }),
              Status::invalid_argument)
        << "h_fixed = " << h;
  }
  RosenbrockSettings bad;
  bad.max_steps = 0;
  EXPECT_EQ(status_of([&] { RosenbrockEngine e(system, ws, bad); }), Status::invalid_argument);
  bad = RosenbrockSettings{};
  bad.tolerances.rtol = -1;
  EXPECT_EQ(status_of([&] { RosenbrockEngine e(system, ws, bad); }), Status::invalid_argument);
  // A workspace for a sparse J does not fit a dense system.
  const SparsityPattern diagonal = SparsityPattern::dense(2, 2);
  RosenbrockWorkspace sparse(grk4a(), 2, 1, &diagonal);
  EXPECT_EQ(status_of([&] { RosenbrockEngine e(system, sparse, RosenbrockSettings{}); }),
            Status::invalid_argument);
  EXPECT_EQ(status_of([&] { RosenbrockWorkspace w(grk4a(), 2, 0, nullptr); }),
            Status::invalid_argument);
  RosenbrockEngine engine(system, ws, RosenbrockSettings{});
  EXPECT_EQ(status_of([&] { engine.step(1.0); }), Status::invalid_argument);  // before reset
  const double x0[2] = {1.0, 0.0};
  engine.reset(0.0, x0, 1.0);
  EXPECT_EQ(status_of([&] { engine.step(-1.0); }), Status::invalid_argument);
  EXPECT_EQ(status_of([&] { engine.take_step(-0.1); }), Status::invalid_argument);
  EXPECT_EQ(status_of([&] { engine.set_lane_state(1, x0); }), Status::invalid_argument);
  const double nan_state[2] = {std::numeric_limits<double>::quiet_NaN(), 0.0};
  EXPECT_EQ(status_of([&] { engine.set_lane_state(0, nan_state); }), Status::not_finite);
}

}  // namespace
}  // namespace odesens::integrate
