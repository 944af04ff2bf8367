// Polynomial models (poly_model.hpp): the monomial and product tables, the
// range bounders, containment of the true value for every operation at
// random points (against 200-bit MPFR), the convergence order of the
// remainder, and the unbounded cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "arith/mpfr_reference.hpp"
#include "arith/poly_model.hpp"
#include "odesens/status.hpp"

namespace odesens::arith {
namespace {

using test::Mp;

const Basis kBases[] = {Basis::chebyshev, Basis::taylor};
const char* basis_name(Basis b) { return b == Basis::chebyshev ? "chebyshev" : "taylor"; }

double binomial(int n, int k) {
  double r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

// ---------------------------------------------------------------- tables

TEST(PolyModel, MonomialCountAndOrder) {
  for (std::size_t n : {0u, 1u, 2u, 3u, 5u})
    for (int q : {0, 1, 2, 4, 7})
      EXPECT_EQ(PolyArithmetic(n, q, Basis::chebyshev).n_monomials(),
                static_cast<std::size_t>(binomial(static_cast<int>(n) + q, q)))
          << n << " " << q;
  // Graded lexicographic: degree first, larger exponents of earlier variables first.
  const PolyArithmetic pa(2, 2, Basis::taylor);
  const int expected[6][2] = {{0, 0}, {1, 0}, {0, 1}, {2, 0}, {1, 1}, {0, 2}};
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(pa.exponent(k, 0), expected[k][0]);
    EXPECT_EQ(pa.exponent(k, 1), expected[k][1]);
    EXPECT_EQ(pa.degree(k), expected[k][0] + expected[k][1]);
    EXPECT_EQ(pa.index_of(expected[k]), k);
  }
  const int too_high[2] = {2, 1};
  EXPECT_EQ(pa.index_of(too_high), PolyArithmetic::npos);
}

TEST(PolyModel, ChebyshevProductT2T3) {
  UpwardRounding scope;
  const PolyArithmetic pa(1, 5, Basis::chebyshev);
  PolyModel a = pa.make(), b = pa.make(), c = pa.make();
  const int e2 = 2, e3 = 3, e1 = 1, e5 = 5;
  a.coef[pa.index_of(&e2)] = 1.0;
  b.coef[pa.index_of(&e3)] = 1.0;
  pa.mul(a, b, c);
  for (std::size_t k = 0; k < pa.n_monomials(); ++k) {
    const double want = (k == pa.index_of(&e5) || k == pa.index_of(&e1)) ? 0.5 : 0.0;
    EXPECT_EQ(c.coef[k], want) << k;
  }
  EXPECT_LE(c.rem.upper() - c.rem.lower(), 1e-14);
  // At order 4, T_5 / 2 goes to the remainder and T_1 / 2 stays.
  const PolyArithmetic p4(1, 4, Basis::chebyshev);
  PolyModel a4 = p4.make(), b4 = p4.make(), c4 = p4.make();
  a4.coef[p4.index_of(&e2)] = 1.0;
  b4.coef[p4.index_of(&e3)] = 1.0;
  p4.mul(a4, b4, c4);
  EXPECT_EQ(c4.coef[p4.index_of(&e1)], 0.5);
  EXPECT_LE(c4.rem.upper(), 0.5 + 1e-14);
  EXPECT_GE(c4.rem.upper(), 0.5);
}

TEST(PolyModel, TaylorSquareOfOnePlusXi) {
  UpwardRounding scope;
  const PolyArithmetic pa(1, 3, Basis::taylor);
  PolyModel a = pa.make(), c = pa.make();
  pa.set_affine(a, 0, 1.0, 1.0);
  pa.mul(a, a, c);
  EXPECT_EQ(c.coef[0], 1.0);
  EXPECT_EQ(c.coef[1], 2.0);
  EXPECT_EQ(c.coef[2], 1.0);
  EXPECT_EQ(c.coef[3], 0.0);
  EXPECT_LE(c.rem.upper() - c.rem.lower(), 1e-14);
  pa.powi(a, 2, c);
  EXPECT_EQ(c.coef[2], 1.0);
}

TEST(PolyModel, NeedsAnUpwardRoundingScope) {
  const PolyArithmetic pa(1, 2, Basis::chebyshev);
  PolyModel a = pa.make(), c = pa.make();
  try {
    pa.mul(a, a, c);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::internal_error);
  }
  EXPECT_THROW(PolyArithmetic(1, 13, Basis::chebyshev), Error);
  EXPECT_THROW(PolyArithmetic(1, 2, Basis::chebyshev, RangeBounder::lsb, 0.0), Error);
}

// -------------------------------------------------------------- bounders

double sup_abs(const PolyModel& a) {
  double s = 0;
  for (double c : a.coef) s = std::max(s, std::fabs(c));
  return s;
}

void random_polynomial(PolyModel& a, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& c : a.coef) c = rng() % 3 == 0 ? 0.0 : u(rng);
}

