// Verified intervals (interval.hpp): every function's enclosure holds the
// 200-bit MPFR value, on point intervals and on small intervals, and the
// rounding scope restores round-to-nearest.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <random>
#include <stdexcept>

#include "arith/mpfr_reference.hpp"
#include "arith/interval.hpp"
#include "odesens/status.hpp"

namespace odesens::arith {
namespace {

using test::Mp;

struct Case {
  UnaryFunction f;
  double lo, hi;     // sampled domain
  bool log_uniform;  // sample log-uniformly in (lo, hi], lo > 0
};

const Case kCases[] = {
    {UnaryFunction::exp, -700, 700, false},  {UnaryFunction::log, 1e-300, 1e300, true},
    {UnaryFunction::log10, 1e-300, 1e300, true}, {UnaryFunction::sqrt, 1e-300, 1e300, true},
    {UnaryFunction::sin, -1e3, 1e3, false},  {UnaryFunction::cos, -1e3, 1e3, false},
    {UnaryFunction::tan, -1e3, 1e3, false},  {UnaryFunction::sinh, -700, 700, false},
    {UnaryFunction::cosh, -700, 700, false}, {UnaryFunction::tanh, -30, 30, false},
    {UnaryFunction::asin, -1, 1, false},     {UnaryFunction::acos, -1, 1, false},
    {UnaryFunction::atan, -1e6, 1e6, false},
};

Interval interval_function(UnaryFunction f, const Interval& x) {
  using namespace boost::numeric;
  switch (f) {
    case UnaryFunction::exp: return exp(x);
    case UnaryFunction::log: return log(x);
    case UnaryFunction::log10: return odesens::arith::log10(x);
    case UnaryFunction::sqrt: return sqrt(x);
    case UnaryFunction::sin: return sin(x);
    case UnaryFunction::cos: return cos(x);
    case UnaryFunction::tan: return tan(x);
    case UnaryFunction::sinh: return sinh(x);
    case UnaryFunction::cosh: return cosh(x);
    case UnaryFunction::tanh: return tanh(x);
    case UnaryFunction::asin: return asin(x);
    case UnaryFunction::acos: return acos(x);
    case UnaryFunction::atan: return atan(x);
    case UnaryFunction::inv: return Interval(1.0) / x;
  }
  return x;
}

double sample(const Case& c, std::mt19937_64& rng) {
  if (c.log_uniform) {
    std::uniform_real_distribution<double> e(std::log(c.lo), std::log(c.hi));
    return std::exp(e(rng));
  }
  std::uniform_real_distribution<double> u(c.lo, c.hi);
  return u(rng);
}

// f's enclosure of [x, x] and of [x, x + dx] holds f at x, x + dx and the
// midpoint, for n random x.
void check_function(const Case& c, int n) {
  std::mt19937_64 rng(1234 + static_cast<int>(c.f));
  Mp x, y;
  int failures = 0;
  for (int i = 0; i < n && failures < 5; ++i) {
    const double a = sample(c, rng);
    double b = a + std::fabs(a) * std::ldexp(1.0, -20 - static_cast<int>(rng() % 20));
    if (b > c.hi) b = c.hi;
    UpwardRounding scope;
    const Interval point_enclosure = interval_function(c.f, Interval(a));
    const Interval wide_enclosure = interval_function(c.f, Interval(a, b));
    mpfr_set_d(x.v, a, MPFR_RNDN);
    test::mpfr_apply(c.f, y.v, x.v);
    if (!test::contains(point_enclosure, y.v) || !test::contains(wide_enclosure, y.v)) {
      ADD_FAILURE() << function_name(c.f) << "(" << a << ") not enclosed";
      ++failures;
    }
    for (double p : {b, 0.5 * a + 0.5 * b}) {
      if (p < a || p > b) continue;
      mpfr_set_d(x.v, p, MPFR_RNDN);
      test::mpfr_apply(c.f, y.v, x.v);
      if (!test::contains(wide_enclosure, y.v)) {
        ADD_FAILURE() << function_name(c.f) << " over [" << a << ", " << b << "] misses " << p;
        ++failures;
      }
    }
  }
}

void check_pow(int n) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> le(std::log(1e-5), std::log(1e5)), ce(-4.0, 4.0);
  Mp x, y, cc;
  int failures = 0;
  for (int i = 0; i < n && failures < 5; ++i) {
    const double a = std::exp(le(rng)), c = ce(rng);
    const double b = a * (1 + std::ldexp(1.0, -30));
    UpwardRounding scope;
    const Interval p = pow_real(Interval(a), c), w = pow_real(Interval(a, b), c);
    mpfr_set_d(cc.v, c, MPFR_RNDN);
    for (double v : {a, b}) {
      mpfr_set_d(x.v, v, MPFR_RNDN);
      mpfr_pow(y.v, x.v, cc.v, MPFR_RNDN);
      if ((v == a && !test::contains(p, y.v)) || !test::contains(w, y.v)) {
        ADD_FAILURE() << v << "^" << c << " not enclosed";
        ++failures;
      }
    }
  }
}

TEST(Interval, FunctionsHoldTheMpfrValue) {
  for (const Case& c : kCases) check_function(c, 10000);
  check_pow(10000);
}

TEST(IntervalSlow, FunctionsHoldTheMpfrValueAt100000Points) {
  for (const Case& c : kCases) check_function(c, 100000);
  check_pow(100000);
}

TEST(Interval, EnclosesAFunctionOfAWideRange) {
  UpwardRounding scope;
  const Interval s = boost::numeric::sin(Interval(0.0, 4.0));
  EXPECT_EQ(s.upper(), 1.0);
  EXPECT_LT(s.lower(), std::sin(4.0));
  const Interval t = boost::numeric::tan(Interval(1.0, 2.0));  // holds pi/2
  EXPECT_TRUE(std::isinf(t.upper()));
}

TEST(UpwardRoundingScope, RestoresNearestAfterwardsAndOnException) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  {
    UpwardRounding scope;
    EXPECT_EQ(std::fegetround(), FE_UPWARD);
    EXPECT_TRUE(rounding_is_upward());
  }
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  EXPECT_FALSE(rounding_is_upward());
  try {
    UpwardRounding scope;
    throw std::runtime_error("leave the scope");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  // Scopes do not nest: a second one inside the first is a bug.
  UpwardRounding outer;
  EXPECT_THROW(UpwardRounding inner, Error);
}

}  // namespace
}  // namespace odesens::arith
