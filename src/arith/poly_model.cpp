// Construction, the ring operations and evaluation of polynomial models
// (poly_model.hpp). Coefficients are doubles; every rounding error is
// bounded (Higham, "Accuracy and Stability of Numerical Algorithms", 3.1:
// a sum of m products is off by at most gamma_{m+1} times the sum of their
// magnitudes, plus the absolute underflow error) and, since |B_k| <= 1 on
// the box in both bases, added to the remainder as it is.
#include "arith/poly_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "arith/poly_model_impl.hpp"
#include "odesens/status.hpp"

namespace odesens::arith {
namespace {

constexpr double kUnit = 0x1p-52;        // relative rounding error, directed rounding
constexpr double kUnderflow = 0x1p-1074;  // absolute error of a subnormal result

void check_size(const PolyModel& a, std::size_t n_mon, const char* op) {
  if (a.coef.size() != n_mon)
    throw Error(Status::invalid_argument, std::string(op) + ": model of " +
                                              std::to_string(a.coef.size()) + " coefficients, the arithmetic has " +
                                              std::to_string(n_mon));
}

// Interval [-e, e] for an error bound e >= 0.
Interval symmetric(double e) { return Interval(-e, e); }

// Throws unbounded when a result is not finite (an overflow), so that no
// NaN or Inf ever leaves the arithmetic.
void check_finite(const PolyModel& out, const char* op) {
  double s = std::fabs(out.rem.lower()) + std::fabs(out.rem.upper());
  for (double c : out.coef) s += std::fabs(c);
  if (!std::isfinite(s))
    throw Error(Status::unbounded, std::string(op) + ": the result overflows");
}

}  // namespace

double gamma_bound(double m) {
  const double mu = m * kUnit;          // rounded up
  const double denominator = -(mu - 1.0);  // 1 - mu rounded down
  return mu / denominator;               // rounded up
}

void require_upward(const char* operation) {
  if (!rounding_is_upward())
    throw Error(Status::internal_error,
                std::string("polynomial model operation ") + operation +
                    " outside an UpwardRounding scope");
}

std::string range_text(const Interval& x) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "[%.10g, %.10g]", x.lower(), x.upper());
  return buf;
}

const char* function_name(UnaryFunction f) {
  switch (f) {
    case UnaryFunction::exp: return "exp";
    case UnaryFunction::log: return "log";
    case UnaryFunction::log10: return "log10";
    case UnaryFunction::sqrt: return "sqrt";
    case UnaryFunction::sin: return "sin";
    case UnaryFunction::cos: return "cos";
    case UnaryFunction::tan: return "tan";
    case UnaryFunction::sinh: return "sinh";
    case UnaryFunction::cosh: return "cosh";
    case UnaryFunction::tanh: return "tanh";
    case UnaryFunction::asin: return "asin";
    case UnaryFunction::acos: return "acos";
    case UnaryFunction::atan: return "atan";
    case UnaryFunction::inv: return "inv";
  }
  return "?";
}

PolyArithmetic::PolyArithmetic(std::size_t n_vars, int order, Basis basis, RangeBounder bounder,
                               double max_width)
    : impl_(std::make_shared<Impl>()) {
  if (order < 0 || order > 12)
    throw Error(Status::option_type,
                "polynomial model order must be in 0..12, got " + std::to_string(order));
  if (!(max_width > 0.0))
    throw Error(Status::option_type, "polynomial model max_width must be > 0");
  Impl& m = *impl_;
  m.n = n_vars;
  m.q = order;
  m.basis = basis;
  m.bounder = bounder;
  m.max_width = max_width;
  m.build_monomials();
  m.build_product_table();
  // The Bernstein matrices and the Chebyshev nodes are computed in
  // interval arithmetic.
  auto build_tables = [&m, basis, bounder] {
    if (bounder == RangeBounder::bernstein) m.build_bernstein();
    if (basis == Basis::chebyshev) m.build_chebyshev_nodes();
  };
  if (rounding_is_upward()) {
    build_tables();
  } else {
    UpwardRounding scope;
    build_tables();
  }
  m.acc.assign(m.n_mon, 0.0);
  m.abs_acc.assign(m.n_mon, 0.0);
  m.count.assign(m.n_mon, 0);
  m.eval_basis.assign(m.n * static_cast<std::size_t>(m.q + 1), Interval(0.0));
  for (PolyModel* s : {&m.u, &m.b1, &m.b2, &m.t1, &m.t2, &m.inv_scratch, &m.pow_base, &m.pow_acc,
                       &m.diff, &m.high})
    *s = make();
}