TEST(PolyModel, BoundersEncloseTheRangeAndAreNotWiderThanNaive) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (Basis basis : kBases)
    for (std::size_t n : {1u, 2u, 3u})
      for (int q : {1, 2, 4}) {
        UpwardRounding scope;
        const PolyArithmetic naive(n, q, basis, RangeBounder::naive);
        const PolyArithmetic lsb(n, q, basis, RangeBounder::lsb);
        const PolyArithmetic bern(n, q, basis, RangeBounder::bernstein);
        PolyModel a = naive.make();
        for (int trial = 0; trial < 20; ++trial) {
          random_polynomial(a, rng);
          const Interval bn = naive.bound_polynomial(a), bl = lsb.bound_polynomial(a),
                         bb = bern.bound_polynomial(a);
          const double tol = 1e-13 * (1 + sup_abs(a));
          for (const Interval& b : {bl, bb}) {
            EXPECT_GE(b.lower(), bn.lower() - tol);
            EXPECT_LE(b.upper(), bn.upper() + tol);
          }
          // Sampled range (the vertices and random points) lies inside.
          std::vector<double> xi(n);
          for (int s = 0; s < 2000; ++s) {
            for (std::size_t j = 0; j < n; ++j)
              xi[j] = s < (1 << n) ? ((s >> j) & 1 ? 1.0 : -1.0) : u(rng);
            const Interval v = naive.evaluate(a, xi.data());
            for (const Interval& b : {bn, bl, bb})
              ASSERT_TRUE(b.lower() <= v.upper() && v.lower() <= b.upper())
                  << basis_name(basis) << " n=" << n << " q=" << q;
          }
        }
      }
}

TEST(PolyModel, BernsteinIsExactAtAVertexExtremum) {
  // p = xi1 + xi2 + xi1 xi2 = (1 + xi1)(1 + xi2) - 1 on [-1, 1]^2: range
  // [-1, 3], the maximum at (1, 1), the minimum along two edges. Naive: [-3, 3].
  for (Basis basis : kBases) {
    UpwardRounding scope;
    const PolyArithmetic pb(2, 3, basis, RangeBounder::bernstein);
    const PolyArithmetic pn(2, 3, basis, RangeBounder::naive);
    PolyModel p = pb.make();
    const int e10[2] = {1, 0}, e01[2] = {0, 1}, e11[2] = {1, 1};
    p.coef[pb.index_of(e10)] = 1.0;
    p.coef[pb.index_of(e01)] = 1.0;
    p.coef[pb.index_of(e11)] = 1.0;  // T1 T1 = xi1 xi2 in both bases
    const Interval b = pb.bound_polynomial(p);
    EXPECT_NEAR(b.lower(), -1.0, 1e-14);
    EXPECT_NEAR(b.upper(), 3.0, 1e-14);
    EXPECT_LE(b.lower(), -1.0);
    EXPECT_GE(b.upper(), 3.0);
    EXPECT_EQ(pn.bound_polynomial(p).lower(), -3.0);
  }
}

TEST(PolyModel, LsbBoundsAQuadraticExactly) {
  // T_2(xi) - T_1(xi) / 2 = 2 xi^2 - xi/2 - 1: minimum at xi = 1/8, -1 - 1/32.
  UpwardRounding scope;
  const PolyArithmetic pa(1, 2, Basis::chebyshev, RangeBounder::lsb);
  PolyModel p = pa.make();
  p.coef[1] = -0.5;
  p.coef[2] = 1.0;
  const Interval b = pa.bound_polynomial(p);
  EXPECT_NEAR(b.lower(), -1.03125, 1e-14);
  EXPECT_NEAR(b.upper(), 1.5, 1e-14);
}

