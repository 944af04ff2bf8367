// The derivative of every operation, referenced from ops.def's `rule`
// column: one small struct per operation with
//
//   reverse(r)  the adjoint contributions to the operands, given the
//               adjoint r.w() of the result: r.give(slot, contribution).
//               Written once for two evaluators: the symbolic one
//               (differentiate.cpp, values are graph nodes and the
//               contributions new nodes) and the adjoint lanes
//               (lane_kernel_impl.hpp, values are doubles and w a lane
//               vector). r.varies(slot) is false for operands whose
//               adjoint is not wanted (constant or invariant operands).
//   forward(x)  the tangent of the result from the operands' tangents
//               x.dt(slot), for the tangent lanes.
//
// r.a(), r.b(), r.c() are the operands, r.self() the result, r.n() the
// powi exponent, r.zero() a zero of w's type. The formulas are written so
// that both evaluators compute the same rounded values as the hand-written
// rules they replace.
//
// Internal linkage on purpose (see scalar_ops.hpp): included by the SIMD
// translation units.
#pragma once

#include <cmath>

#include "expr/scalar_ops.hpp"

namespace odesens::expr {
namespace {

using std::cos;
using std::cosh;
using std::fabs;
using std::log;
using std::pow;
using std::sin;
using std::sinh;
using std::sqrt;

const double kLn10 = 2.302585092994045684017991454684364208;

// Conditions on doubles (the graph's versions take and build nodes).
template <class T>
T select(bool condition, T if_true, T if_false) {
  return condition ? if_true : if_false;
}
inline bool truth(double a) { return a != 0.0; }

// Conditions, floor, ceil, factorial: zero derivative.
struct ZeroRule {
  template <class R> static void reverse(R&) {}
  template <class X> static auto forward(const X& x) { return x.zero(); }
};

struct NegRule {
  template <class R> static void reverse(R& r) { r.give(0, -r.w()); }
  template <class X> static auto forward(const X& x) { return -x.dt(0); }
};

struct AddRule {
  template <class R> static void reverse(R& r) {
    r.give(0, r.w());
    r.give(1, r.w());
  }
  template <class X> static auto forward(const X& x) { return x.dt(0) + x.dt(1); }
};

struct SubRule {
  template <class R> static void reverse(R& r) {
    r.give(0, r.w());
    r.give(1, -r.w());
  }
  template <class X> static auto forward(const X& x) { return x.dt(0) - x.dt(1); }
};

struct MulRule {
  template <class R> static void reverse(R& r) {
    r.give(0, r.w() * r.b());
    r.give(1, r.w() * r.a());
  }
  template <class X> static auto forward(const X& x) { return x.dt(0) * x.b() + x.dt(1) * x.a(); }
};

struct DivRule {  // d(a/b) = da/b - (a/b) db/b
  template <class R> static void reverse(R& r) {
    r.give(0, r.w() / r.b());
    if (r.varies(1)) r.give(1, -((r.w() * r.self()) / r.b()));
  }
  template <class X> static auto forward(const X& x) {
    return (x.dt(0) - x.dt(1) * x.self()) / x.b();
  }
};

// d(a^b) = b a^(b-1) da + a^b log(a) db, exact where a = 0 (a species
// that starts at 0 under a Hill term x^h):
//  - b a^(b-1) is right as it is for b != 0: a^(b-1) is 0 for b > 1, 1 for
//    b = 1 (the derivative b), +Inf for b < 1, where the derivative is
//    infinite and the solve ends on a non-finite value instead of
//    returning a number. At a = b = 0 it is 0 * Inf where the derivative of
//    the constant a^0 = 1 is 0: base_factor() says 0 there. That point is
//    met in the second derivatives odeSD takes: d(h x^(h-1))/dx at h = 1 (a
//    Hill term of exponent 1 through a parameter, SBML Test Suite case
//    01395) is h (h-1) x^(h-2), 1 * 0 * Inf at x = 0. The condition is one
//    comparison of |a| + |b|: it leaves the derivative in b of every other
//    point to the formula (b a^(b-1) at b = 0 moves with b as 1/a), and the
//    interval evaluators, which decide every comparison of a tape, decide
//    it on any box where a stays away from 0, whatever b's range (a
//    comparison of b alone failed on Hill exponents over [1, 3]);
//  - a^b log(a) is 0 * -Inf, whose limit is 0 for b > 0 (and Inf * Inf for
//    b < 0). log(a) is taken of base_of_log(), which is 1 where a is 0, so
//    the term is a^b log(1): 0 for b > 0, NaN for b < 0 (and 0 for b = 0,
//    the derivative of the constant x^0 = 1). Selecting the base rather
//    than the product keeps the derivatives of this derivative (odeSD's
//    J_x f and its Jacobian) free of 0 * Inf too: what reaches a through
//    the select is 0, not 0 * log(0). The condition is on a, not on a^b:
//    the interval evaluators (src/arith) decide it wherever they can take
//    log(a) at all (a > 0 over the box), where an enclosure of a^b may
//    straddle 0.
//  - Below 0, a^b is real only for an integer b, and its derivative in b
//    is that of the continuation sign(a)^b |a|^b: a^b log|a|, the real
//    part of the complex derivative, which goes to 0 with a as above. A
//    species that is 0 in exact arithmetic and a rounding error below it
//    in the solve (SBML Test Suite case 01395, a Hill term of such a
//    species with its exponent a parameter) so gets the limit at 0, not
//    NaN. For any other b, a^b is NaN and so is the term.
// Constant exponents never build the log term (their operand does not
// vary), and integer constants are powi.
struct PowRule {
  template <class V> static V base_factor(const V& a, const V& b) {
    return select(fabs(a) + fabs(b) == 0.0, 0.0, b * pow(a, b - 1.0));
  }
  template <class V> static V base_of_log(const V& a) {
    return select(a == 0.0, 1.0, select(a < 0.0, -a, a));
  }
  template <class R> static void reverse(R& r) {
    if (r.varies(0)) r.give(0, r.w() * base_factor(r.a(), r.b()));
    if (r.varies(1)) r.give(1, r.w() * (r.self() * log(base_of_log(r.a()))));
  }
  template <class X> static auto forward(const X& x) {
    // A constant base has no tangent: its term is 0 even where a^(b-1) is Inf.
    auto d = x.varies(0) ? x.dt(0) * base_factor(x.a(), x.b()) : x.zero();
    if (x.varies(1)) {
      // Only where the exponent moves: where a^b is NaN (a < 0 at a
      // non-integer b), the term would be NaN even for a constant b.
      const auto db = x.dt(1);
      d = (db != x.zero()) ? d + db * (x.self() * log(base_of_log(x.a()))) : d;
    }
    return d;
  }
};

struct PowiRule {
  template <class R> static void reverse(R& r) {
    r.give(0, r.w() * (static_cast<double>(r.n()) * powi(r.a(), r.n() - 1)));
  }
  template <class X> static auto forward(const X& x) {
    return x.dt(0) * (static_cast<double>(x.n()) * powi(x.a(), x.n() - 1));
  }
};

struct ExpRule {
  template <class R> static void reverse(R& r) { r.give(0, r.w() * r.self()); }
  template <class X> static auto forward(const X& x) { return x.dt(0) * x.self(); }
};

struct LogRule {
  template <class R> static void reverse(R& r) { r.give(0, r.w() / r.a()); }
  template <class X> static auto forward(const X& x) { return x.dt(0) / x.a(); }
};

struct Log10Rule {
  template <class R> static void reverse(R& r) { r.give(0, r.w() / (r.a() * kLn10)); }
  template <class X> static auto forward(const X& x) { return x.dt(0) / (x.a() * kLn10); }
};

struct SqrtRule {
  template <class R> static void reverse(R& r) { r.give(0, r.w() / (2.0 * r.self())); }
  template <class X> static auto forward(const X& x) { return x.dt(0) / (2.0 * x.self()); }
};

struct SinRule {
  template <class R> static void reverse(R& r) { r.give(0, r.w() * cos(r.a())); }
  template <class X> static auto forward(const X& x) { return x.dt(0) * cos(x.a()); }
};

struct CosRule {
  template <class R> static void reverse(R& r) { r.give(0, -(r.w() * sin(r.a()))); }
  template <class X> static auto forward(const X& x) { return -(x.dt(0) * sin(x.a())); }
};

struct TanRule {  // 1 + tan^2
  template <class R> static void reverse(R& r) {
    r.give(0, r.w() * (1.0 + r.self() * r.self()));
  }
  template <class X> static auto forward(const X& x) {
    return x.dt(0) * (1.0 + x.self() * x.self());
  }
};

struct SinhRule {
  template <class R> static void reverse(R& r) { r.give(0, r.w() * cosh(r.a())); }
  template <class X> static auto forward(const X& x) { return x.dt(0) * cosh(x.a()); }
};

struct CoshRule {
  template <class R> static void reverse(R& r) { r.give(0, r.w() * sinh(r.a())); }
  template <class X> static auto forward(const X& x) { return x.dt(0) * sinh(x.a()); }
};

struct TanhRule {  // 1 - tanh^2
  template <class R> static void reverse(R& r) {
    r.give(0, r.w() * (1.0 - r.self() * r.self()));
  }
  template <class X> static auto forward(const X& x) {
    return x.dt(0) * (1.0 - x.self() * x.self());
  }
};

struct AsinRule {
  template <class R> static void reverse(R& r) {
    r.give(0, r.w() / sqrt(1.0 - r.a() * r.a()));
  }
  template <class X> static auto forward(const X& x) {
    return x.dt(0) / sqrt(1.0 - x.a() * x.a());
  }
};

struct AcosRule {
  template <class R> static void reverse(R& r) {
    r.give(0, -(r.w() / sqrt(1.0 - r.a() * r.a())));
  }
  template <class X> static auto forward(const X& x) {
    return -(x.dt(0) / sqrt(1.0 - x.a() * x.a()));
  }
};

struct AtanRule {
  template <class R> static void reverse(R& r) { r.give(0, r.w() / (1.0 + r.a() * r.a())); }
  template <class X> static auto forward(const X& x) { return x.dt(0) / (1.0 + x.a() * x.a()); }
};

struct AbsRule {  // |a| = a < 0 ? -a : a
  template <class R> static void reverse(R& r) {
    r.give(0, select(r.a() < 0.0, -r.w(), r.w()));
  }
  template <class X> static auto forward(const X& x) {
    return x.a() < 0.0 ? -x.dt(0) : x.dt(0);
  }
};

struct MinRule {  // a <= b ? a : b
  template <class R> static void reverse(R& r) {
    const auto took_a = r.a() <= r.b();
    r.give(0, select(took_a, r.w(), r.zero()));
    r.give(1, select(took_a, r.zero(), r.w()));
  }
  template <class X> static auto forward(const X& x) {
    return x.a() <= x.b() ? x.dt(0) : x.dt(1);
  }
};

struct MaxRule {  // a >= b ? a : b
  template <class R> static void reverse(R& r) {
    const auto took_a = r.a() >= r.b();
    r.give(0, select(took_a, r.w(), r.zero()));
    r.give(1, select(took_a, r.zero(), r.w()));
  }
  template <class X> static auto forward(const X& x) {
    return x.a() >= x.b() ? x.dt(0) : x.dt(1);
  }
};

struct SelectRule {  // a != 0 ? b : c
  template <class R> static void reverse(R& r) {
    const auto condition = truth(r.a());
    r.give(1, select(condition, r.w(), r.zero()));
    r.give(2, select(condition, r.zero(), r.w()));
  }
  template <class X> static auto forward(const X& x) {
    return x.a() != 0.0 ? x.dt(1) : x.dt(2);
  }
};

}  // namespace
}  // namespace odesens::expr
