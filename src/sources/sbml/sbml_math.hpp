// SBML MathML (libsbml ASTNode trees) to nodes of the expression graph.
//
// Every MathML function with a meaning in an ODE: arithmetic, powers and
// roots, exp/ln/log with a base, the trigonometric and hyperbolic functions
// with their reciprocals and inverses (composed from the graph's operations
// where it has no operation of its own), abs, floor, ceiling, factorial,
// min, max, quotient, rem, piecewise, relations and logic (as 0/1 values),
// the constants true, false, e, pi, infinity, NaN and Avogadro's number,
// and calls of function definitions, which are inlined. A <ci> name is
// resolved by the caller (Scope::resolve), so the translator knows nothing
// of species, rules or contexts.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sources/sbml/sbml_api.hpp"

#include "expr/expr_graph.hpp"

namespace odesens::expr::sbml {

struct Scope {
  NodeId time = kNoNode;  // what the time csymbol means here
  // Value of a model id; throws Error when there is none.
  std::function<NodeId(const std::string& id)> resolve;
  // Where the math is, for messages: "the kinetic law of reaction 'R1'",
  // and the element that holds it (for its line), or null.
  std::string where;
  const SBase* element = nullptr;
};

class MathTranslator {
 public:
  // `file` prefixes messages; `model` holds the function definitions.
  MathTranslator(Graph& graph, const SbmlModel& model, std::string file);

  // Error(parse_error) for malformed math (wrong argument counts, unknown
  // functions, recursion), Error(unsupported) for MathML without an ODE
  // meaning here (delay, rateOf, package functions).
  NodeId translate(const ASTNode* math, const Scope& scope);

 private:
  struct Frame;  // a function body being inlined: its arguments

  NodeId node(const ASTNode* a, const Scope& scope, const Frame* frame);
  NodeId name(const ASTNode* a, const Scope& scope, const Frame* frame);
  NodeId call(const ASTNode* a, const Scope& scope, const Frame* frame);
  NodeId function(const ASTNode* a, const std::vector<NodeId>& args, const Scope& scope);
  [[noreturn]] void fail(const Scope& scope, const std::string& message, bool is_unsupported = false) const;

  Graph& g_;
  const SbmlModel& model_;
  std::string file_;
  std::vector<std::string> inlining_;  // function definitions being inlined (recursion check)
};

}  // namespace odesens::expr::sbml