// ------------------------------------------------------------ containment

// An operation of the matrix: how its inputs are drawn and what it computes.
struct Op {
  std::string name;
  int arity;
  double center_lo, center_hi, spread;  // input: center + spread * (random terms of degree 1, 2)
  double b_center_lo, b_center_hi;      // second input's center (arity 2)
  std::function<void(const PolyArithmetic&, const PolyModel&, const PolyModel&, PolyModel&)> run;
  std::function<void(mpfr_t, const mpfr_t, const mpfr_t)> exact;
};

std::vector<Op> operations() {
  std::vector<Op> ops;
  auto unary = [&](UnaryFunction f, double lo, double hi, double spread) {
    ops.push_back({function_name(f), 1, lo, hi, spread, 0, 0,
                   [f](const PolyArithmetic& pa, const PolyModel& a, const PolyModel&, PolyModel& out) {
                     pa.apply(f, a, out);
                   },
                   [f](mpfr_t out, const mpfr_t x, const mpfr_t) { test::mpfr_apply(f, out, x); }});
  };
  unary(UnaryFunction::exp, -2, 2, 0.1);
  unary(UnaryFunction::log, 1, 3, 0.1);
  unary(UnaryFunction::log10, 1, 3, 0.1);
  unary(UnaryFunction::sqrt, 1, 3, 0.1);
  unary(UnaryFunction::sin, -2, 2, 0.1);
  unary(UnaryFunction::cos, -2, 2, 0.1);
  unary(UnaryFunction::tan, -0.5, 0.5, 0.1);
  unary(UnaryFunction::sinh, -2, 2, 0.1);
  unary(UnaryFunction::cosh, -2, 2, 0.1);
  unary(UnaryFunction::tanh, -2, 2, 0.1);
  unary(UnaryFunction::asin, -0.3, 0.3, 0.1);
  unary(UnaryFunction::acos, -0.3, 0.3, 0.1);
  unary(UnaryFunction::atan, -2, 2, 0.1);
  unary(UnaryFunction::inv, 1, 3, 0.1);
  auto binary = [&](std::string name, double lo, double hi, double blo, double bhi,
                    void (PolyArithmetic::*fn)(const PolyModel&, const PolyModel&, PolyModel&) const,
                    int (*exact)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t)) {
    ops.push_back({name, 2, lo, hi, 0.2, blo, bhi,
                   [fn](const PolyArithmetic& pa, const PolyModel& a, const PolyModel& b, PolyModel& out) {
                     (pa.*fn)(a, b, out);
                   },
                   [exact](mpfr_t out, const mpfr_t x, const mpfr_t y) { exact(out, x, y, MPFR_RNDN); }});
  };
  binary("add", -2, 2, -2, 2, &PolyArithmetic::add, mpfr_add);
  binary("sub", -2, 2, -2, 2, &PolyArithmetic::sub, mpfr_sub);
  binary("mul", -2, 2, -2, 2, &PolyArithmetic::mul, mpfr_mul);
  binary("div", -2, 2, 1, 3, &PolyArithmetic::div, mpfr_div);
  binary("min", -0.3, 0.3, -0.3, 0.3, &PolyArithmetic::min, mpfr_min);
  binary("max", -0.3, 0.3, -0.3, 0.3, &PolyArithmetic::max, mpfr_max);
  ops.push_back({"abs", 1, -0.3, 0.3, 0.2, 0, 0,
                 [](const PolyArithmetic& pa, const PolyModel& a, const PolyModel&, PolyModel& out) {
                   pa.abs(a, out);
                 },
                 [](mpfr_t out, const mpfr_t x, const mpfr_t) { mpfr_abs(out, x, MPFR_RNDN); }});
  for (int n : {-3, 0, 2, 5}) {
    ops.push_back({"powi " + std::to_string(n), 1, 1, 2, 0.1, 0, 0,
                   [n](const PolyArithmetic& pa, const PolyModel& a, const PolyModel&, PolyModel& out) {
                     pa.powi(a, n, out);
                   },
                   [n](mpfr_t out, const mpfr_t x, const mpfr_t) { mpfr_pow_si(out, x, n, MPFR_RNDN); }});
  }
  for (double c : {-1.5, 0.3, 2.7}) {
    ops.push_back({"pow_real " + std::to_string(c), 1, 1, 3, 0.1, 0, 0,
                   [c](const PolyArithmetic& pa, const PolyModel& a, const PolyModel&, PolyModel& out) {
                     pa.pow_real(a, c, out);
                   },
                   [c](mpfr_t out, const mpfr_t x, const mpfr_t) {
                     Mp cc(c);
                     mpfr_pow(out, x, cc.v, MPFR_RNDN);
                   }});
  }
  ops.push_back({"scale+add_interval", 1, -2, 2, 0.2, 0, 0,
                 [](const PolyArithmetic& pa, const PolyModel& a, const PolyModel&, PolyModel& out) {
                   pa.scale(a, -0.3, out);
                   pa.add_interval(out, Interval(0.1), out);
                 },
                 [](mpfr_t out, const mpfr_t x, const mpfr_t) {
                   Mp s(-0.3), t(0.1);
                   mpfr_mul(out, x, s.v, MPFR_RNDN);
                   mpfr_add(out, out, t.v, MPFR_RNDN);
                 }});
  return ops;
}

