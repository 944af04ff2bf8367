// First pass over .ode text: every line becomes a statement with a typed
// expression tree. Syntax, argument counts, the value/condition typing
// (conditions only as piecewise conditions), declarations and duplicate
// names are checked here; names are resolved by the second pass
// (ode_semantics.cpp), because lets may refer to lets declared later.
#pragma once

#include <string>
#include <vector>

#include "expr/expr_node.hpp"
#include "sources/ode/ode_source.hpp"

namespace odesens::expr {

// Expression trees of a whole file live in one array; a node's operands
// always come before it, so a statement's nodes can be visited in index
// order without recursion.
struct AstNode {
  enum class Kind { number, name, apply } kind = Kind::number;
  double number = 0.0;
  std::string name;        // Kind::name
  Op op = Op::constant;    // Kind::apply: the operation
  std::vector<int> args;   // Kind::apply: operand nodes
  bool is_hill = false;    // Kind::apply: hill(x, K, n), built from pow
  bool is_piecewise = false;  // Kind::apply: piecewise(v1, c1, ..., otherwise)
  SourceLocation at;
};

enum class StatementKind { param, constant, state, let, derivative, output, time, event };

// One expression of a statement: its nodes [first, root]; for an event's
// assignments also the state it assigns.
struct Part {
  int first = 0;
  int root = -1;
  std::string target;
  SourceLocation target_at;
};

struct Statement {
  StatementKind kind;
  std::string name;    // declared name; for derivative: the state; for time: t0 or t_end
  SourceLocation name_at;
  int first_node = 0;  // expression nodes [first_node, root]
  int root = -1;       // -1 for param and time (number only)
  double number = 0.0; // param and time value
  // event: its condition, its delay (root -1 without `after`), then one
  // part per assignment.
  std::vector<Part> parts;
};

struct OdeSyntax {
  std::vector<AstNode> nodes;
  std::vector<Statement> statements;
};

OdeSyntax parse_ode_syntax(const std::string& text, const std::string& file);

const char* statement_keyword(StatementKind kind);

}  // namespace odesens::expr
