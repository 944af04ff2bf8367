// Derivatives of every function of the format, through every path that
// computes them (symbolic J_x and J_p, forward tangents, reverse adjoints at
// each lane width), against hand-written derivatives and central differences,
// on both sides of the branch points of abs, min, max and piecewise.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "expr_test_support.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

const double kLn10 = std::log(10.0);

struct FunctionCase {
  const char* name;
  const char* rhs;  // in x and p
  double p;
  std::vector<double> xs;
  std::function<double(double, double)> f, fx, fp;
};

double sq(double v) { return v * v; }

const std::vector<FunctionCase>& cases() {
  static const std::vector<FunctionCase> c = {
      {"exp", "exp(p*x)", 0.7, {-1.3, 0.4, 2.0},
       [](double x, double p) { return std::exp(p * x); },
       [](double x, double p) { return p * std::exp(p * x); },
       [](double x, double p) { return x * std::exp(p * x); }},
      {"log", "log(p*x)", 0.7, {0.2, 1.5, 9.0},
       [](double x, double p) { return std::log(p * x); },
       [](double x, double) { return 1 / x; }, [](double, double p) { return 1 / p; }},
      {"log10", "log10(p*x)", 0.7, {0.2, 1.5, 9.0},
       [](double x, double p) { return std::log10(p * x); },
       [](double x, double) { return 1 / (x * kLn10); },
       [](double, double p) { return 1 / (p * kLn10); }},
      {"sqrt", "sqrt(p*x)", 0.7, {0.2, 1.5, 9.0},
       [](double x, double p) { return std::sqrt(p * x); },
       [](double x, double p) { return p / (2 * std::sqrt(p * x)); },
       [](double x, double p) { return x / (2 * std::sqrt(p * x)); }},
      {"sin", "sin(p*x)", 0.7, {-2.0, 0.3, 4.0},
       [](double x, double p) { return std::sin(p * x); },
       [](double x, double p) { return p * std::cos(p * x); },
       [](double x, double p) { return x * std::cos(p * x); }},
      {"cos", "cos(p*x)", 0.7, {-2.0, 0.3, 4.0},
       [](double x, double p) { return std::cos(p * x); },
       [](double x, double p) { return -p * std::sin(p * x); },
       [](double x, double p) { return -x * std::sin(p * x); }},
      {"tan", "tan(p*x)", 0.7, {-1.5, 0.3, 1.9},
       [](double x, double p) { return std::tan(p * x); },
       [](double x, double p) { return p / sq(std::cos(p * x)); },
       [](double x, double p) { return x / sq(std::cos(p * x)); }},
      {"sinh", "sinh(p*x)", 0.7, {-2.0, 0.3, 3.0},
       [](double x, double p) { return std::sinh(p * x); },
       [](double x, double p) { return p * std::cosh(p * x); },
       [](double x, double p) { return x * std::cosh(p * x); }},
      {"cosh", "cosh(p*x)", 0.7, {-2.0, 0.3, 3.0},
       [](double x, double p) { return std::cosh(p * x); },
       [](double x, double p) { return p * std::sinh(p * x); },
       [](double x, double p) { return x * std::sinh(p * x); }},
      {"tanh", "tanh(p*x)", 0.7, {-2.0, 0.3, 3.0},
       [](double x, double p) { return std::tanh(p * x); },
       [](double x, double p) { return p / sq(std::cosh(p * x)); },
       [](double x, double p) { return x / sq(std::cosh(p * x)); }},
      {"asin", "asin(p*x)", 0.7, {-1.2, 0.3, 1.1},
       [](double x, double p) { return std::asin(p * x); },
       [](double x, double p) { return p / std::sqrt(1 - sq(p * x)); },
       [](double x, double p) { return x / std::sqrt(1 - sq(p * x)); }},
      {"acos", "acos(p*x)", 0.7, {-1.2, 0.3, 1.1},
       [](double x, double p) { return std::acos(p * x); },
       [](double x, double p) { return -p / std::sqrt(1 - sq(p * x)); },
       [](double x, double p) { return -x / std::sqrt(1 - sq(p * x)); }},
      {"atan", "atan(p*x)", 0.7, {-3.0, 0.3, 5.0},
       [](double x, double p) { return std::atan(p * x); },
       [](double x, double p) { return p / (1 + sq(p * x)); },
       [](double x, double p) { return x / (1 + sq(p * x)); }},
      {"abs", "abs(x - p)", 0.7, {-1.0, 0.5, 0.9, 3.0},
       [](double x, double p) { return std::fabs(x - p); },
       [](double x, double p) { return x < p ? -1.0 : 1.0; },
       [](double x, double p) { return x < p ? 1.0 : -1.0; }},
      {"cube of a negative base", "p*x^3", 0.7, {-2.5, -0.3, 1.7},
       [](double x, double p) { return p * x * x * x; },
       [](double x, double p) { return 3 * p * x * x; },
       [](double x, double) { return x * x * x; }},
      {"negative integer power", "p*x^-2", 0.7, {-2.5, -0.3, 1.7},
       [](double x, double p) { return p / (x * x); },
       [](double x, double p) { return -2 * p / (x * x * x); },
       [](double x, double) { return 1 / (x * x); }},
      {"fractional power", "p*x^2.5", 0.7, {0.3, 1.7},
       [](double x, double p) { return p * std::pow(x, 2.5); },
       [](double x, double p) { return 2.5 * p * std::pow(x, 1.5); },
       [](double x, double) { return std::pow(x, 2.5); }},
      {"pow with a parameter exponent", "pow(x, p)", 0.7, {0.3, 1.7},
       [](double x, double p) { return std::pow(x, p); },
       [](double x, double p) { return p * std::pow(x, p - 1); },
       [](double x, double p) { return std::pow(x, p) * std::log(x); }},
      {"pow with a state exponent", "p^x", 0.7, {-1.0, 0.3, 1.7},
       [](double x, double p) { return std::pow(p, x); },
       [](double x, double p) { return std::pow(p, x) * std::log(p); },
       [](double x, double p) { return x * std::pow(p, x - 1); }},
      {"min", "min(x, p)", 0.7, {-1.0, 0.5, 0.9, 3.0},
       [](double x, double p) { return std::min(x, p); },
       [](double x, double p) { return x <= p ? 1.0 : 0.0; },
       [](double x, double p) { return x <= p ? 0.0 : 1.0; }},
      {"max", "max(2*x, p)", 0.7, {-1.0, 0.2, 0.5, 3.0},
       [](double x, double p) { return std::max(2 * x, p); },
       [](double x, double p) { return 2 * x >= p ? 2.0 : 0.0; },
       [](double x, double p) { return 2 * x >= p ? 0.0 : 1.0; }},
      {"hill with integer n", "hill(x, p, 2)", 0.7, {-1.0, 0.3, 2.0},
       [](double x, double p) { return x * x / (p * p + x * x); },
       [](double x, double p) { return 2 * x * p * p / sq(p * p + x * x); },
       [](double x, double p) { return -2 * p * x * x / sq(p * p + x * x); }},
      {"hill with a parameter n", "hill(x, 0.5, p)", 1.7, {0.2, 0.9, 3.0},
       [](double x, double p) { return std::pow(x, p) / (std::pow(0.5, p) + std::pow(x, p)); },
       [](double x, double p) {
         const double K = std::pow(0.5, p), X = std::pow(x, p);
         return p * std::pow(x, p - 1) * K / sq(K + X);
       },
       [](double x, double p) {
         const double K = std::pow(0.5, p), X = std::pow(x, p);
         return K * X * (std::log(x) - std::log(0.5)) / sq(K + X);
       }},
      {"piecewise", "piecewise(p*x, x < 0, x^2, x < 1 && !(x == 0.5), p)", 0.7,
       {-1.0, 0.3, 2.0},
       [](double x, double p) { return x < 0 ? p * x : (x < 1 && x != 0.5) ? x * x : p; },
       [](double x, double p) { return x < 0 ? p : (x < 1 && x != 0.5) ? 2 * x : 0.0; },
       [](double x, double) { return x < 0 ? x : (x < 1 && x != 0.5) ? 0.0 : 1.0; }},
      {"negation and division", "-x/p + (x + p)/(x - p)", 0.7, {-1.0, 0.3, 2.0},
       [](double x, double p) { return -x / p + (x + p) / (x - p); },
       [](double x, double p) { return -1 / p - 2 * p / sq(x - p); },
       [](double x, double p) { return x / (p * p) + 2 * x / sq(x - p); }},
  };
  return c;
}

