// Polynomial models in the scaled parameters xi in [-1, 1]^n: a polynomial
// of total degree <= q in a Chebyshev or power (Taylor) basis plus an
// interval remainder, valid for every xi in the box:
//   f(p(xi)) in sum_k coef[k] B_k(xi) + rem   for all xi in [-1, 1]^n.
// (Set-valued sensitivity paper, section 1.1; Rajyaguru et al. 2017 for the
// Chebyshev arithmetic.)
//
// Monomials are the exponent vectors kappa with |kappa| <= q in graded
// lexicographic order (degree 0 first; within a degree, larger exponents of
// earlier variables first), n_mon = C(n + q, q). B_kappa is
// prod_j T_{kappa_j}(xi_j) (chebyshev) or prod_j xi_j^{kappa_j} (taylor).
//
// Every operation encloses rounding: coefficients are doubles and the
// rounding error of each one is added to the remainder, so the model holds
// for the exact function. All operations must run inside an UpwardRounding
// scope (interval.hpp); they check it and throw internal_error otherwise.
//
// An operation that cannot be enclosed (the inverse of a range holding 0,
// log/sqrt/asin/acos outside their domains, tan across a pole, a condition
// that changes value inside the box, a range wider than max_width) throws
// Error(Status::unbounded) with a message naming the operation and the
// range; callers add the time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "arith/interval.hpp"

namespace odesens::arith {

enum class Basis { chebyshev, taylor };

// How the range of a polynomial over [-1, 1]^n is bounded:
//   naive      constant term plus |c_k| times the range of each B_k;
//   lsb        (default, as MC++) per variable, its degree-1 and pure
//              degree-2 terms bounded exactly as a quadratic on [-1, 1],
//              the other terms as in naive;
//   bernstein  min/max of the Bernstein coefficients (exact at vertices,
//              tight for low degree; costly for many variables).
enum class RangeBounder { naive, lsb, bernstein };

// The functions a model can be composed with (the unary operations of the
// expression engine).
enum class UnaryFunction {
  exp, log, log10, sqrt, sin, cos, tan, sinh, cosh, tanh, asin, acos, atan, inv
};

const char* function_name(UnaryFunction f);

struct PolyModel {
  std::vector<double> coef;  // n_monomials, in the arithmetic's monomial order
  Interval rem{0.0, 0.0};
};

// The arithmetic of models of one order in one set of variables. Not
// thread-safe: it keeps scratch space, so each solve (thread) owns one.
class PolyArithmetic {
 public:
  // order q in 0..12. max_width: ranges wider than this are `unbounded`.
  PolyArithmetic(std::size_t n_vars, int order, Basis basis,
                 RangeBounder bounder = RangeBounder::lsb, double max_width = 1e20);

  std::size_t n_vars() const;
  int order() const;
  Basis basis() const;
  RangeBounder bounder() const;
  std::size_t n_monomials() const;
  // Exponent of variable j in monomial k, and the total degree of k.
  int exponent(std::size_t k, std::size_t j) const;
  int degree(std::size_t k) const;
  // Index of the monomial with exponents e (n_vars entries), or npos.
  std::size_t index_of(const int* e) const;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  // A zero model with storage for this arithmetic (allocates; call outside
  // loops and reuse).
  PolyModel make() const;

  // out = c; out = the interval v (midpoint coefficient, the rest in the
  // remainder); out = c0 + c1 * xi_j (the parameter p_j = mid + rad xi_j).
  void set_constant(PolyModel& out, double c) const;
  void set_interval(PolyModel& out, const Interval& v) const;
  void set_affine(PolyModel& out, std::size_t j, double c0, double c1) const;
  // out = a, into out's storage (no allocation when both come from make()).
  void assign(PolyModel& out, const PolyModel& a) const {
    out.coef.assign(a.coef.begin(), a.coef.end());
    out.rem = a.rem;
  }

  // out may alias a or b in every operation.
  void add(const PolyModel& a, const PolyModel& b, PolyModel& out) const;
  void sub(const PolyModel& a, const PolyModel& b, PolyModel& out) const;
  void neg(const PolyModel& a, PolyModel& out) const;
  void scale(const PolyModel& a, double c, PolyModel& out) const;
  void add_interval(const PolyModel& a, const Interval& v, PolyModel& out) const;
  void mul(const PolyModel& a, const PolyModel& b, PolyModel& out) const;
  void div(const PolyModel& a, const PolyModel& b, PolyModel& out) const;  // a * inv(b)
  // f(a), by Chebyshev interpolation on the range of a (chebyshev) or the
  // Taylor expansion at a's constant term (taylor), with the remainder of
  // the truncation.
  void apply(UnaryFunction f, const PolyModel& a, PolyModel& out) const;
  // a^n for integer n (by squaring; n < 0 is inv(a)^|n|).
  void powi(const PolyModel& a, int n, PolyModel& out) const;
  // a^c for a real constant c (a > 0 over the box unless c is a
  // non-negative integer).
  void pow_real(const PolyModel& a, double c, PolyModel& out) const;
  // |a|, min(a, b), max(a, b): the branch when the sign of a (a - b) is
  // decided over the box, else a constant model holding the interval result.
  void abs(const PolyModel& a, PolyModel& out) const;
  void min(const PolyModel& a, const PolyModel& b, PolyModel& out) const;
  void max(const PolyModel& a, const PolyModel& b, PolyModel& out) const;

  // Range of the polynomial part over [-1, 1]^n (the bounder), and of the
  // whole model (plus its remainder).
  Interval bound_polynomial(const PolyModel& a) const;
  Interval bound(const PolyModel& a) const;

  // The polynomial part evaluated at the point xi (n_vars values in
  // [-1, 1]), enclosed in an interval.
  Interval evaluate(const PolyModel& a, const double* xi) const;

  // out (of this arithmetic) = a (of `from`, same variables and basis,
  // order >= this order): the terms above this order move to the remainder.
  void reduce_from(const PolyArithmetic& from, const PolyModel& a, PolyModel& out) const;

 private:
  // apply(f) (power == false) or x^c (power == true): univariate_enclosure.cpp.
  void compose(UnaryFunction f, bool power, double c, const PolyModel& a, PolyModel& out) const;
  // The two halves of compose over the range X of a (its bound): the
  // composed model in `result` (scratch of the arithmetic), the radii of the
  // interval coefficients left out of it added to `spill`, and the error of
  // the polynomial (from g^(q+1)(X)/(q+1)!, `high`) added to `rem`.
  void compose_chebyshev(UnaryFunction f, bool power, double c, const PolyModel& a,
                         const Interval& X, const Interval& high, Interval& rem, double& spill,
                         PolyModel& result) const;
  // The Chebyshev interpolant's q+1 interval coefficients of g over X.
  void chebyshev_interpolant(UnaryFunction f, bool power, double c, const Interval& X,
                             Interval* ck) const;
  void compose_taylor(UnaryFunction f, bool power, double c, const PolyModel& a,
                      const Interval& high, Interval& rem, double& spill,
                      PolyModel& result) const;
  // out = alpha a + beta with interval alpha, beta (midpoints in the
  // coefficients, the rest in the remainder).
  void affine_interval(const PolyModel& a, const Interval& alpha, const Interval& beta,
                       PolyModel& out) const;

  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace odesens::arith
