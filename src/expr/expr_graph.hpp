// The expression DAG. Nodes are hash-consed: building the same operation on
// the same operands twice gives the same node, so shared subexpressions
// (lets, repeated terms, derivative pieces) are stored and evaluated once.
// Node ids grow with creation and operands are created first, so id order
// is a topological order.
//
// Builders fold operations on constants and apply a few algebraic
// identities (x+0, x*1, x*0, x/1, 0/x, x-x, --x, x^0, x^1). x*0, 0/x and x-x
// -> 0 assume finite x: model expressions are meant to be finite where they are
// used, and symbolic derivatives rely on structural zeros staying zero
// (for instance d/dp of log(x) * (something independent of p)).
#pragma once

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "expr/expr_node.hpp"

namespace odesens::expr {

class Graph {
 public:
  Graph() = default;

  const Node& node(NodeId id) const { return nodes_[id]; }
  std::size_t size() const { return nodes_.size(); }

  NodeId constant(double value);
  NodeId time();
  NodeId state(int i);
  NodeId param(int j);

  NodeId unary(Op op, NodeId a);
  NodeId binary(Op op, NodeId a, NodeId b);
  NodeId select(NodeId condition, NodeId if_true, NodeId if_false);
  NodeId powi(NodeId a, int n);
  // pow with an integral constant exponent (|n| <= 2^20) becomes powi.
  NodeId pow(NodeId a, NodeId b);

  // Node id's operation on new operands (a leaf stays itself), folded as
  // the builders above fold.
  NodeId rebuild(NodeId id, NodeId a, NodeId b, NodeId c);

  NodeId neg(NodeId a) { return unary(Op::neg, a); }
  NodeId add(NodeId a, NodeId b) { return binary(Op::add, a, b); }
  NodeId sub(NodeId a, NodeId b) { return binary(Op::sub, a, b); }
  NodeId mul(NodeId a, NodeId b) { return binary(Op::mul, a, b); }
  NodeId div(NodeId a, NodeId b) { return binary(Op::div, a, b); }

  bool is_constant(NodeId id) const { return nodes_[id].op == Op::constant; }
  // True when id is the constant v (compared by value, so -0.0 == 0.0).
  bool is_constant(NodeId id, double v) const {
    return is_constant(id) && nodes_[id].value == v;
  }
  // True when the node depends on no time, state or parameter.
  bool is_invariant(NodeId id) const { return nodes_[id].depends == 0; }

 private:
  struct Key {
    Op op;
    std::int32_t index;
    NodeId a, b, c;
    std::uint64_t value_bits;
    bool operator==(const Key& o) const {
      return op == o.op && index == o.index && a == o.a && b == o.b && c == o.c &&
             value_bits == o.value_bits;
    }
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };

  NodeId intern(const Node& n);
  NodeId fold(Op op, NodeId a, NodeId b, NodeId c, int index);

  std::vector<Node> nodes_;
  std::unordered_map<Key, NodeId, KeyHash> index_;
};

}  // namespace odesens::expr