std::shared_ptr<ExprModel> model_of(const FunctionCase& c) {
  return load_ode_text("param p = " + std::to_string(c.p) + "\nstate x = 0\ndx/dt = " + c.rhs + "\n",
                       c.name);
}

double tolerance(double expected, double rel) { return rel * (1.0 + std::fabs(expected)); }

class FunctionDerivatives : public ::testing::TestWithParam<std::size_t> {};

TEST_P(FunctionDerivatives, SymbolicJacobiansMatchHandWrittenDerivatives) {
  const FunctionCase& c = cases()[GetParam()];
  auto m = model_of(c);
  ASSERT_EQ(m->nx(), 1u);
  for (double x : c.xs) {
    const double p = c.p;
    double f, J, Jp;
    m->rhs(0.0, &x, &p, &f);
    m->jac_x(0.0, &x, &p, &J);
    m->jac_p(0.0, &x, &p, &Jp);
    EXPECT_NEAR(f, c.f(x, p), tolerance(c.f(x, p), 1e-14)) << c.name << " x=" << x;
    EXPECT_NEAR(J, c.fx(x, p), tolerance(c.fx(x, p), 1e-13)) << c.name << " x=" << x;
    EXPECT_NEAR(Jp, c.fp(x, p), tolerance(c.fp(x, p), 1e-13)) << c.name << " x=" << x;
  }
}

