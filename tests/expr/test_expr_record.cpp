// record(): models written once as generic C++ code.
#include <gtest/gtest.h>

#include <cmath>

#include "expr_test_support.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

// Chua's circuit written once, for Expr and for double.
struct ChuaRhs {
  template <class T>
  void operator()(T, const T* x, const T* p, T* dx) const {
    using std::pow;
    const T g = -8.0 / 7.0 * x[0] + 4.0 / 63.0 * pow(x[0], 3);
    dx[0] = p[0] * (x[1] - x[0] - g);
    dx[1] = x[0] - x[1] + x[2];
    dx[2] = -p[1] * x[1];
  }
};

std::shared_ptr<ExprModel> recorded_chua() {
  RecordOptions o;
  o.name = "recorded chua";
  o.state_names = {"x1", "x2", "x3"};
  o.param_names = {"p1", "p2"};
  o.nominal_params = {7.0, 15.0};
  o.x0 = {0.0, 0.0, -0.1};
  o.t_end = 10.0;
  return record(3, 2, ChuaRhs{}, o);
}

TEST(Record, ChuaMatchesTheBuiltinModel) {
  auto rec = recorded_chua();
  auto builtin = make_builtin_model("chua");
  EXPECT_EQ(rec->name(), "recorded chua");
  EXPECT_EQ(rec->default_t_end(), 10.0);
  const std::vector<double> x = {-0.8, 0.4, 1.1}, p = {7.0, 15.0};
  std::vector<double> a(3), b(3), Ja(9), Jb(9), Jpa(6), Jpb(6);
  rec->rhs(0.0, x.data(), p.data(), a.data());
  builtin->rhs(0.0, x.data(), p.data(), b.data());
  rec->jac_x(0.0, x.data(), p.data(), Ja.data());
  builtin->jac_x(0.0, x.data(), p.data(), Jb.data());
  rec->jac_p(0.0, x.data(), p.data(), Jpa.data());
  builtin->jac_p(0.0, x.data(), p.data(), Jpb.data());
  EXPECT_LT(expr_testing::scaled_difference(a, b), 1e-15);
  EXPECT_LT(expr_testing::scaled_difference(Ja, Jb), 1e-15);
  EXPECT_LT(expr_testing::scaled_difference(Jpa, Jpb), 1e-15);
  std::vector<double> x0(3);
  rec->initial_state(p.data(), x0.data());
  EXPECT_EQ(x0, (std::vector<double>{0.0, 0.0, -0.1}));
}

TEST(Record, TheSameGenericLambdaRunsOnDoubleAndOnExpr) {
  auto rhs = [](auto t, const auto* x, const auto* p, auto* dx) {
    using std::exp;
    using std::sin;
    dx[0] = p[0] * exp(-t) * sin(x[1]) + pow(x[0], 3);
    dx[1] = piecewise(x[0] * p[1], x[0] < 0.0 || x[1] > 2.0, abs(x[1]) - x[0], !(x[0] < 1.0),
                      min(x[0], x[1]) + max(x[0], 2.0 * x[1]));
    dx[1] += hill(x[1], p[1], 2.0);
  };
  auto m = record(2, 2, rhs);
  EXPECT_EQ(m->state_names(), (std::vector<std::string>{"x1", "x2"}));
  struct Plain {  // the reference: the same formulas on double
    static void f(double t, const double* x, const double* p, double* dx) {
      dx[0] = p[0] * std::exp(-t) * std::sin(x[1]) + x[0] * x[0] * x[0];
      double v;
      if (x[0] < 0.0 || x[1] > 2.0)
        v = x[0] * p[1];
      else if (!(x[0] < 1.0))
        v = std::fabs(x[1]) - x[0];
      else
        v = std::min(x[0], x[1]) + std::max(x[0], 2.0 * x[1]);
      dx[1] = v + x[1] * x[1] / (p[1] * p[1] + x[1] * x[1]);
    }
  };
  const std::vector<double> p = {1.5, 0.5};
  for (const auto& x : std::vector<std::vector<double>>{{-1.0, 0.5}, {1.5, -0.5}, {0.3, 0.2},
                                                       {0.3, 2.5}}) {
    std::vector<double> a(2), b(2);
    m->rhs(0.3, x.data(), p.data(), a.data());
    Plain::f(0.3, x.data(), p.data(), b.data());
    EXPECT_NEAR(a[0], b[0], 1e-14);
    EXPECT_NEAR(a[1], b[1], 1e-14);
    // Exact derivatives against differences of the same formulas.
    auto F = [&](const std::vector<double>& in, std::vector<double>& out) {
      Plain::f(0.3, in.data(), p.data(), out.data());
    };
    std::vector<double> J(4);
    m->jac_x(0.3, x.data(), p.data(), J.data());
    EXPECT_LT(expr_testing::scaled_difference(J, expr_testing::central_jacobian(F, x, 2)), 1e-7);
  }
}

TEST(Record, InitialStateMayDependOnParameters) {
  RecordOptions o;
  o.nominal_params = {2.0};
  o.initial_state = [](const Expr* p, Expr* x0) {
    x0[0] = p[0] * p[0];
    x0[1] = 1.0;
  };
  auto m = record(2, 1, [](auto, const auto* x, const auto* p, auto* dx) {
    dx[0] = -p[0] * x[0];
    dx[1] = x[0];
  }, o);
  const double p = 3.0;
  double x0[2], S0[2];
  m->initial_state(&p, x0);
  m->initial_sensitivity(&p, S0);
  EXPECT_EQ(x0[0], 9.0);
  EXPECT_EQ(x0[1], 1.0);
  EXPECT_EQ(S0[0], 6.0);
  EXPECT_EQ(S0[1], 0.0);
}

TEST(Record, InconsistentOptionsAreRejected) {
  RecordOptions o;
  o.state_names = {"only_one"};
  try {
    record(2, 0, [](auto, const auto* x, const auto*, auto* dx) {
      dx[0] = x[1];
      dx[1] = -x[0];
    }, o);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
  }
}

TEST(Record, UnsetDerivativesAreZero) {
  auto m = record(2, 0, [](auto, const auto* x, const auto*, auto* dx) { dx[0] = x[1]; });
  const double x[2] = {1.0, 2.0};
  double f[2];
  m->rhs(0.0, x, nullptr, f);
  EXPECT_EQ(f[0], 2.0);
  EXPECT_EQ(f[1], 0.0);
}

}  // namespace
}  // namespace odesens
