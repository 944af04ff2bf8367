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

#include <cstddef>
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
  // The rate of change of a model id (the rateOf csymbol), or null where
  // rateOf has no meaning.
  std::function<NodeId(const std::string& id)> rate_of;
  // Where the math is, for messages: "the kinetic law of reaction 'R1'",
  // and the element that holds it (for its line), or null.
  std::string where;
  const SBase* element = nullptr;
};

// Limits that keep the translation within the stack and its work within
// bounds whatever the document (the translation recurses through the
// MathML tree, into the body of every function called and, through
// Scope::resolve, into the math of the values referred to):
// - kMaxMathDepth: MathML nested at most this deep, counting through the
//   bodies of the functions inlined and the math of the values referred to
//   (a chain of 200 rules a_i = a_{i-1} + 1 is 400 levels). Real models:
//   72 at most (SalazarCavazos_MBoC2020); each level takes about 0.5 KB of
//   stack.
// - kMaxFunctionNesting: function definitions calling one another at most
//   this deep (real models: a few levels).
// - kMaxInlinedNodes: at most this many MathML nodes translated inside
//   inlined function bodies over the whole model. Each call inlines the
//   body again, so f_i(x) = f_{i-1}(x) + f_{i-1}(x) doubles the work at
//   each level: 20 levels are a million nodes.
// Beyond a limit the model is Error(unsupported) with a message naming it.
constexpr std::size_t kMaxMathDepth = 500;
constexpr std::size_t kMaxFunctionNesting = 64;
constexpr std::size_t kMaxInlinedNodes = 1000000;

class MathTranslator {
 public:
  // `file` prefixes messages; `model` holds the function definitions.
  MathTranslator(Graph& graph, const SbmlModel& model, std::string file);

  // Error(parse_error) for malformed math (wrong argument counts, unknown
  // functions, recursion), Error(unsupported) for MathML without an ODE
  // meaning here (delay, package functions; rateOf where the scope has no rate_of) and beyond the limits
  // above.
  NodeId translate(const ASTNode* math, const Scope& scope);

 private:
  struct Frame;  // a function body being inlined: its arguments

  NodeId node(const ASTNode* a, const Scope& scope, const Frame* frame);
  NodeId name(const ASTNode* a, const Scope& scope, const Frame* frame);
  NodeId call(const ASTNode* a, const Scope& scope, const Frame* frame);
  NodeId function(const ASTNode* a, const std::vector<NodeId>& args, const Scope& scope);
  [[noreturn]] void fail(const Scope& scope, const std::string& message,
                         bool is_unsupported = false) const;

  Graph& g_;
  std::string file_;
  std::unordered_map<std::string, const FunctionDefinition*> functions_;  // by id
  std::vector<std::string> inlining_;  // function definitions being inlined (recursion check)
  std::size_t depth_ = 0;              // node() calls under way, across nested translate()
  std::size_t inlined_nodes_ = 0;      // nodes translated inside function bodies so far
};

}  // namespace odesens::expr::sbml
