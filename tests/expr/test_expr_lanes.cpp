// SIMD lanes against the scalar evaluator: values at several points agree
// to a few ulp (SLEEF against libm), tangents and adjoints are bitwise the
// same at every width (they only add and multiply), and forward and
// reverse mode agree: v^T (J w) = (v^T J) w.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "expr_test_support.hpp"
#include "odesens/odesens.hpp"
#include "support/vjp_accumulate_check.hpp"

namespace odesens {
namespace {

using expr_testing::ode_model_path;

std::vector<int> available_widths() {
  std::vector<int> w = {1};
  for (int width : {4, 8})
    if (width <= widest_expr_lane_width()) w.push_back(width);
  return w;
}

// Distance in units in the last place between two finite doubles.
std::int64_t ulp_distance(double a, double b) {
  if (a == b) return 0;
  auto key = [](double v) {
    std::int64_t i;
    std::memcpy(&i, &v, sizeof i);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
  };
  const std::int64_t d = key(a) - key(b);
  return d < 0 ? -d : d;
}

// One state per function, so each output is one function application.
const char* kFunctionModel =
    "param p = 2.7\n"
    "state x = 1\n"
    "let u = x/10\n"
    "state e1 = 0\nstate e2 = 0\nstate e3 = 0\nstate e4 = 0\nstate e5 = 0\nstate e6 = 0\n"
    "state e7 = 0\nstate e8 = 0\nstate e9 = 0\nstate e10 = 0\nstate e11 = 0\nstate e12 = 0\n"
    "state e13 = 0\nstate e14 = 0\nstate e15 = 0\nstate e16 = 0\nstate e17 = 0\nstate e18 = 0\n"
    "dx/dt = exp(x)\n"
    "de1/dt = log(x)\nde2/dt = log10(x)\nde3/dt = sqrt(x)\nde4/dt = sin(x)\nde5/dt = cos(x)\n"
    "de6/dt = tan(x)\nde7/dt = sinh(x)\nde8/dt = cosh(x)\nde9/dt = tanh(x)\n"
    "de10/dt = asin(u)\nde11/dt = acos(u)\nde12/dt = atan(x)\nde13/dt = abs(e1)\n"
    "de14/dt = pow(x, p)\nde15/dt = e1^5\nde16/dt = min(x, e1)\nde17/dt = max(x, e1)\n"
    "de18/dt = piecewise(x, e1 < 0 || e2 > 1, -x)\n";

TEST(ExprLanes, EachFunctionInLanesIsWithinTwoUlpOfScalar) {
  auto m = load_ode_text(kFunctionModel, "functions.ode");
  const std::size_t n = m->nx(), points = 24;
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> u(0.05, 9.5), v(-3.0, 3.0);
  std::vector<double> t(points, 0.0), X(n * points), P(points, 2.7), F(n * points);
  for (std::size_t k = 0; k < points; ++k)
    for (std::size_t i = 0; i < n; ++i) X[i + k * n] = i == 0 ? u(gen) : v(gen);
  for (int width : available_widths()) {
    auto ws = m->make_workspace(width);
    m->rhs_points(points, t.data(), X.data(), P.data(), F.data(), ws.get());
    for (std::size_t k = 0; k < points; ++k) {
      std::vector<double> f(n);
      m->rhs(0.0, &X[k * n], &P[k], f.data());
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_LE(ulp_distance(F[i + k * n], f[i]), 2)
            << "state " << m->state_names()[i] << " point " << k << " width " << width << ": "
            << F[i + k * n] << " vs " << f[i];
    }
  }
}

class ExprLanesOnReferenceModels : public expr_testing::ReferenceModelTest {
 protected:
  std::vector<double> random_block(std::size_t rows, std::size_t cols, unsigned seed) const {
    std::mt19937 gen(seed);
    std::normal_distribution<double> g;
    std::vector<double> b(rows * cols);
    for (auto& v : b) v = g(gen);
    return b;
  }
  const double t = 0.21;
};

TEST_P(ExprLanesOnReferenceModels, RightHandSideAtSeveralPointsMatchesScalar) {
  const std::size_t points = 11;
  std::vector<double> times(points), X(n * points), P(np * points), F(n * points), f(n);
  std::mt19937 gen(9);
  std::uniform_real_distribution<double> u(0.9, 1.1);
  for (std::size_t k = 0; k < points; ++k) {
    times[k] = 0.1 * static_cast<double>(k);
    for (std::size_t i = 0; i < n; ++i) X[i + k * n] = x[i] * u(gen);
    for (std::size_t j = 0; j < np; ++j) P[j + k * np] = p[j] * u(gen);
  }
  for (int width : available_widths()) {
    auto ws = m->make_workspace(width);
    m->rhs_points(points, times.data(), X.data(), P.data(), F.data(), ws.get());
    for (std::size_t k = 0; k < points; ++k) {
      m->rhs(times[k], &X[k * n], &P[k * np], f.data());
      const std::vector<double> lane(F.begin() + static_cast<std::ptrdiff_t>(k * n),
                                     F.begin() + static_cast<std::ptrdiff_t>((k + 1) * n));
      EXPECT_LT(expr_testing::scaled_difference(lane, f), 1e-13) << "width " << width;
    }
  }
}

TEST_P(ExprLanesOnReferenceModels, TangentsAndAdjointsAreIdenticalAtEveryWidth) {
  const std::size_t nv = 11;  // not a multiple of any width
  const auto V = random_block(n, nv, 1), W = random_block(n, nv, 2);
  std::vector<double> jv1(n * nv), wx1(n * nv), wp1(np * nv);
  auto ws1 = m->make_workspace(1);
  m->jvp(t, x.data(), p.data(), nv, V.data(), jv1.data(), ws1.get());
  m->vjp(t, x.data(), p.data(), nv, W.data(), wx1.data(), wp1.data(), ws1.get());
  for (int width : available_widths()) {
    auto ws = m->make_workspace(width);
    std::vector<double> jv(n * nv), wx(n * nv), wp(np * nv);
    m->jvp(t, x.data(), p.data(), nv, V.data(), jv.data(), ws.get());
    m->vjp(t, x.data(), p.data(), nv, W.data(), wx.data(), wp.data(), ws.get());
    EXPECT_EQ(jv, jv1) << "width " << width;
    EXPECT_EQ(wx, wx1) << "width " << width;
    EXPECT_EQ(wp, wp1) << "width " << width;
  }
}

TEST_P(ExprLanesOnReferenceModels, ProductsAgreeWithTheSymbolicJacobians) {
  const std::size_t nv = 5;
  const auto V = random_block(n, nv, 3);
  std::vector<double> J(n * n), Jp(n * np);
  m->jac_x(t, x.data(), p.data(), J.data());
  m->jac_p(t, x.data(), p.data(), Jp.data());
  std::vector<double> JV(n * nv, 0.0), JtV(n * nv, 0.0), JptV(np * nv, 0.0);
  for (std::size_t k = 0; k < nv; ++k)
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        JV[i + k * n] += J[i + j * n] * V[j + k * n];
        JtV[i + k * n] += J[j + i * n] * V[j + k * n];
      }
    }
  for (std::size_t k = 0; k < nv; ++k)
    for (std::size_t j = 0; j < np; ++j)
      for (std::size_t i = 0; i < n; ++i) JptV[j + k * np] += Jp[i + j * n] * V[i + k * n];
  for (int width : available_widths()) {
    auto ws = m->make_workspace(width);
    std::vector<double> jv(n * nv), wx(n * nv), wp(np * nv);
    m->jvp(t, x.data(), p.data(), nv, V.data(), jv.data(), ws.get());
    m->vjp_x(t, x.data(), p.data(), nv, V.data(), wx.data(), ws.get());
    m->vjp_p(t, x.data(), p.data(), nv, V.data(), wp.data(), ws.get());
    EXPECT_LT(expr_testing::scaled_difference(jv, JV), 1e-12) << "width " << width;
    EXPECT_LT(expr_testing::scaled_difference(wx, JtV), 1e-12) << "width " << width;
    EXPECT_LT(expr_testing::scaled_difference(wp, JptV), 1e-12) << "width " << width;
  }
}

