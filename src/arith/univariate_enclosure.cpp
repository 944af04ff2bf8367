// Composition of a model with a univariate function (apply, pow_real) and
// the operations built on it (powi, div), plus abs/min/max.
//
// Chebyshev basis (Rajyaguru, Villanueva, Houska and Chachuat 2017,
// section 3.2): interpolate g at the q+1 Chebyshev nodes of the range
// [lo, hi] of the model, compose the interpolant sum c_k T_k(u) with the
// model u of the scaled argument by the Clenshaw recurrence, and bound the
// interpolation error by (hi-lo)^(q+1) / (2^(2q+1) (q+1)!) max|g^(q+1)|.
// Taylor basis (Makino and Berz 2003): expand g at the constant term c of
// the model, compose by Horner, and add the Lagrange remainder
// g^(q+1)(range)/(q+1)! * B(a - c)^(q+1).
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <utility>

#include "arith/poly_model_impl.hpp"
#include "arith/taylor_coefficients.hpp"
#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::arith {
namespace {

using boost::numeric::hull;
using boost::numeric::median;

[[noreturn]] void unbounded(const char* name, const std::string& why, const Interval& X) {
  throw Error(Status::unbounded, std::string(name) + " of a range that " + why + ": " + range_text(X));
}

// Domain checks: the range must lie where g and all its derivatives are
// bounded (poly_model.hpp, header comment).
void check_domain(UnaryFunction f, bool power, const char* name, const Interval& X) {
  const double lo = X.lower(), hi = X.upper();
  if (power) {
    if (lo <= 0.0) unbounded(name, "reaches 0 or below", X);
    return;
  }
  switch (f) {
    case UnaryFunction::inv:
      if (lo <= 0.0 && hi >= 0.0) unbounded(name, "holds 0", X);
      break;
    case UnaryFunction::log:
    case UnaryFunction::log10:
      if (lo <= 0.0) unbounded(name, "reaches 0 or below", X);
      break;
    case UnaryFunction::sqrt:  // sqrt' is unbounded at 0: only [0, 0] itself is fine
      if (lo < 0.0 || (lo == 0.0 && hi > 0.0)) unbounded(name, "reaches 0 or below", X);
      break;
    case UnaryFunction::asin:
    case UnaryFunction::acos:
      if (lo <= -1.0 || hi >= 1.0) unbounded(name, "reaches -1 or 1 or beyond", X);
      break;
    case UnaryFunction::tan: {
      // Poles at pi/2 + k pi: is there an integer in (X - pi/2) / pi?
      const Interval pi = pi_interval();
      const Interval t = (X - pi / Interval(2.0)) / pi;
      if (std::ceil(t.lower()) <= std::floor(t.upper())) unbounded(name, "holds a pole of tan", X);
      break;
    }
    default:
      break;
  }
}

void coefficients(UnaryFunction f, bool power, double c, const Interval& X, int K, Interval* out) {
  if (power) power_taylor_coefficients(X, c, K, out);
  else taylor_coefficients(f, X, K, out);
}


}  // namespace

void PolyArithmetic::affine_interval(const PolyModel& a, const Interval& alpha, const Interval& beta,
                                     PolyModel& out) const {
  const std::size_t n_mon = impl_->n_mon;
  Interval rem = alpha * a.rem;
  double spill = 0.0;  // sum of the radii left out of the coefficients, rounded up
  out.coef.resize(n_mon);
  for (std::size_t k = 0; k < n_mon; ++k) {
    Interval v = alpha * Interval(a.coef[k]);
    if (k == 0) v += beta;
    const double m = median(v);
    out.coef[k] = m;
    spill += std::max(v.upper() - m, m - v.lower());  // |B_k| <= 1
  }
  out.rem = rem + Interval(-spill, spill);
}

void PolyArithmetic::compose(UnaryFunction f, bool power, double cexp, const PolyModel& a,
                             PolyModel& out) const {
  const char* name = power ? "pow" : function_name(f);
  require_upward(name);
  const Impl& m = *impl_;
  if (a.coef.size() != m.n_mon)
    throw Error(Status::invalid_argument, std::string(name) + ": model of the wrong size");
  const int q = m.q;
  Interval X = bound(a);
  if (!std::isfinite(X.lower()) || !std::isfinite(X.upper())) unbounded(name, "is not finite", X);
  if (!(X.upper() - X.lower() <= m.max_width))
    unbounded(name, "is wider than max_width (" + number_text(m.max_width) + ")", X);
  const double c = a.coef[0];
  if (m.basis == Basis::taylor) X = hull(X, Interval(c));  // the expansion point
  check_domain(f, power, name, X);

  std::array<Interval, kMaxTaylorOrder + 1> g;
  if (X.lower() == X.upper()) {  // a constant: g of it
    coefficients(f, power, cexp, X, 0, g.data());
    set_interval(out, g[0]);
    return;
  }
  // Remainder coefficient g^(q+1)(X)/(q+1)! over the whole range.
  coefficients(f, power, cexp, X, q + 1, g.data());
  const Interval high = g[static_cast<std::size_t>(q) + 1];
  Interval rem(0.0);
  double spill = 0.0;  // radii of the interval coefficients times a bound of |basis|

  PolyModel& result = m.t2;
  if (m.basis == Basis::chebyshev)
    compose_chebyshev(f, power, cexp, a, X, high, rem, spill, result);
  else
    compose_taylor(f, power, cexp, a, high, rem, spill, result);
  rem += Interval(-spill, spill);
  out.coef.assign(result.coef.begin(), result.coef.end());
  out.rem = result.rem + rem;
  double s = std::fabs(out.rem.lower()) + std::fabs(out.rem.upper());
  for (double v : out.coef) s += std::fabs(v);
  if (!std::isfinite(s)) unbounded(name, "gives a result that overflows", X);
}

