// Interval Taylor coefficients of the univariate functions
// (taylor_coefficients.hpp). Notation: x, u are truncated series,
// x = x_0 + x_1 t + ..., u = g(x); the recurrences come from comparing the
// coefficients of t^(k-1) in the function's differential equation.
#include "arith/taylor_coefficients.hpp"

#include <array>

#include "odesens/status.hpp"

namespace odesens::arith {
namespace {

using Series = std::array<Interval, kMaxTaylorOrder + 2>;

Interval I(double v) { return Interval(v); }

// sum_{j=1}^{k} j x_j v_{k-j} / k: the k-th coefficient of the integral of
// v x' (u' = v x'  =>  k u_k = sum j x_j v_{k-j}).
Interval integral_term(const Series& x, const Series& v, int k) {
  Interval s(0.0);
  for (int j = 1; j <= k; ++j) s += I(j) * x[j] * v[k - j];
  return s / I(k);
}

// Coefficient m of u * u, with the middle term as a square (tighter).
Interval square_term(const Series& u, int m) {
  Interval s(0.0);
  for (int i = 0; 2 * i < m; ++i) s += I(2.0) * u[i] * u[m - i];
  if (m % 2 == 0) s += boost::numeric::square(u[m / 2]);
  return s;
}

// Coefficients 0..K-1 of x' / w (series division).
void derivative_over(const Series& x, const Series& w, int K, Series& q) {
  for (int m = 0; m < K; ++m) {
    Interval s = I(m + 1) * x[m + 1];  // (x')_m
    for (int i = 1; i <= m; ++i) s -= w[i] * q[m - i];
    q[m] = s / w[0];
  }
}

// Coefficients of sqrt(z) (w^2 = z).
void sqrt_series(const Series& z, int K, Series& w) {
  w[0] = boost::numeric::sqrt(z[0]);
  for (int m = 1; m <= K; ++m) {
    Interval s = z[m];
    for (int i = 1; i < m; ++i) s -= w[i] * w[m - i];
    w[m] = s / (I(2.0) * w[0]);
  }
}

// u = x^c: x u' = c u x' gives k x_0 u_k = sum_{j=1}^k (c j - (k - j)) x_j u_{k-j}.
void power_series(const Series& x, const Interval& u0, const Interval& c, int K, Series& u) {
  u[0] = u0;
  for (int k = 1; k <= K; ++k) {
    Interval s(0.0);
    for (int j = 1; j <= k; ++j) s += (c * I(j) - I(k - j)) * x[j] * u[k - j];
    u[k] = s / (I(k) * x[0]);
  }
}

void series(UnaryFunction g, const Series& x, int K, Series& u) {
  using namespace boost::numeric;
  Series v{}, w{}, q{};
  switch (g) {
    case UnaryFunction::exp:  // u' = u x'
      u[0] = exp(x[0]);
      for (int k = 1; k <= K; ++k) u[k] = integral_term(x, u, k);
      return;
    case UnaryFunction::log:  // x u' = x'
    case UnaryFunction::log10: {
      u[0] = g == UnaryFunction::log ? log(x[0]) : odesens::arith::log10(x[0]);
      for (int k = 1; k <= K; ++k) {
        Interval s = I(k) * x[k];
        for (int j = 1; j < k; ++j) s -= I(j) * u[j] * x[k - j];
        u[k] = s / (I(k) * x[0]);
      }
      if (g == UnaryFunction::log10) {
        const Interval l10 = ln10_interval();
        for (int k = 1; k <= K; ++k) u[k] /= l10;
      }
      return;
    }
    case UnaryFunction::sqrt:
      power_series(x, sqrt(x[0]), I(0.5), K, u);
      return;
    case UnaryFunction::inv:  // x u = 1
      u[0] = I(1.0) / x[0];
      for (int k = 1; k <= K; ++k) {
        Interval s(0.0);
        for (int j = 1; j <= k; ++j) s += x[j] * u[k - j];
        u[k] = -s / x[0];
      }
      return;
    case UnaryFunction::sin:
    case UnaryFunction::cos:  // s' = c x', c' = -s x'
    case UnaryFunction::sinh:
    case UnaryFunction::cosh: {  // s' = c x', c' = s x'
      const bool hyperbolic = g == UnaryFunction::sinh || g == UnaryFunction::cosh;
      v[0] = hyperbolic ? sinh(x[0]) : sin(x[0]);  // sine-like
      w[0] = hyperbolic ? cosh(x[0]) : cos(x[0]);  // cosine-like
      for (int k = 1; k <= K; ++k) {
        const Interval s = integral_term(x, w, k);
        const Interval c = integral_term(x, v, k);
        v[k] = s;
        w[k] = hyperbolic ? c : -c;
      }
      u = g == UnaryFunction::sin || g == UnaryFunction::sinh ? v : w;
      return;
    }
    case UnaryFunction::tan:     // u' = (1 + u^2) x'
    case UnaryFunction::tanh: {  // u' = (1 - u^2) x'
      const double sign = g == UnaryFunction::tan ? 1.0 : -1.0;
      u[0] = g == UnaryFunction::tan ? tan(x[0]) : tanh(x[0]);
      for (int k = 0; k <= K; ++k) {
        if (k > 0) u[k] = integral_term(x, v, k);
        v[k] = I(sign) * square_term(u, k);
        if (k == 0) v[0] += I(1.0);
      }
      return;
    }
    case UnaryFunction::atan:  // u' = x' / (1 + x^2)
      for (int m = 0; m <= K; ++m) w[m] = square_term(x, m);
      w[0] += I(1.0);
      derivative_over(x, w, K, q);
      u[0] = atan(x[0]);
      for (int k = 1; k <= K; ++k) u[k] = q[k - 1] / I(k);
      return;
    case UnaryFunction::asin:
    case UnaryFunction::acos: {  // u' = +-x' / sqrt(1 - x^2)
      for (int m = 0; m <= K; ++m) v[m] = -square_term(x, m);
      v[0] += I(1.0);
      sqrt_series(v, K, w);
      derivative_over(x, w, K, q);
      const bool is_asin = g == UnaryFunction::asin;
      u[0] = is_asin ? asin(x[0]) : acos(x[0]);
      for (int k = 1; k <= K; ++k) u[k] = (is_asin ? q[k - 1] : -q[k - 1]) / I(k);
      return;
    }
  }
}

Series identity_series(const Interval& X) {
  Series x;
  x.fill(Interval(0.0));
  x[0] = X;
  x[1] = Interval(1.0);
  return x;
}

void check_order(int K) {
  if (K < 0 || K > kMaxTaylorOrder)
    throw Error(Status::internal_error, "taylor_coefficients: order out of range");
}

}  // namespace

void taylor_coefficients(UnaryFunction g, const Interval& X, int K, Interval* out) {
  check_order(K);
  Series u;
  u.fill(Interval(0.0));
  series(g, identity_series(X), K, u);
  for (int k = 0; k <= K; ++k) out[k] = u[k];
}

void power_taylor_coefficients(const Interval& X, double c, int K, Interval* out) {
  check_order(K);
  Series u;
  u.fill(Interval(0.0));
  power_series(identity_series(X), pow_real(X, c), Interval(c), K, u);
  for (int k = 0; k <= K; ++k) out[k] = u[k];
}

Interval ln10_interval() {
  VerifiedRounding rnd;
  return Interval(rnd.log_down(10.0), rnd.log_up(10.0));
}

}  // namespace odesens::arith