// A random input: center + terms of degree 1 and 2 (those the order
// holds) of size <= spread / 2 each, and a remainder of width ~ spread/100.
void random_input(const PolyArithmetic& pa, double lo, double hi, double spread, std::mt19937_64& rng,
                  PolyModel& a) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), c(lo, hi);
  a = pa.make();
  a.coef[0] = c(rng);
  for (std::size_t k = 1; k < pa.n_monomials(); ++k)
    if (pa.degree(k) <= 2) a.coef[k] = 0.5 * spread * u(rng) / static_cast<double>(pa.n_vars());
  const double r = 0.01 * spread * std::fabs(u(rng));
  a.rem = Interval(-r, r * 0.5);
}

// The input's value at xi, in 200-bit MPFR: its polynomial plus a point of
// its remainder (rem_at in [0, 1] picks where).
void exact_value(const PolyArithmetic& pa, const PolyModel& a, const std::vector<double>& xi, double rem_at,
                 mpfr_t out) {
  const std::size_t n = pa.n_vars();
  const int q = pa.order();
  std::vector<Mp> basis(n * static_cast<std::size_t>(q + 1));
  Mp x, t;
  for (std::size_t j = 0; j < n; ++j) {
    Mp* b = &basis[j * static_cast<std::size_t>(q + 1)];
    mpfr_set_d(x.v, xi[j], MPFR_RNDN);
    mpfr_set_ui(b[0].v, 1, MPFR_RNDN);
    if (q >= 1) mpfr_set(b[1].v, x.v, MPFR_RNDN);
    for (int e = 2; e <= q; ++e) {
      mpfr_mul(b[e].v, b[e - 1].v, x.v, MPFR_RNDN);
      if (pa.basis() == Basis::chebyshev) {
        mpfr_mul_2ui(b[e].v, b[e].v, 1, MPFR_RNDN);
        mpfr_sub(b[e].v, b[e].v, b[e - 2].v, MPFR_RNDN);
      }
    }
  }
  mpfr_set_zero(out, 1);
  for (std::size_t k = 0; k < pa.n_monomials(); ++k) {
    if (a.coef[k] == 0.0) continue;
    mpfr_set_d(t.v, a.coef[k], MPFR_RNDN);
    for (std::size_t j = 0; j < n; ++j)
      mpfr_mul(t.v, t.v, basis[j * static_cast<std::size_t>(q + 1) + static_cast<std::size_t>(pa.exponent(k, j))].v,
               MPFR_RNDN);
    mpfr_add(out, out, t.v, MPFR_RNDN);
  }
  // A point of the remainder: lo + rem_at (hi - lo), exact enough at 200 bits.
  mpfr_set_d(t.v, a.rem.upper(), MPFR_RNDN);
  mpfr_set_d(x.v, a.rem.lower(), MPFR_RNDN);
  mpfr_sub(t.v, t.v, x.v, MPFR_RNDN);
  mpfr_mul_d(t.v, t.v, rem_at, MPFR_RNDN);
  mpfr_add(t.v, t.v, x.v, MPFR_RNDN);
  mpfr_add(out, out, t.v, MPFR_RNDN);
}

