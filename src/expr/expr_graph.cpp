#include "expr/expr_graph.hpp"

#include <cmath>
#include <cstring>
#include <initializer_list>

#include "expr/scalar_ops.hpp"
#include "odesens/status.hpp"

namespace odesens::expr {
namespace {

std::uint64_t bits_of(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

bool is_commutative(Op op) {
  return op == Op::add || op == Op::mul || op == Op::eq || op == Op::ne ||
         op == Op::logical_and || op == Op::logical_or;
}

}  // namespace

std::size_t Graph::KeyHash::operator()(const Key& k) const {
  std::uint64_t h = 0x9e3779b97f4a7c15ull * (static_cast<std::uint64_t>(k.op) + 1);
  auto mix = [&h](std::uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  };
  mix(static_cast<std::uint32_t>(k.index));
  mix(k.a);
  mix(k.b);
  mix(k.c);
  mix(k.value_bits);
  return static_cast<std::size_t>(h);
}

NodeId Graph::intern(const Node& n) {
  const Key key{n.op, n.index, n.a, n.b, n.c, bits_of(n.value)};
  auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  if (nodes_.size() >= kNoNode - 1)
    throw Error(Status::unsupported, "expression graph too large");
  Node stored = n;
  stored.depends = 0;
  for (NodeId child : {n.a, n.b, n.c})
    if (child != kNoNode) stored.depends |= nodes_[child].depends;
  if (n.op == Op::time) stored.depends = kOnTime;
  if (n.op == Op::state) stored.depends = kOnState;
  if (n.op == Op::param) stored.depends = kOnParam;
  const auto id = static_cast<NodeId>(nodes_.size());
  nodes_.push_back(stored);
  index_.emplace(key, id);
  return id;
}

NodeId Graph::constant(double value) {
  Node n;
  n.op = Op::constant;
  n.value = value;
  return intern(n);
}

NodeId Graph::time() {
  Node n;
  n.op = Op::time;
  return intern(n);
}

NodeId Graph::state(int i) {
  Node n;
  n.op = Op::state;
  n.index = i;
  return intern(n);
}

NodeId Graph::param(int j) {
  Node n;
  n.op = Op::param;
  n.index = j;
  return intern(n);
}

NodeId Graph::fold(Op op, NodeId a, NodeId b, NodeId c, int index) {
  Node n;
  n.op = op;
  n.index = index;
  n.a = a;
  n.b = b;
  n.c = c;
  return intern(n);
}

NodeId Graph::unary(Op op, NodeId a) {
  const Node& na = nodes_[a];
  if (na.op == Op::constant) return constant(scalar_unary(op, na.value, 0));
  if (op == Op::neg && na.op == Op::neg) return na.a;
  if (op == Op::abs && (na.op == Op::abs || na.op == Op::neg))
    return na.op == Op::abs ? a : unary(Op::abs, na.a);
  if (op == Op::logical_not && na.op == Op::logical_not) return na.a;
  return fold(op, a, kNoNode, kNoNode, 0);
}

NodeId Graph::binary(Op op, NodeId a, NodeId b) {
  if (op == Op::pow) return pow(a, b);
  if (is_constant(a) && is_constant(b))
    return constant(scalar_binary(op, nodes_[a].value, nodes_[b].value));
  switch (op) {
    case Op::add:
      if (is_constant(a, 0.0)) return b;
      if (is_constant(b, 0.0)) return a;
      if (nodes_[b].op == Op::neg) return sub(a, nodes_[b].a);
      if (nodes_[a].op == Op::neg) return sub(b, nodes_[a].a);
      break;
    case Op::sub:
      if (is_constant(b, 0.0)) return a;
      if (is_constant(a, 0.0)) return neg(b);
      if (a == b) return constant(0.0);
      if (nodes_[b].op == Op::neg) return add(a, nodes_[b].a);
      break;
    case Op::mul:
      if (is_constant(a, 0.0) || is_constant(b, 0.0)) return constant(0.0);
      if (is_constant(a, 1.0)) return b;
      if (is_constant(b, 1.0)) return a;
      if (is_constant(a, -1.0)) return neg(b);
      if (is_constant(b, -1.0)) return neg(a);
      break;
    case Op::div:
      if (is_constant(b, 1.0)) return a;
      if (is_constant(b, -1.0)) return neg(a);
      if (is_constant(a, 0.0)) return constant(0.0);
      break;
    default: break;
  }
  if (is_commutative(op) && b < a) std::swap(a, b);
  return fold(op, a, b, kNoNode, 0);
}

NodeId Graph::select(NodeId condition, NodeId if_true, NodeId if_false) {
  if (is_constant(condition))
    return nodes_[condition].value != 0.0 ? if_true : if_false;
  if (if_true == if_false) return if_true;
  return fold(Op::select, condition, if_true, if_false, 0);
}

NodeId Graph::powi(NodeId a, int n) {
  if (n == 0) return constant(1.0);
  if (n == 1) return a;
  if (is_constant(a)) return constant(expr::powi(nodes_[a].value, n));
  return fold(Op::powi, a, kNoNode, kNoNode, n);
}

NodeId Graph::pow(NodeId a, NodeId b) {
  if (is_constant(b)) {
    const double e = nodes_[b].value;
    // Up to 2^20: a handful of multiplications, and derivatives (n-1, n-2)
    // stay far from int overflow.
    if (e == std::floor(e) && std::fabs(e) <= 1048576.0) return powi(a, static_cast<int>(e));
  }
  if (is_constant(a) && is_constant(b))
    return constant(std::pow(nodes_[a].value, nodes_[b].value));
  return fold(Op::pow, a, b, kNoNode, 0);
}

NodeId Graph::rebuild(NodeId id, NodeId a, NodeId b, NodeId c) {
  const Node n = nodes_[id];
  if (is_leaf(n.op)) return id;
  if (n.op == Op::select) return select(a, b, c);
  if (n.op == Op::powi) return powi(a, n.index);
  if (arity(n.op) == 1) return unary(n.op, a);
  return binary(n.op, a, b);
}

}  // namespace odesens::expr