std::size_t PolyArithmetic::n_vars() const { return impl_->n; }
int PolyArithmetic::order() const { return impl_->q; }
Basis PolyArithmetic::basis() const { return impl_->basis; }
RangeBounder PolyArithmetic::bounder() const { return impl_->bounder; }
std::size_t PolyArithmetic::n_monomials() const { return impl_->n_mon; }
int PolyArithmetic::exponent(std::size_t k, std::size_t j) const { return impl_->exps[k * impl_->n + j]; }
int PolyArithmetic::degree(std::size_t k) const { return impl_->deg[k]; }
std::size_t PolyArithmetic::index_of(const int* e) const { return impl_->index_of(e); }

PolyModel PolyArithmetic::make() const {
  PolyModel p;
  p.coef.assign(impl_->n_mon, 0.0);
  return p;
}

void PolyArithmetic::set_constant(PolyModel& out, double c) const {
  out.coef.assign(impl_->n_mon, 0.0);
  out.coef[0] = c;
  out.rem = Interval(0.0);
}

void PolyArithmetic::set_interval(PolyModel& out, const Interval& v) const {
  require_upward("set_interval");
  if (!std::isfinite(v.lower()) || !std::isfinite(v.upper()))
    throw Error(Status::unbounded, "a range that is not finite: " + range_text(v));
  const double mid = boost::numeric::median(v);
  set_constant(out, mid);
  out.rem = v - Interval(mid);  // outward rounded: v is in mid + rem
}

void PolyArithmetic::set_affine(PolyModel& out, std::size_t j, double c0, double c1) const {
  if (j >= impl_->n)
    throw Error(Status::invalid_argument, "set_affine: variable " + std::to_string(j) + " of " +
                                              std::to_string(impl_->n));
  set_constant(out, c0);
  if (impl_->q >= 1) {
    out.coef[impl_->lin_index[j]] = c1;  // T_1(xi) = xi in both bases
  } else {
    require_upward("set_affine");
    out.rem = Interval(-std::fabs(c1), std::fabs(c1));
  }
}

void PolyArithmetic::add(const PolyModel& a, const PolyModel& b, PolyModel& out) const {
  require_upward("add");
  check_size(a, impl_->n_mon, "add");
  check_size(b, impl_->n_mon, "add");
  const Interval rem = a.rem + b.rem;
  double mag = 0.0;
  out.coef.resize(impl_->n_mon);
  for (std::size_t k = 0; k < impl_->n_mon; ++k) {
    out.coef[k] = a.coef[k] + b.coef[k];
    mag += std::fabs(out.coef[k]);  // sums are exact when subnormal
  }
  out.rem = rem + symmetric(kUnit * mag);
  check_finite(out, "add");
}

void PolyArithmetic::sub(const PolyModel& a, const PolyModel& b, PolyModel& out) const {
  require_upward("sub");
  check_size(a, impl_->n_mon, "sub");
  check_size(b, impl_->n_mon, "sub");
  const Interval rem = a.rem - b.rem;
  double mag = 0.0;
  out.coef.resize(impl_->n_mon);
  for (std::size_t k = 0; k < impl_->n_mon; ++k) {
    out.coef[k] = a.coef[k] - b.coef[k];
    mag += std::fabs(out.coef[k]);
  }
  out.rem = rem + symmetric(kUnit * mag);
  check_finite(out, "sub");
}

