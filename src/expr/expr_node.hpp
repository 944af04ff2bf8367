// Nodes of the expression DAG: what an operation is, how many operands it
// has, and how it is spelled in messages.
//
// Conditions (comparisons, && || !) are ordinary nodes whose value is 1.0
// (true) or 0.0 (false); `select(c, a, b)` picks a where c is non-zero. This
// keeps one value type through the graph, the tapes and the SIMD lanes.
#pragma once

#include <cstdint>

namespace odesens::expr {

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = 0xffffffffu;

enum class Op : std::uint8_t {
  // leaves
  constant,
  time,
  state,  // index = state number
  param,  // index = parameter number
  // unary
  neg,
  exp,
  log,
  log10,
  sqrt,
  sin,
  cos,
  tan,
  sinh,
  cosh,
  tanh,
  asin,
  acos,
  atan,
  // piecewise constant: zero derivative wherever they are differentiable
  floor,
  ceil,
  factorial,  // Gamma(a + 1); SBML defines it on non-negative integers
  abs,
  powi,  // a^index, index a (possibly negative) integer: exact for negative a
  logical_not,
  // binary
  add,
  sub,
  mul,
  div,
  pow,
  min,  // a <= b ? a : b
  max,  // a >= b ? a : b
  lt,
  le,
  gt,
  ge,
  eq,
  ne,
  logical_and,
  logical_or,
  // ternary
  select,  // a != 0 ? b : c
  // tape only: out[index] = a
  store,
  count
};

// Which of t, x, p a node depends on (bit set), for dead-code and
// parameter-only hoisting decisions.
enum DependsOn : std::uint8_t { kOnTime = 1, kOnState = 2, kOnParam = 4 };

struct Node {
  Op op = Op::constant;
  std::uint8_t depends = 0;  // DependsOn bits
  std::int32_t index = 0;    // state/param number, powi exponent
  NodeId a = kNoNode, b = kNoNode, c = kNoNode;
  double value = 0.0;        // constant value
};

int arity(Op op);
// True for comparisons and logical operators (values 0/1, zero derivative).
bool is_condition(Op op);
// True for floor, ceil and factorial: steps whose derivative is taken as zero
// (factorial because it is meant for integer arguments, typically a floor or
// ceiling).
bool is_piecewise_constant(Op op);
bool is_leaf(Op op);
const char* op_name(Op op);

}  // namespace odesens::expr
