// Range bounders for the polynomial part of a model over [-1, 1]^n
// (poly_model.hpp, RangeBounder). All bounds are rigorous: sums of
// magnitudes are rounded up (the FPU rounds upward), lower bounds are
// computed as -(upper bound of the negation), and everything else is
// interval arithmetic.
#include <algorithm>
#include <cmath>

#include "arith/poly_model_impl.hpp"

namespace odesens::arith {
namespace {

// Above this many Bernstein coefficients ((q+1)^n) the bernstein bounder
// falls back to lsb: the conversion costs n (q+1)^(n+1) operations a bound.
constexpr double kMaxBernsteinCoefficients = 1e6;

double binomial(int n, int k) {
  if (k < 0 || k > n) return 0.0;
  double r = 1.0;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;  // exact: integers < 2^53 for n <= 12
  return r;
}

// Range of A x^2 + B x over x in [-1, 1]: the endpoints A - B and A + B,
// and the vertex value -B^2 / (4A) when the vertex -B / (2A) may lie in
// [-1, 1] (if it lies outside, its value is beyond the range and including
// it only widens).
Interval quadratic_range(const Interval& A, const Interval& B) {
  Interval r = boost::numeric::hull(A - B, A + B);
  if (!boost::numeric::zero_in(A)) {
    const Interval vertex = -B / (Interval(2.0) * A);
    if (vertex.lower() <= 1.0 && vertex.upper() >= -1.0)
      r = boost::numeric::hull(r, -boost::numeric::square(B) / (Interval(4.0) * A));
  }
  return r;
}

}  // namespace

// constant + sum |c_k| range(B_k), with range(B_k) = [-1, 1] except for
// power-basis monomials with only even exponents, [0, 1].
Interval PolyArithmetic::Impl::bound_naive(const PolyModel& a, bool skip_quad_terms) const {
  double sym = 0.0, pos = 0.0, neg = 0.0;  // all rounded up
  for (std::size_t k = 1; k < n_mon; ++k) {
    const double c = a.coef[k];
    if (c == 0.0 || (skip_quad_terms && quad_term[k])) continue;
    if (basis == Basis::taylor && even[k]) {
      if (c > 0.0) pos += c;
      else neg += -c;
    } else {
      sym += std::fabs(c);
    }
  }
  const double c0 = a.coef[0];
  const double hi = c0 + (sym + pos);
  const double lo = -((sym + neg) - c0);  // c0 - (sym + neg) rounded down
  return Interval(lo, hi);
}

// lsb: the linear and pure quadratic terms of each variable bounded together,
// exactly (up to rounding) as a quadratic; the rest naively.
Interval PolyArithmetic::Impl::bound_lsb(const PolyModel& a) const {
  Interval r = bound_naive(a, true);
  for (std::size_t j = 0; j < n; ++j) {
    const double b = lin_index[j] != PolyArithmetic::npos ? a.coef[lin_index[j]] : 0.0;
    const double c = sq_index[j] != PolyArithmetic::npos ? a.coef[sq_index[j]] : 0.0;
    if (b == 0.0 && c == 0.0) continue;
    if (basis == Basis::chebyshev)  // b T_1 + c T_2 = 2c xi^2 + b xi - c
      r += quadratic_range(Interval(2.0) * Interval(c), Interval(b)) - Interval(c);
    else
      r += quadratic_range(Interval(c), Interval(b));
  }
  return r;
}

// Bernstein coefficients on [-1, 1] of the univariate basis functions up to
// degree q, for the tensor-product Bernstein form of degree q in each
// variable: with x = 2t - 1, x^i = sum_m C(i,m) 2^m (-1)^(i-m) t^m and
// t^m = sum_{j>=m} C(j,m)/C(q,m) b_{j,q}(t) (Farouki and Rajan 1988).
void PolyArithmetic::Impl::build_bernstein() {
  to_bernstein.clear();
  tensor.clear();
  fiber.clear();
  const double size = std::pow(static_cast<double>(q + 1), static_cast<double>(n));
  if (size > kMaxBernsteinCoefficients) return;  // bound_bernstein falls back to lsb
  const std::size_t w = static_cast<std::size_t>(q) + 1;
  // Power coefficients of the basis functions: pc[k * w + i] (exact integers).
  std::vector<double> pc(w * w, 0.0);
  for (std::size_t k = 0; k < w; ++k) {
    if (basis == Basis::taylor || k < 2) {
      pc[k * w + k] = 1.0;
    } else {  // T_k = 2x T_{k-1} - T_{k-2}
      for (std::size_t i = 0; i < w; ++i) {
        double v = -pc[(k - 2) * w + i];
        if (i > 0) v += 2.0 * pc[(k - 1) * w + i - 1];
        pc[k * w + i] = v;
      }
    }
  }
  // S[i * w + j]: the j-th Bernstein coefficient of x^i.
  std::vector<Interval> S(w * w, Interval(0.0));
  for (std::size_t i = 0; i < w; ++i)
    for (std::size_t j = 0; j < w; ++j) {
      Interval s(0.0);
      for (std::size_t m = 0; m <= std::min(i, j); ++m) {
        const int ii = static_cast<int>(i), jj = static_cast<int>(j), mm = static_cast<int>(m);
        const double num = binomial(ii, mm) * std::ldexp(1.0, mm) * ((i - m) % 2 ? -1.0 : 1.0) *
                           binomial(jj, mm);  // exact integer
        s += Interval(num) / Interval(binomial(q, mm));
      }
      S[i * w + j] = s;
    }
  to_bernstein.assign(w * w, Interval(0.0));
  for (std::size_t k = 0; k < w; ++k)
    for (std::size_t j = 0; j < w; ++j) {
      Interval s(0.0);
      for (std::size_t i = 0; i < w; ++i)
        if (pc[k * w + i] != 0.0) s += Interval(pc[k * w + i]) * S[i * w + j];
      to_bernstein[k * w + j] = s;
    }
  tensor.assign(static_cast<std::size_t>(size), Interval(0.0));
  fiber.assign(w, Interval(0.0));
}

// The range of a polynomial lies in the hull of its Bernstein coefficients
// (and equals it at a vertex-attained extremum). The tensor is converted
// one variable at a time.
Interval PolyArithmetic::Impl::bound_bernstein(const PolyModel& a) const {
  if (to_bernstein.empty()) return bound_lsb(a);  // too many coefficients
  const std::size_t w = static_cast<std::size_t>(q) + 1;
  std::fill(tensor.begin(), tensor.end(), Interval(0.0));
  for (std::size_t k = 0; k < n_mon; ++k) {
    std::size_t idx = 0, stride = 1;
    for (std::size_t j = 0; j < n; ++j, stride *= w) idx += static_cast<std::size_t>(exps[k * n + j]) * stride;
    tensor[idx] = Interval(a.coef[k]);
  }
  const std::size_t total = tensor.size();
  std::size_t stride = 1;
  for (std::size_t j = 0; j < n; ++j, stride *= w) {
    for (std::size_t block = 0; block < total; block += stride * w)
      for (std::size_t inner = 0; inner < stride; ++inner) {
        const std::size_t base = block + inner;
        for (std::size_t jj = 0; jj < w; ++jj) fiber[jj] = Interval(0.0);
        for (std::size_t k = 0; k < w; ++k) {
          const Interval& t = tensor[base + k * stride];
          if (t.lower() == 0.0 && t.upper() == 0.0) continue;
          for (std::size_t jj = 0; jj < w; ++jj) fiber[jj] += to_bernstein[k * w + jj] * t;
        }
        for (std::size_t jj = 0; jj < w; ++jj) tensor[base + jj * stride] = fiber[jj];
      }
  }
  double lo = tensor[0].lower(), hi = tensor[0].upper();
  for (const Interval& t : tensor) {
    lo = std::min(lo, t.lower());
    hi = std::max(hi, t.upper());
  }
  // Low-degree Bernstein coefficients of Chebyshev terms can exceed the
  // range by far (T_2 at degree 2: 1, -3, 1), so also intersect with lsb:
  // both enclose the range, and the result is never wider than lsb.
  const Interval l = bound_lsb(a);
  return Interval(std::max(lo, l.lower()), std::min(hi, l.upper()));
}

Interval PolyArithmetic::Impl::bound_polynomial(const PolyModel& a) const {
  switch (bounder) {
    case RangeBounder::naive: return bound_naive(a, false);
    case RangeBounder::lsb: return bound_lsb(a);
    case RangeBounder::bernstein: return bound_bernstein(a);
  }
  return bound_naive(a, false);
}

}  // namespace odesens::arith
