// Derivatives of powers at a base of 0, where the textbook formulas meet
// 0 * Inf: a species that starts at 0 under a Hill term x^h/(K^h + x^h).
// Their limits: d(x^h)/dh = x^h ln x -> 0 for h > 0; d(x^h)/dx = h x^(h-1)
// -> 0 for h > 1, = h for h = 1, and +Inf for 0 < h < 1 (a genuinely
// infinite derivative, which must stay infinite, never a silent number).
// Every path that computes them: the symbolic Jacobians through native code
// and through the interpreter, tangents and adjoints at every lane width,
// and the second-order tapes odeSD uses. Below 0, an integer power's
// derivative in its exponent is that of sign(x)^h |x|^h, x^h ln|x|, whose
// limit at 0 is the same: a species at 0 that rounding puts below it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "expr/expr_model_impl.hpp"
#include "expr/lane_kernels.hpp"
#include "expr/native_tape.hpp"
#include "expr/tape_evaluate.hpp"
#include "expr_test_support.hpp"
#include "odesens/odesens.hpp"
#include "tape_runner.hpp"

namespace odesens {
namespace {

const double kInf = std::numeric_limits<double>::infinity();

// dx/dt = rhs(x; h, K) at x (0 unless given), with its exact partial
// derivatives there.
struct PowerCase {
  const char* name;
  const char* rhs;
  double h;
  double fx, fh, fK;
  double x = 0.0;
};

const std::vector<PowerCase>& power_cases() {
  static const std::vector<PowerCase> c = {
      {"square_through_a_parameter", "x^h", 2.0, 0.0, 0.0, 0.0},
      {"first_power_through_a_parameter", "x^h", 1.0, 1.0, 0.0, 0.0},
      {"zeroth_power_through_a_parameter", "x^h", 0.0, 0.0, 0.0, 0.0},
      {"power_between_one_and_two", "x^h", 1.5, 0.0, 0.0, 0.0},
      {"power_below_one_is_infinitely_steep", "x^h", 0.5, kInf, 0.0, 0.0},
      {"pow_function", "pow(x, h)", 3.0, 0.0, 0.0, 0.0},
      {"hill_with_a_parameter_exponent", "hill(x, K, h)", 2.0, 0.0, 0.0, 0.0},
      {"hill_written_out", "x^h/(K^h + x^h) + K*x", 3.0, 0.5, 0.0, 0.0},
      {"constant_fractional_exponent", "K*x^2.5", 2.0, 0.0, 0.0, 0.0},
      // (-1/2)^3 = -1/8; d/dh: -1/8 ln(1/2).
      {"integer_power_of_a_negative_base", "x^h", 3.0, 0.75, 0.125 * std::log(2.0), 0.0, -0.5},
      // A rounding error below 0: 1e-60 ln(1e-30), about 0 as at 0 itself.
      {"square_of_a_rounding_error_below_zero", "x^h", 2.0, -2e-30, 1e-60 * std::log(1e-30),
       0.0, -1e-30},
  };
  return c;
}

std::shared_ptr<ExprModel> model_of(const PowerCase& c) {
  return load_ode_text("param h = " + std::to_string(c.h) +
                           "\nparam K = 0.5\nstate x = 0\ndx/dt = " + c.rhs + "\n",
                       c.name);
}

// Exact limits (0, 1, Inf) exactly, other values to a few units in the last place.
void expect_value(double actual, double expected) {
  if (expected == 0.0 || std::isinf(expected))
    EXPECT_EQ(actual, expected);
  else
    EXPECT_DOUBLE_EQ(actual, expected);
}

// Values on a pattern, scattered into a dense column-major matrix.
std::vector<double> dense(const SparsityPattern& pattern, const std::vector<double>& values) {
  std::vector<double> out(pattern.rows * pattern.cols, 0.0);
  for (std::size_t j = 0; j < pattern.cols; ++j)
    for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q)
      out[static_cast<std::size_t>(pattern.row_idx[static_cast<std::size_t>(q)]) + j * pattern.rows] =
          values[static_cast<std::size_t>(q)];
  return out;
}

class PowersAtZero : public ::testing::TestWithParam<std::size_t> {};

TEST_P(PowersAtZero, SymbolicJacobiansAreTheLimits) {
  const PowerCase& c = power_cases()[GetParam()];
  auto m = model_of(c);
  const double x = c.x, p[2] = {c.h, 0.5};
  double f, J, Jp[2];
  m->rhs(0.0, &x, p, &f);
  m->jac_x(0.0, &x, p, &J);
  m->jac_p(0.0, &x, p, Jp);
  EXPECT_TRUE(std::isfinite(f));
  expect_value(J, c.fx);
  expect_value(Jp[0], c.fh);
  expect_value(Jp[1], c.fK);
}

// The model runs native code where it can; the interpreter must agree.
TEST_P(PowersAtZero, InterpreterAndNativeCodeGiveTheSameLimits) {
  const PowerCase& c = power_cases()[GetParam()];
  auto m = model_of(c);
  const auto& impl = expr_model_internals(*m);
  const std::vector<double> x = {c.x}, p = {c.h, 0.5};
  std::vector<bool> paths = {false};
  if (expr::native_tapes_enabled()) paths.push_back(true);
  for (bool native : paths) {
    SCOPED_TRACE(native ? "native" : "interpreter");
    const auto J = dense(impl.first.jac_x.pattern, expr_testing::run_tape(impl.jac_x, native, 0.0, x, p));
    const auto Jp = dense(impl.first.jac_p.pattern, expr_testing::run_tape(impl.jac_p, native, 0.0, x, p));
    expect_value(J[0], c.fx);
    expect_value(Jp[0], c.fh);
    expect_value(Jp[1], c.fK);
  }
}

// Forward mode with state and parameter directions, reverse mode with
// weights, at each lane width: the rules of the lanes, not the symbolic ones.
TEST_P(PowersAtZero, TangentsAndAdjointsAtEveryLaneWidthAreTheLimits) {
  const PowerCase& c = power_cases()[GetParam()];
  auto m = model_of(c);
  const auto& impl = expr_model_internals(*m);
  const double x = c.x, p[2] = {c.h, 0.5};
  for (int width : {1, 4, 8}) {
    if (width > widest_expr_lane_width()) continue;
    SCOPED_TRACE("lane width " + std::to_string(width));
    expr::Registers regs;
    // Directions (dx, dh, dK) = e_h and e_K. Where J_x is infinite, J v is
    // Inf * 0 = NaN: not finite, as J v is in any product with J.
    const std::vector<double> Vx = {0.0, 0.0}, Vp = {1.0, 0.0, 0.0, 1.0};
    double tangent[2];
    expr::evaluate_tangents(impl.rhs_adjoint, *expr::lane_kernels(width), regs, 0.0, &x, p, 2,
                            Vx.data(), Vp.data(), tangent);
    if (std::isinf(c.fx)) {
      EXPECT_FALSE(std::isfinite(tangent[0]) || std::isfinite(tangent[1]));
    } else {
      expect_value(tangent[0], c.fh);
      expect_value(tangent[1], c.fK);
    }
    const double one = 1.0;
    double along_x;
    expr::evaluate_tangents(impl.rhs_adjoint, *expr::lane_kernels(width), regs, 0.0, &x, p, 1,
                            &one, nullptr, &along_x);
    expect_value(along_x, c.fx);
    double wx, wp[2];
    expr::evaluate_adjoints(impl.rhs_adjoint, *expr::lane_kernels(width), regs, 0.0, &x, p, 1,
                            &one, &wx, wp);
    expect_value(wx, c.fx);
    expect_value(wp[0], c.fh);
    expect_value(wp[1], c.fK);
  }
}

INSTANTIATE_TEST_SUITE_P(Limits, PowersAtZero, ::testing::Range<std::size_t>(0, power_cases().size()),
                         [](const auto& param_info) { return std::string(power_cases()[param_info.param].name); });

// odeSD's xddot = J_x f and its Jacobians at x = 0 for exponents of at least
// 2, where every factor of J_x f and of its derivatives is finite: all 0
// (xddot is O(x^3) for x^2 and for hill(x, K, 2)).
TEST(PowersAtZeroSecondOrder, XddotAndItsJacobiansAreZeroForSquaresAndHillTerms) {
  for (const char* rhs : {"x^h", "hill(x, K, h)", "x^(h + 1)"}) {
    SCOPED_TRACE(rhs);
    auto m = load_ode_text(std::string("param h = 2\nparam K = 0.5\nstate x = 0\ndx/dt = ") + rhs +
                               "\n",
                           "second_order");
    const SecondDerivatives* d = m->second_derivatives();
    ASSERT_NE(d, nullptr);
    const double x = 0.0, p[2] = {2.0, 0.5};
    double xdd, J, Jp[2];
    d->xddot(0.0, &x, p, &xdd);
    d->xddot_jac_x(0.0, &x, p, &J);
    d->xddot_jac_p(0.0, &x, p, Jp);
    EXPECT_EQ(xdd, 0.0);
    EXPECT_EQ(J, 0.0);
    EXPECT_EQ(Jp[0], 0.0);
    EXPECT_EQ(Jp[1], 0.0);
  }
}

// Exponent 1 through a parameter: d(h x^(h-1))/dx = h (h-1) x^(h-2) is
// 1 * 0 * Inf at x = 0, where the derivative of J_x = 1 is 0. For x' = x^h,
// xddot = J_x f = 0, its Jacobian J_x^2 = 1, and its derivative in h is 0
// (x^(2h-1) (1 + 2h ln x) -> 0).
TEST(PowersAtZeroSecondOrder, AFirstPowerThroughAParameterHasTheLimits) {
  auto m = load_ode_text("param h = 1\nparam K = 0.5\nstate x = 0\ndx/dt = x^h\n", "first_power");
  const SecondDerivatives* d = m->second_derivatives();
  ASSERT_NE(d, nullptr);
  const double x = 0.0, p[2] = {1.0, 0.5};
  double xdd, J, Jp[2];
  d->xddot(0.0, &x, p, &xdd);
  d->xddot_jac_x(0.0, &x, p, &J);
  d->xddot_jac_p(0.0, &x, p, Jp);
  EXPECT_EQ(xdd, 0.0);
  EXPECT_EQ(J, 1.0);
  EXPECT_EQ(Jp[0], 0.0);
  EXPECT_EQ(Jp[1], 0.0);
}

// The limit at a = b = 0 only: at x = 2 and h = 0, xddot = h x^(2h-1) moves
// with h as x^(2h-1) = 1/2 (a test of b alone took it for 0 at every x,
// and odesd's steps on x' = x^h multiplied 200-fold).
TEST(PowersAtZeroSecondOrder, AZerothPowerAwayFromZeroMovesWithItsExponent) {
  auto m = load_ode_text("param h = 0\nstate x = 2\ndx/dt = x^h\n", "zeroth_power");
  const SecondDerivatives* d = m->second_derivatives();
  ASSERT_NE(d, nullptr);
  const double x = 2.0, h = 0.0;
  double xdd, J, Jp;
  d->xddot(0.0, &x, &h, &xdd);
  d->xddot_jac_x(0.0, &x, &h, &J);
  d->xddot_jac_p(0.0, &x, &h, &Jp);
  EXPECT_EQ(xdd, 0.0);
  EXPECT_EQ(J, 0.0);
  EXPECT_DOUBLE_EQ(Jp, 0.5);
}

// Integer constant exponents stay the multiplication path (powi): no pow,
// no log, no select in f or in its derivatives.
TEST(PowersAtZeroFastPath, IntegerConstantExponentsNeverReachPow) {
  auto m = load_ode_text("param K = 0.5\nstate x = 0\ndx/dt = K*x^2 + x^3/(K^2 + x^2)\n", "powi");
  const auto& impl = expr_model_internals(*m);
  for (const expr::Tape* tape : {&impl.rhs, &impl.rhs_adjoint, &impl.jac_x, &impl.jac_p})
    for (const expr::Instr& in : tape->code) {
      EXPECT_NE(in.op(), expr::Op::pow);
      EXPECT_NE(in.op(), expr::Op::log);
      EXPECT_NE(in.op(), expr::Op::select);
    }
  const double x = 0.0, p = 0.5;
  double J;
  m->jac_x(0.0, &x, &p, &J);
  EXPECT_EQ(J, 0.0);
}

}  // namespace
}  // namespace odesens