TEST_P(ExprLanesOnReferenceModels, ForwardAndReverseModeAgree) {
  const std::size_t nv = 8;
  const auto v = random_block(n, nv, 4), w = random_block(n, nv, 5);
  for (int width : available_widths()) {
    auto ws = m->make_workspace(width);
    std::vector<double> Jw(n * nv), vJ(n * nv);
    m->jvp(t, x.data(), p.data(), nv, w.data(), Jw.data(), ws.get());
    m->vjp_x(t, x.data(), p.data(), nv, v.data(), vJ.data(), ws.get());
    for (std::size_t k = 0; k < nv; ++k) {
      double a = 0.0, b = 0.0, scale = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        a += v[i + k * n] * Jw[i + k * n];
        b += vJ[i + k * n] * w[i + k * n];
        scale += std::fabs(v[i + k * n] * Jw[i + k * n]) + std::fabs(vJ[i + k * n] * w[i + k * n]);
      }
      EXPECT_NEAR(a, b, 1e-13 * scale) << "vector " << k << " width " << width;
    }
  }
}

// The fused product runs the lane kernels of vjp: out_x is vjp_x's and
// out_p the initial out_p plus vjp_p's, bit for bit, at every width.
TEST_P(ExprLanesOnReferenceModels, VjpAccumulateIsVjpBitwiseAtEveryWidth) {
  for (int width : available_widths()) {
    SCOPED_TRACE("width " + std::to_string(width));
    auto ws = m->make_workspace(width);
    testing::expect_vjp_accumulate_consistent(*m, t, x, p, ws.get(), {true, true});
  }
}