void PolyArithmetic::neg(const PolyModel& a, PolyModel& out) const {
  check_size(a, impl_->n_mon, "neg");
  out.coef.resize(impl_->n_mon);
  for (std::size_t k = 0; k < impl_->n_mon; ++k) out.coef[k] = -a.coef[k];  // exact
  out.rem = -a.rem;
}

void PolyArithmetic::scale(const PolyModel& a, double c, PolyModel& out) const {
  require_upward("scale");
  check_size(a, impl_->n_mon, "scale");
  const Interval rem = a.rem * Interval(c);
  double mag = 0.0;
  out.coef.resize(impl_->n_mon);
  for (std::size_t k = 0; k < impl_->n_mon; ++k) {
    out.coef[k] = a.coef[k] * c;
    mag += std::fabs(out.coef[k]);
  }
  const double underflow = static_cast<double>(impl_->n_mon) * kUnderflow;
  out.rem = rem + symmetric(kUnit * mag + underflow);
  check_finite(out, "scale");
}

void PolyArithmetic::add_interval(const PolyModel& a, const Interval& v, PolyModel& out) const {
  require_upward("add_interval");
  check_size(a, impl_->n_mon, "add_interval");
  if (!std::isfinite(v.lower()) || !std::isfinite(v.upper()))
    throw Error(Status::unbounded, "add_interval: a range that is not finite: " + range_text(v));
  const double mid = boost::numeric::median(v);
  if (&out != &a) out = a;
  out.coef[0] = a.coef[0] + mid;
  out.rem = a.rem + (v - Interval(mid)) + symmetric(kUnit * std::fabs(out.coef[0]));
  check_finite(out, "add_interval");
}

// Product (Rajyaguru et al. 2017, section 3): the polynomial part keeps the
// terms of degree <= q (for Chebyshev also the lower-degree halves of the
// products of high-degree terms), the rest is bounded into the remainder:
//   R = B(P_a) R_b + B(P_b) R_a + R_a R_b + B(dropped) + rounding.
// The dropped terms are bounded naively (|c| |B| <= |c|).
void PolyArithmetic::mul(const PolyModel& a, const PolyModel& b, PolyModel& out) const {
  require_upward("mul");
  const Impl& m = *impl_;
  check_size(a, m.n_mon, "mul");
  check_size(b, m.n_mon, "mul");
  Interval rem = a.rem * b.rem;
  if (b.rem.lower() != 0.0 || b.rem.upper() != 0.0) rem += m.bound_polynomial(a) * b.rem;
  if (a.rem.lower() != 0.0 || a.rem.upper() != 0.0) rem += m.bound_polynomial(b) * a.rem;

  std::fill(m.acc.begin(), m.acc.end(), 0.0);
  std::fill(m.abs_acc.begin(), m.abs_acc.end(), 0.0);
  std::fill(m.count.begin(), m.count.end(), 0u);
  double dropped = 0.0;  // sum of |terms| above the order, rounded up
  double n_terms = 0.0;
  const bool table = !m.offset.empty();
  for (std::size_t i = 0; i < m.n_mon; ++i) {
    const double ai = a.coef[i];
    if (ai == 0.0) continue;
    for (std::size_t k = 0; k < m.n_mon; ++k) {
      const double bk = b.coef[k];
      if (bk == 0.0) continue;
      const double p = ai * bk;
      const double pabs = std::fabs(ai) * std::fabs(bk);  // >= |ai bk| (rounded up)
      const ProductTerm* t;
      std::size_t nt;
      if (table) {
        const std::size_t pair = i * m.n_mon + k;
        t = &m.terms[m.offset[pair]];
        nt = m.offset[pair + 1] - m.offset[pair];
      } else {
        nt = m.product_terms(i, k, m.pair_terms.data());
        t = m.pair_terms.data();
      }
      n_terms += static_cast<double>(nt);
      for (std::size_t s = 0; s < nt; ++s) {
        const double c = static_cast<double>(t[s].coef);
        if (t[s].target == kAbove) {
          dropped += pabs * c;
        } else {
          m.acc[t[s].target] += p * c;
          m.abs_acc[t[s].target] += pabs * c;
          ++m.count[t[s].target];
        }
      }
    }
  }
  // Rounding: each coefficient is a sum of count products (and a scaling
  // by 2^-m, exact unless it underflows).
  double err = 2.0 * n_terms * kUnderflow;
  for (std::size_t k = 0; k < m.n_mon; ++k)
    if (m.count[k] > 0) err += gamma_bound(static_cast<double>(m.count[k]) + 1.0) * m.abs_acc[k];
  out.coef.assign(m.acc.begin(), m.acc.end());  // no allocation: same size
  out.rem = rem + symmetric(dropped + err);
  check_finite(out, "mul");
}