// Interpolation of g at the Chebyshev nodes x_i = cos(theta_i) of [-1, 1]
// mapped onto X, theta_i = (2i+1) pi / (2(q+1)); discrete orthogonality
// gives c_k = 2/(q+1) sum_i g(y_i) T_k(x_i) (c_0 with 1/(q+1)).
void PolyArithmetic::chebyshev_interpolant(UnaryFunction f, bool power, double cexp,
                                           const Interval& X, Interval* ck) const {
  const Impl& m = *impl_;
  const int q = m.q;
  const double lo = X.lower(), hi = X.upper();
  const Interval width = Interval(hi) - Interval(lo);
  const Interval mid = (Interval(lo) + Interval(hi)) / Interval(2.0);
  const std::size_t nodes = static_cast<std::size_t>(q) + 1;
  std::fill(ck, ck + nodes, Interval(0.0));
  for (std::size_t i = 0; i < nodes; ++i) {
    Interval y = mid + width / Interval(2.0) * m.cheb_node[i];
    y = boost::numeric::intersect(y, X);  // the exact node lies in X
    Interval gy;
    coefficients(f, power, cexp, y, 0, &gy);
    for (std::size_t k = 0; k < nodes; ++k) ck[k] += gy * m.cheb_t[i * nodes + k];
  }
  for (int k = 0; k <= q; ++k) ck[k] *= Interval(k == 0 ? 1.0 : 2.0) / Interval(q + 1);
}

void PolyArithmetic::compose_chebyshev(UnaryFunction f, bool power, double cexp,
                                       const PolyModel& a, const Interval& X,
                                       const Interval& high, Interval& rem, double& spill,
                                       PolyModel& result) const {
  const Impl& m = *impl_;
  const int q = m.q;
  const double lo = X.lower(), hi = X.upper();
  const Interval width = Interval(hi) - Interval(lo);
  std::array<Interval, kMaxTaylorOrder + 1> ck;
  chebyshev_interpolant(f, power, cexp, X, ck.data());
  // Interpolation error (Rajyaguru et al. 2017, eq. (12)).
  const double e =
      magnitude(high * boost::numeric::pow(width, q + 1) / Interval(std::ldexp(1.0, 2 * q + 1)));
  rem += Interval(-e, e);
  // u = (2a - (lo + hi)) / (hi - lo), in [-1, 1] up to rounding.
  PolyModel& u = m.u;
  affine_interval(a, Interval(2.0) / width, -(Interval(lo) + Interval(hi)) / width, u);
  const double U = magnitude(bound(u));
  // |T_k(u)| <= 1 on [-1, 1], <= (U + sqrt(U^2 - 1))^k for |u| <= U > 1.
  const Interval growth =
      U <= 1.0 ? Interval(1.0)
               : Interval(U) + boost::numeric::sqrt(boost::numeric::square(Interval(U)) - 1.0);
  // Clenshaw: b_k = c_k + 2u b_{k+1} - b_{k+2}, f = c_0 + u b_1 - b_2.
  PolyModel& b1 = m.b1;
  PolyModel& b2 = m.b2;
  PolyModel& t = m.t1;
  set_constant(b1, 0.0);
  set_constant(b2, 0.0);
  for (int k = q; k >= 1; --k) {
    const Interval& ckk = ck[static_cast<std::size_t>(k)];
    const double mk = median(ckk);
    spill += magnitude(Interval(std::max(ckk.upper() - mk, mk - ckk.lower())) *
                       boost::numeric::pow(growth, k));
    mul(u, b1, t);
    scale(t, 2.0, t);
    sub(t, b2, t);
    add_interval(t, Interval(mk), t);
    std::swap(b2.coef, b1.coef);
    std::swap(b2.rem, b1.rem);
    std::swap(b1.coef, t.coef);
    std::swap(b1.rem, t.rem);
  }
  const double m0 = median(ck[0]);
  spill += std::max(ck[0].upper() - m0, m0 - ck[0].lower());
  mul(u, b1, t);
  sub(t, b2, t);
  add_interval(t, Interval(m0), result);
}

