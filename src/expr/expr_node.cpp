#include "expr/expr_node.hpp"

namespace odesens::expr {

int arity(Op op) {
  if (op <= Op::param) return 0;
  if (op <= Op::logical_not) return 1;
  if (op <= Op::logical_or) return 2;
  if (op == Op::select) return 3;
  return 1;  // store
}

bool is_condition(Op op) {
  return op == Op::logical_not || (op >= Op::lt && op <= Op::logical_or);
}

bool is_piecewise_constant(Op op) {
  return op == Op::floor || op == Op::ceil || op == Op::factorial;
}

bool is_leaf(Op op) { return op <= Op::param; }

const char* op_name(Op op) {
  switch (op) {
    case Op::constant: return "constant";
    case Op::time: return "t";
    case Op::state: return "state";
    case Op::param: return "param";
    case Op::neg: return "neg";
    case Op::exp: return "exp";
    case Op::log: return "log";
    case Op::log10: return "log10";
    case Op::sqrt: return "sqrt";
    case Op::sin: return "sin";
    case Op::cos: return "cos";
    case Op::tan: return "tan";
    case Op::sinh: return "sinh";
    case Op::cosh: return "cosh";
    case Op::tanh: return "tanh";
    case Op::asin: return "asin";
    case Op::acos: return "acos";
    case Op::atan: return "atan";
    case Op::floor: return "floor";
    case Op::ceil: return "ceil";
    case Op::factorial: return "factorial";
    case Op::abs: return "abs";
    case Op::powi: return "powi";
    case Op::logical_not: return "!";
    case Op::add: return "+";
    case Op::sub: return "-";
    case Op::mul: return "*";
    case Op::div: return "/";
    case Op::pow: return "pow";
    case Op::min: return "min";
    case Op::max: return "max";
    case Op::lt: return "<";
    case Op::le: return "<=";
    case Op::gt: return ">";
    case Op::ge: return ">=";
    case Op::eq: return "==";
    case Op::ne: return "!=";
    case Op::logical_and: return "&&";
    case Op::logical_or: return "||";
    case Op::select: return "select";
    case Op::store: return "store";
    case Op::count: break;
  }
  return "?";
}

}  // namespace odesens::expr