Interval PolyArithmetic::bound_polynomial(const PolyModel& a) const {
  require_upward("bound_polynomial");
  check_size(a, impl_->n_mon, "bound_polynomial");
  return impl_->bound_polynomial(a);
}

Interval PolyArithmetic::bound(const PolyModel& a) const { return bound_polynomial(a) + a.rem; }

Interval PolyArithmetic::evaluate(const PolyModel& a, const double* xi) const {
  require_upward("evaluate");
  const Impl& m = *impl_;
  check_size(a, m.n_mon, "evaluate");
  const std::size_t w = static_cast<std::size_t>(m.q) + 1;
  for (std::size_t j = 0; j < m.n; ++j) {
    Interval* bj = &m.eval_basis[j * w];
    const Interval x(xi[j]);
    bj[0] = Interval(1.0);
    if (w > 1) bj[1] = x;
    for (std::size_t e = 2; e < w; ++e)
      bj[e] = m.basis == Basis::chebyshev ? Interval(2.0) * x * bj[e - 1] - bj[e - 2]  // T recurrence
                                          : x * bj[e - 1];
  }
  Interval sum(0.0);
  for (std::size_t k = 0; k < m.n_mon; ++k) {
    if (a.coef[k] == 0.0) continue;
    Interval term(a.coef[k]);
    for (std::size_t j = 0; j < m.n; ++j) {
      const int e = m.exps[k * m.n + j];
      if (e != 0) term *= m.eval_basis[j * w + static_cast<std::size_t>(e)];
    }
    sum += term;
  }
  return sum;
}

// The monomials of degree <= q come first in graded order, so they are the
// first n_mon of `from` in the same order.
void PolyArithmetic::reduce_from(const PolyArithmetic& from, const PolyModel& a, PolyModel& out) const {
  require_upward("reduce_from");
  const Impl& m = *impl_;
  const Impl& f = *from.impl_;
  if (f.n != m.n || f.basis != m.basis || f.q < m.q)
    throw Error(Status::invalid_argument,
                "reduce_from: needs the same variables and basis and an order >= " + std::to_string(m.q));
  check_size(a, f.n_mon, "reduce_from");
  Interval rem = a.rem;
  bool any_high = false;
  for (std::size_t k = m.n_mon; k < f.n_mon; ++k) any_high = any_high || a.coef[k] != 0.0;
  if (any_high) {
    std::fill(f.high.coef.begin(), f.high.coef.begin() + static_cast<std::ptrdiff_t>(m.n_mon), 0.0);
    std::copy(a.coef.begin() + static_cast<std::ptrdiff_t>(m.n_mon), a.coef.end(),
              f.high.coef.begin() + static_cast<std::ptrdiff_t>(m.n_mon));
    rem += f.bound_polynomial(f.high);
  }
  if (&out == &a) {
    out.coef.resize(m.n_mon);
  } else {
    out.coef.assign(a.coef.begin(), a.coef.begin() + static_cast<std::ptrdiff_t>(m.n_mon));
  }
  out.rem = rem;
}

}  // namespace odesens::arith
