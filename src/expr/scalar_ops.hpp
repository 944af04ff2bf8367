// The meaning of every operation on one double. Constant folding uses these
// functions, and the tape evaluators compute the same operations with the
// same functions, so a folded constant equals what the tape would compute.
//
// Everything here has internal linkage (anonymous namespace) on purpose:
// the SIMD translation units include this header compiled with -mavx2 or
// -mavx512f, and a shared inline definition could be merged by the linker
// into code that runs on CPUs without those instructions.
#pragma once

#include <cmath>

#include "expr/expr_node.hpp"

namespace odesens::expr {
namespace {

// x^n by binary powering: only multiplications (and one division for n < 0),
// so negative bases work and the result does not depend on a libm pow.
// Written for any arithmetic type T so the SIMD lanes run the same sequence.
template <class T>
inline T powi(T x, int n) {
  unsigned m = n < 0 ? 0u - static_cast<unsigned>(n) : static_cast<unsigned>(n);
  T result = T{} + 1.0;  // 1 * base is exact, so no special first step
  T base = x;
  while (m != 0) {
    if (m & 1u) result = result * base;
    m >>= 1;
    if (m != 0) base = base * base;
  }
  return n < 0 ? 1.0 / result : result;
}

// The math functions of ops.def's `value` column on doubles: libm.
struct ScalarMath {
  using V = double;
#define sleef1(fn, accuracy) \
  static double fn(double a) { return std::fn(a); }
#define sleef2(fn, accuracy) \
  static double fn(double a, double b) { return std::fn(a, b); }
#define intrinsic
#define no_math
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) math
#include "expr/ops.def"
#undef sleef1
#undef sleef2
#undef intrinsic
#undef no_math
  static double sqrt(double a) { return std::sqrt(a); }
  static double abs(double a) { return std::fabs(a); }
};

// The value of operation op (ops.def) on a, b, c; n is the powi exponent.
// Operands an operation does not have are ignored.
inline double scalar_value(Op op, double a, double b, double c, int n) {
  using M = ScalarMath;
  const double one = 1.0, zero = 0.0;
  switch (op) {
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) \
  case Op::name:                                                              \
    return value;
#include "expr/ops.def"
    default: return std::nan("");
  }
}

inline double scalar_unary(Op op, double a, int index) {
  return arity(op) == 1 ? scalar_value(op, a, 0.0, 0.0, index) : std::nan("");
}

inline double scalar_binary(Op op, double a, double b) {
  return arity(op) == 2 ? scalar_value(op, a, b, 0.0, 0) : std::nan("");
}

inline double scalar_select(double c, double a, double b) { return c != 0.0 ? a : b; }

}  // namespace
}  // namespace odesens::expr