void PolyArithmetic::compose_taylor(UnaryFunction f, bool power, double cexp, const PolyModel& a,
                                    const Interval& high, Interval& rem, double& spill,
                                    PolyModel& result) const {
  const Impl& m = *impl_;
  const int q = m.q;
  const double c = a.coef[0];
  std::array<Interval, kMaxTaylorOrder + 1> g;
  // Coefficients at the expansion point c, then Horner in d = a - c.
  coefficients(f, power, cexp, Interval(c), q, g.data());
  PolyModel& d = m.u;
  d = a;
  d.coef[0] = 0.0;  // exact
  const Interval D = bound(d);
  const double Dmag = magnitude(D);
  PolyModel& acc = m.b1;
  PolyModel& t = m.t1;
  for (int k = q; k >= 0; --k) {
    const Interval& gk = g[static_cast<std::size_t>(k)];
    const double mk = median(gk);
    spill += magnitude(Interval(std::max(gk.upper() - mk, mk - gk.lower())) *
                       boost::numeric::pow(Interval(Dmag), k));
    if (k == q) {
      set_constant(acc, mk);
    } else {
      mul(acc, d, t);
      add_interval(t, Interval(mk), acc);
    }
  }
  // Lagrange remainder: g^(q+1)(xi)/(q+1)! (a - c)^(q+1), xi in X.
  rem += high * boost::numeric::pow(D, q + 1);
  result = acc;
}

void PolyArithmetic::apply(UnaryFunction f, const PolyModel& a, PolyModel& out) const {
  compose(f, false, 0.0, a, out);
}

void PolyArithmetic::div(const PolyModel& a, const PolyModel& b, PolyModel& out) const {
  apply(UnaryFunction::inv, b, impl_->inv_scratch);
  mul(a, impl_->inv_scratch, out);
}

// Binary powering: about log2(n) squarings.
void PolyArithmetic::powi(const PolyModel& a, int n, PolyModel& out) const {
  require_upward("powi");
  const Impl& m = *impl_;
  if (n == 0) {
    set_constant(out, 1.0);
    return;
  }
  long long e = n;
  if (e < 0) {
    apply(UnaryFunction::inv, a, m.pow_base);
    e = -e;
  } else {
    m.pow_base = a;
  }
  bool have = false;
  while (e > 0) {
    if (e & 1) {
      if (have) mul(m.pow_acc, m.pow_base, m.pow_acc);
      else m.pow_acc = m.pow_base;
      have = true;
    }
    e >>= 1;
    if (e > 0) mul(m.pow_base, m.pow_base, m.pow_base);
  }
  out = m.pow_acc;
}

void PolyArithmetic::pow_real(const PolyModel& a, double c, PolyModel& out) const {
  // Integer exponents by powering (negative ones need only a != 0).
  if (c == std::floor(c) && std::fabs(c) <= static_cast<double>(INT_MAX)) {
    powi(a, static_cast<int>(c), out);
    return;
  }
  compose(UnaryFunction::exp, true, c, a, out);
}

void PolyArithmetic::abs(const PolyModel& a, PolyModel& out) const {
  require_upward("abs");
  const Interval A = bound(a);
  if (A.lower() >= 0.0) {
    if (&out != &a) out = a;
  } else if (A.upper() <= 0.0) {
    neg(a, out);
  } else {
    set_interval(out, Interval(0.0, std::max(-A.lower(), A.upper())));
  }
}

void PolyArithmetic::min(const PolyModel& a, const PolyModel& b, PolyModel& out) const {
  require_upward("min");
  sub(a, b, impl_->diff);
  const Interval D = bound(impl_->diff);
  if (D.upper() <= 0.0) {
    if (&out != &a) out = a;
  } else if (D.lower() >= 0.0) {
    if (&out != &b) out = b;
  } else {
    const Interval A = bound(a), B = bound(b);
    set_interval(out, Interval(std::min(A.lower(), B.lower()), std::min(A.upper(), B.upper())));
  }
}

void PolyArithmetic::max(const PolyModel& a, const PolyModel& b, PolyModel& out) const {
  require_upward("max");
  sub(a, b, impl_->diff);
  const Interval D = bound(impl_->diff);
  if (D.lower() >= 0.0) {
    if (&out != &a) out = a;
  } else if (D.upper() <= 0.0) {
    if (&out != &b) out = b;
  } else {
    const Interval A = bound(a), B = bound(b);
    set_interval(out, Interval(std::max(A.lower(), B.lower()), std::max(A.upper(), B.upper())));
  }
}

void PolyArithmetic::Impl::build_chebyshev_nodes() {
  const std::size_t nodes = static_cast<std::size_t>(q) + 1;
  const Interval pi = pi_interval();
  cheb_node.assign(nodes, Interval(0.0));
  cheb_t.assign(nodes * nodes, Interval(0.0));
  for (std::size_t i = 0; i < nodes; ++i) {
    const Interval theta = pi * Interval(2.0 * static_cast<double>(i) + 1.0) /
                           Interval(2.0 * static_cast<double>(nodes));
    cheb_node[i] = cos(theta);
    for (std::size_t k = 0; k < nodes; ++k)
      cheb_t[i * nodes + k] = cos(Interval(static_cast<double>(k)) * theta);
  }
}

}  // namespace odesens::arith