// For each operation, basis and order: at random points xi and points of
// the inputs' remainders, the exact result (MPFR) lies in P(xi) + R.
void check_containment(const std::vector<int>& orders, int models, int points) {
  const std::size_t n = 2;
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> u(-1.0, 1.0), r01(0.0, 1.0);
  std::vector<double> xi(n);
  Mp va, vb, exact;
  for (const Op& op : operations())
    for (Basis basis : kBases)
      for (int q : orders) {
        const PolyArithmetic pa(n, q, basis);
        PolyModel a, b, out = pa.make();
        int failures = 0;
        for (int m = 0; m < models && failures == 0; ++m) {
          UpwardRounding scope;
          random_input(pa, op.center_lo, op.center_hi, op.spread, rng, a);
          random_input(pa, op.b_center_lo, op.b_center_hi, op.spread, rng, b);
          op.run(pa, a, b, out);
          ASSERT_TRUE(std::isfinite(out.rem.lower()) && std::isfinite(out.rem.upper()));
          for (int p = 0; p < points && failures < 3; ++p) {
            for (double& x : xi) x = p < 4 ? ((p >> (&x - xi.data())) & 1 ? 1.0 : -1.0) : u(rng);
            const double ra = p % 3 == 0 ? 0.0 : p % 3 == 1 ? 1.0 : r01(rng);
            exact_value(pa, a, xi, ra, va.v);
            exact_value(pa, b, xi, r01(rng), vb.v);
            op.exact(exact.v, va.v, vb.v);
            const Interval enclosure = pa.evaluate(out, xi.data()) + out.rem;
            if (!test::contains(enclosure, exact.v)) {
              ++failures;
              ADD_FAILURE() << op.name << " " << basis_name(basis) << " q=" << q << " at (" << xi[0] << ", "
                            << xi[1] << "): " << mpfr_get_d(exact.v, MPFR_RNDN) << " not in ["
                            << enclosure.lower() << ", " << enclosure.upper() << "]";
            }
          }
        }
      }
}

TEST(PolyModel, EveryOperationEnclosesTheExactValue) { check_containment({0, 1, 3, 6}, 2, 300); }

TEST(PolyModelSlow, EveryOperationEnclosesTheExactValueFullMatrix) {
  check_containment({0, 1, 2, 3, 4, 5, 6, 7, 8}, 3, 10000);
}

TEST(PolyModel, ReduceFromMovesHighTermsToTheRemainder) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (Basis basis : kBases) {
    UpwardRounding scope;
    const PolyArithmetic high(2, 5, basis), low(2, 2, basis);
    PolyModel a = high.make(), r = low.make();
    random_polynomial(a, rng);
    low.reduce_from(high, a, r);
    ASSERT_EQ(r.coef.size(), low.n_monomials());
    std::vector<double> xi(2);
    for (int s = 0; s < 1000; ++s) {
      xi[0] = u(rng);
      xi[1] = u(rng);
      const Interval v = high.evaluate(a, xi.data()), e = low.evaluate(r, xi.data()) + r.rem;
      EXPECT_TRUE(e.lower() <= v.lower() && v.upper() <= e.upper());
    }
  }
}

// ------------------------------------------------------------ convergence

// Least-squares slope of log(width) against log(r).
double slope(const std::vector<double>& r, const std::vector<double>& w) {
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    mx += std::log(r[i]) / r.size();
    my += std::log(w[i]) / r.size();
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    sxy += (std::log(r[i]) - mx) * (std::log(w[i]) - my);
    sxx += (std::log(r[i]) - mx) * (std::log(r[i]) - mx);
  }
  return sxy / sxx;
}