INSTANTIATE_TEST_SUITE_P(All, ExprLanesOnReferenceModels,
                         ::testing::Values("pka.ode", "camkii.ode", "chua.ode", "vanderpol.ode"),
                         [](const auto& param_info) {
                           std::string s = param_info.param;
                           return s.substr(0, s.find('.'));
                         });

// Several states and parameters, every product term non-zero, t-dependent.
const char* kReactionModel =
    "param k1 = 0.7\nparam k2 = 1.3\nparam k3 = 0.25\nparam K = 0.5\nparam s = 0.1\n"
    "state a = 1\nstate b = 0.5\nstate c = 0.2\nstate d = 2\nstate e = 0.3\n"
    "let r = k1*a*b\n"
    "da/dt = -r + k3*c/(K + c) + s*sin(t)\n"
    "db/dt = -r + k2*exp(-d)*e\n"
    "dc/dt = r - k3*c/(K + c) - k2*c^2\n"
    "dd/dt = -s*d + log(1 + a*c)\n"
    "de/dt = k2*c^2 - k2*exp(-d)*e + sqrt(b + d)\n";

TEST(ExprLanes, VjpAccumulateOfATextModelAtOneAndTheWidestLanes) {
  auto m = load_ode_text(kReactionModel, "reactions.ode");
  ASSERT_EQ(m->nx(), 5u);
  ASSERT_EQ(m->np(), 5u);
  const auto p = expr_testing::probe_params(*m);
  const auto x = expr_testing::probe_state(*m, p);
  for (int width : {1, 0}) {
    SCOPED_TRACE("make_workspace(" + std::to_string(width) + ")");
    auto ws = m->make_workspace(width);
    testing::expect_vjp_accumulate_consistent(*m, 0.4, x, p, ws.get(), {true, true});
  }
  // Without a workspace: a temporary one of the widest lanes.
  testing::expect_vjp_accumulate_consistent(*m, 0.4, x, p, nullptr, {true, true});
}

TEST(ExprLanes, UnavailableWidthIsRejected) {
  auto m = load_ode_text("state x = 1\ndx/dt = -x\n", "a.ode");
  EXPECT_EQ(m->make_workspace()->lane_width(), widest_expr_lane_width());
  try {
    auto ws = m->make_workspace(3);
    FAIL() << "width 3 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
  }
}

}  // namespace
}  // namespace odesens
