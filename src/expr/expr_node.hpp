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

// Every operation, in the order of ops.def (leaves, unary, binary,
// ternary, tape-only), where each one is declared with its name, arity,
// value, derivative and code generation.
enum class Op : std::uint8_t {
#define ODESENS_LEAF(name, text) name,
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) name,
#define ODESENS_TAPE_OP(name, text, arity) name,
#include "expr/ops.def"
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
