// Symbolic differentiation of one expression with respect to every time,
// state and parameter leaf it depends on, by reverse accumulation over the
// DAG: each node's adjoint (an expression) is pushed to its operands with
// the operation's local partial derivative, in reverse topological order.
// The result shares all subexpressions with the original through
// hash-consing, so J rows reuse the values of f.
//
// Branch-wise rules: abs, min, max and select differentiate the branch that
// is taken; conditions have zero derivative. Operands that depend on no
// leaf get no adjoint, so for instance pow(a, 3.5) never builds log(a).
#pragma once

#include <memory>
#include <vector>

#include "expr/expr_graph.hpp"

namespace odesens::expr {

struct Partial {
  Op leaf;    // Op::time, Op::state or Op::param
  int index;  // state or parameter number (0 for time)
  NodeId derivative;
};

// Marks and adjoints indexed by node id, reused by the gradients of many
// roots (cleared in O(1) between them); owned by the caller, one per thread.
class GradientWorkspace {
 public:
  struct Scratch;
  GradientWorkspace();
  ~GradientWorkspace();
  Scratch& scratch() { return *scratch_; }

 private:
  std::unique_ptr<Scratch> scratch_;
};

// Partial derivatives of `root`, one per leaf with a derivative that is not
// the constant zero, ordered by leaf kind (time, states, params) and index.
std::vector<Partial> gradient(Graph& g, NodeId root, GradientWorkspace& workspace);

}  // namespace odesens::expr
