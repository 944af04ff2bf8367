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

inline double bool_value(bool b) { return b ? 1.0 : 0.0; }

inline double scalar_unary(Op op, double a, int index) {
  switch (op) {
    case Op::neg: return -a;
    case Op::exp: return std::exp(a);
    case Op::log: return std::log(a);
    case Op::log10: return std::log10(a);
    case Op::sqrt: return std::sqrt(a);
    case Op::sin: return std::sin(a);
    case Op::cos: return std::cos(a);
    case Op::tan: return std::tan(a);
    case Op::sinh: return std::sinh(a);
    case Op::cosh: return std::cosh(a);
    case Op::tanh: return std::tanh(a);
    case Op::asin: return std::asin(a);
    case Op::acos: return std::acos(a);
    case Op::atan: return std::atan(a);
    case Op::floor: return std::floor(a);
    case Op::ceil: return std::ceil(a);
    case Op::factorial: return std::tgamma(a + 1.0);
    case Op::abs: return std::fabs(a);
    case Op::powi: return powi(a, index);
    case Op::logical_not: return bool_value(a == 0.0);
    default: return std::nan("");
  }
}

inline double scalar_binary(Op op, double a, double b) {
  switch (op) {
    case Op::add: return a + b;
    case Op::sub: return a - b;
    case Op::mul: return a * b;
    case Op::div: return a / b;
    case Op::pow: return std::pow(a, b);
    case Op::min: return a <= b ? a : b;
    case Op::max: return a >= b ? a : b;
    case Op::lt: return bool_value(a < b);
    case Op::le: return bool_value(a <= b);
    case Op::gt: return bool_value(a > b);
    case Op::ge: return bool_value(a >= b);
    case Op::eq: return bool_value(a == b);
    case Op::ne: return bool_value(a != b);
    case Op::logical_and: return bool_value(a != 0.0 && b != 0.0);
    case Op::logical_or: return bool_value(a != 0.0 || b != 0.0);
    default: return std::nan("");
  }
}

inline double scalar_select(double c, double a, double b) { return c != 0.0 ? a : b; }

}  // namespace
}  // namespace odesens::expr