TEST_P(FunctionDerivatives, SymbolicJacobiansMatchCentralDifferences) {
  const FunctionCase& c = cases()[GetParam()];
  auto m = model_of(c);
  for (double x : c.xs) {
    const double p = c.p;
    auto F = [&](const std::vector<double>& in, std::vector<double>& out) {
      m->rhs(0.0, &in[0], &in[1], out.data());
    };
    const auto fd = expr_testing::central_jacobian(F, {x, p}, 1, 1e-7);
    double J, Jp;
    m->jac_x(0.0, &x, &p, &J);
    m->jac_p(0.0, &x, &p, &Jp);
    EXPECT_NEAR(J, fd[0], tolerance(fd[0], 1e-7)) << c.name << " x=" << x;
    EXPECT_NEAR(Jp, fd[1], tolerance(fd[1], 1e-7)) << c.name << " x=" << x;
  }
}

TEST_P(FunctionDerivatives, TangentsAndAdjointsAtEveryLaneWidthMatchHandWrittenDerivatives) {
  const FunctionCase& c = cases()[GetParam()];
  auto m = model_of(c);
  for (int width : {1, 4, 8}) {
    if (width > widest_expr_lane_width()) continue;
    auto ws = m->make_workspace(width);
    for (double x : c.xs) {
      const double p = c.p;
      // Several vectors at once: scaled copies of the unit direction.
      const std::vector<double> V = {1.0, -2.0, 0.5, 3.0, 1.0, 0.25, -1.0, 2.0, 4.0};
      std::vector<double> jv(V.size()), wx(V.size()), wp(V.size());
      m->jvp(0.0, &x, &p, V.size(), V.data(), jv.data(), ws.get());
      m->vjp(0.0, &x, &p, V.size(), V.data(), wx.data(), wp.data(), ws.get());
      for (std::size_t k = 0; k < V.size(); ++k) {
        const double fx = c.fx(x, p) * V[k], fp = c.fp(x, p) * V[k];
        EXPECT_NEAR(jv[k], fx, tolerance(fx, 1e-13)) << c.name << " x=" << x << " L=" << width;
        EXPECT_NEAR(wx[k], fx, tolerance(fx, 1e-13)) << c.name << " x=" << x << " L=" << width;
        EXPECT_NEAR(wp[k], fp, tolerance(fp, 1e-13)) << c.name << " x=" << x << " L=" << width;
      }
    }
  }
}

TEST_P(FunctionDerivatives, SecondTimeDerivativeIsJacobianTimesRightHandSide) {
  const FunctionCase& c = cases()[GetParam()];
  auto m = model_of(c);
  for (double x : c.xs) {
    const double p = c.p;
    double xdd, f = c.f(x, p);
    m->xddot(0.0, &x, &p, &xdd);
    EXPECT_NEAR(xdd, c.fx(x, p) * f, tolerance(c.fx(x, p) * f, 1e-13)) << c.name << " x=" << x;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryFunction, FunctionDerivatives,
                         ::testing::Range<std::size_t>(0, cases().size()),
                         [](const auto& param_info) {
                           std::string s = cases()[param_info.param].name;
                           for (char& ch : s)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

TEST(ExprDerivatives, TimeDerivativeOfANonAutonomousRightHandSide) {
  auto m = load_ode_text("param p = 2\nstate x = 1\ndx/dt = exp(-p*t)*x + sin(t)\n", "t.ode");
  const double x = 1.5, p = 2.0, t = 0.4;
  double dfdt, xdd;
  m->dfdt(t, &x, &p, &dfdt);
  EXPECT_NEAR(dfdt, -p * std::exp(-p * t) * x + std::cos(t), 1e-14);
  m->xddot(t, &x, &p, &xdd);
  const double f = std::exp(-p * t) * x + std::sin(t);
  EXPECT_NEAR(xdd, std::exp(-p * t) * f + dfdt, 1e-14);
}

}  // namespace
}  // namespace odesens