TEST(PolyModel, RemainderConvergesWithOrderQPlusOne) {
  struct F {
    const char* name;
    double mid;
    std::function<void(const PolyArithmetic&, const PolyModel&, PolyModel&)> run;
  };
  const F fs[] = {
      {"exp", 0.5, [](const PolyArithmetic& pa, const PolyModel& a, PolyModel& o) { pa.apply(UnaryFunction::exp, a, o); }},
      {"log", 1.5, [](const PolyArithmetic& pa, const PolyModel& a, PolyModel& o) { pa.apply(UnaryFunction::log, a, o); }},
      {"sin", 0.5, [](const PolyArithmetic& pa, const PolyModel& a, PolyModel& o) { pa.apply(UnaryFunction::sin, a, o); }},
      {"atan", 0.5, [](const PolyArithmetic& pa, const PolyModel& a, PolyModel& o) { pa.apply(UnaryFunction::atan, a, o); }},
      {"sqrt", 1.5, [](const PolyArithmetic& pa, const PolyModel& a, PolyModel& o) { pa.apply(UnaryFunction::sqrt, a, o); }},
      {"inv", 1.5, [](const PolyArithmetic& pa, const PolyModel& a, PolyModel& o) { pa.apply(UnaryFunction::inv, a, o); }},
      {"exp*sin", 0.5,
       [](const PolyArithmetic& pa, const PolyModel& a, PolyModel& o) {
         PolyModel e = pa.make(), s = pa.make();
         pa.apply(UnaryFunction::exp, a, e);
         pa.apply(UnaryFunction::sin, a, s);
         pa.mul(e, s, o);
       }},
  };
  for (Basis basis : kBases)
    for (int q = 0; q <= 5; ++q) {
      const PolyArithmetic pa(2, q, basis);
      for (const F& f : fs) {
        std::vector<double> rs, ws;
        for (int i = 1; i <= 4; ++i) {
          UpwardRounding scope;
          const double r = std::ldexp(1.0, -i);
          PolyModel a = pa.make(), x2 = pa.make(), out = pa.make();
          pa.set_affine(a, 0, f.mid, r);
          pa.set_affine(x2, 1, 0.0, r);
          pa.add(a, x2, a);
          f.run(pa, a, out);
          rs.push_back(r);
          ws.push_back(out.rem.upper() - out.rem.lower());
        }
        EXPECT_GE(slope(rs, ws), q + 0.7) << f.name << " " << basis_name(basis) << " q=" << q << " widths "
                                          << ws[0] << " " << ws[1] << " " << ws[2] << " " << ws[3];
      }
    }
}

// -------------------------------------------------------------- unbounded

void expect_unbounded(const PolyArithmetic& pa, UnaryFunction f, double c0, double c1, const std::string& name) {
  UpwardRounding scope;
  PolyModel a = pa.make(), out = pa.make();
  pa.set_affine(a, 0, c0, c1);
  try {
    pa.apply(f, a, out);
    ADD_FAILURE() << name << ": no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unbounded) << e.what();
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
}

TEST(PolyModel, UnboundedCasesThrow) {
  for (Basis basis : kBases) {
    const PolyArithmetic pa(1, 3, basis);
    expect_unbounded(pa, UnaryFunction::inv, 0.0, 0.5, "inv");
    expect_unbounded(pa, UnaryFunction::log, 0.625, 0.875, "log");  // [-0.25, 1.5]
    expect_unbounded(pa, UnaryFunction::log, 0.5, 0.5, "log");      // reaches 0
    expect_unbounded(pa, UnaryFunction::sqrt, -1.0, 0.5, "sqrt");
    expect_unbounded(pa, UnaryFunction::asin, 1.0, 0.5, "asin");  // [0.5, 1.5]
    expect_unbounded(pa, UnaryFunction::tan, 1.5, 0.5, "tan");    // [1, 2] holds pi/2
    const PolyArithmetic narrow(1, 3, basis, RangeBounder::lsb, 1.0);
    expect_unbounded(narrow, UnaryFunction::exp, 0.0, 10.0, "exp");
    UpwardRounding scope;
    PolyModel a = pa.make(), b = pa.make(), out = pa.make();
    pa.set_affine(a, 0, 1.0, 1.0);
    pa.set_affine(b, 0, 0.0, 1.0);
    EXPECT_THROW(pa.div(a, b, out), Error);
    EXPECT_THROW(pa.pow_real(b, 0.5, out), Error);
  }
}

}  // namespace
}  // namespace odesens::arith
