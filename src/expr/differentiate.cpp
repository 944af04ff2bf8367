#include "expr/differentiate.hpp"

#include <algorithm>
#include <cmath>

#include "expr/derivative_rules.hpp"

namespace odesens::expr {

// Reused marks and adjoints, indexed by node id; a generation counter makes
// clearing them free between calls.
struct GradientWorkspace::Scratch {
  std::vector<std::uint32_t> in_cone, has_adjoint;
  std::vector<NodeId> adjoint;
  std::uint32_t generation = 0;

  void reset(std::size_t n) {
    if (in_cone.size() < n) {
      in_cone.resize(n, 0);
      has_adjoint.resize(n, 0);
      adjoint.resize(n, kNoNode);
    }
    if (++generation == 0) {  // wrapped: clear for real
      std::fill(in_cone.begin(), in_cone.end(), 0);
      std::fill(has_adjoint.begin(), has_adjoint.end(), 0);
      generation = 1;
    }
  }
};

GradientWorkspace::GradientWorkspace() : scratch_(std::make_unique<Scratch>()) {}
GradientWorkspace::~GradientWorkspace() = default;

namespace {

// A node of the graph under construction with the arithmetic of doubles,
// so that the derivative rules (derivative_rules.hpp) build nodes when
// they compute with Syms.
struct Sym {
  Graph* g;
  NodeId id;
};
Sym sym(const Sym& like, NodeId id) { return {like.g, id}; }
Sym operator-(Sym a) { return sym(a, a.g->neg(a.id)); }
Sym operator+(Sym a, Sym b) { return sym(a, a.g->add(a.id, b.id)); }
Sym operator-(Sym a, Sym b) { return sym(a, a.g->sub(a.id, b.id)); }
Sym operator*(Sym a, Sym b) { return sym(a, a.g->mul(a.id, b.id)); }
Sym operator/(Sym a, Sym b) { return sym(a, a.g->div(a.id, b.id)); }
// v as a node of the graph that `like` belongs to.
Sym constant_like(const Sym& like, double v) { return sym(like, like.g->constant(v)); }
Sym operator+(double a, Sym b) { return constant_like(b, a) + b; }
Sym operator-(double a, Sym b) { return constant_like(b, a) - b; }
Sym operator*(double a, Sym b) { return constant_like(b, a) * b; }
Sym operator-(Sym a, double b) { return a - constant_like(a, b); }
Sym operator*(Sym a, double b) { return a * constant_like(a, b); }
Sym operator<(Sym a, double b) {
  return sym(a, a.g->binary(Op::lt, a.id, constant_like(a, b).id));
}
Sym operator<=(Sym a, Sym b) { return sym(a, a.g->binary(Op::le, a.id, b.id)); }
Sym operator>=(Sym a, Sym b) { return sym(a, a.g->binary(Op::ge, a.id, b.id)); }
Sym unary(Op op, Sym a) { return sym(a, a.g->unary(op, a.id)); }
Sym sqrt(Sym a) { return unary(Op::sqrt, a); }
Sym fabs(Sym a) { return unary(Op::abs, a); }
Sym log(Sym a) { return unary(Op::log, a); }
Sym sin(Sym a) { return unary(Op::sin, a); }
Sym cos(Sym a) { return unary(Op::cos, a); }
Sym sinh(Sym a) { return unary(Op::sinh, a); }
Sym cosh(Sym a) { return unary(Op::cosh, a); }
Sym pow(Sym a, Sym b) { return sym(a, a.g->pow(a.id, b.id)); }
Sym powi(Sym a, int n) { return sym(a, a.g->powi(a.id, n)); }
Sym select(Sym c, Sym a, Sym b) { return sym(c, c.g->select(c.id, a.id, b.id)); }
Sym select(Sym c, double a, Sym b) { return select(c, constant_like(c, a), b); }
Sym operator==(Sym a, double b) { return sym(a, a.g->binary(Op::eq, a.id, constant_like(a, b).id)); }
Sym truth(Sym a) { return a; }  // a condition node is its own truth value

class Reverse {
 public:
  Reverse(Graph& g, GradientWorkspace::Scratch& ws) : g_(g), ws_(ws) {}

  std::vector<Partial> run(NodeId root) {
    const std::size_t n_before = g_.size();
    ws_.reset(n_before);
    std::vector<NodeId> cone = collect_cone(root);
    std::sort(cone.begin(), cone.end(), [](NodeId a, NodeId b) { return a > b; });
    give(root, g_.constant(1.0));
    std::vector<Partial> out;
    for (NodeId id : cone) {
      if (ws_.has_adjoint[id] != ws_.generation) continue;
      const NodeId w = ws_.adjoint[id];
      const Node n = g_.node(id);
      switch (n.op) {
        case Op::time: out.push_back({Op::time, 0, w}); break;
        case Op::state:
        case Op::param: out.push_back({n.op, n.index, w}); break;
        default: propagate(id, n, w); break;
      }
    }
    std::sort(out.begin(), out.end(), [](const Partial& a, const Partial& b) {
      return a.leaf != b.leaf ? a.leaf < b.leaf : a.index < b.index;
    });
    out.erase(std::remove_if(out.begin(), out.end(),
                             [this](const Partial& p) { return g_.is_constant(p.derivative, 0.0); }),
              out.end());
    return out;
  }

 private:
  // Nodes reachable from root that depend on some leaf.
  std::vector<NodeId> collect_cone(NodeId root) {
    std::vector<NodeId> cone, stack{root};
    while (!stack.empty()) {
      const NodeId id = stack.back();
      stack.pop_back();
      if (ws_.in_cone[id] == ws_.generation || g_.is_invariant(id)) continue;
      ws_.in_cone[id] = ws_.generation;
      cone.push_back(id);
      const Node& n = g_.node(id);
      for (NodeId c : {n.a, n.b, n.c})
        if (c != kNoNode) stack.push_back(c);
    }
    return cone;
  }

  void give(NodeId child, NodeId contribution) {
    if (g_.is_invariant(child) || g_.is_constant(contribution, 0.0)) return;
    if (ws_.has_adjoint[child] != ws_.generation) {
      ws_.has_adjoint[child] = ws_.generation;
      ws_.adjoint[child] = contribution;
    } else {
      ws_.adjoint[child] = g_.add(ws_.adjoint[child], contribution);
    }
  }

  bool varies(NodeId id) const { return !g_.is_invariant(id); }

  // The derivative rules' view of node `self` (= n) with adjoint w.
  struct Rule {
    Reverse& rev;
    NodeId self_id;
    const Node& node;
    NodeId w_id;
    Sym sym(NodeId id) const { return {&rev.g_, id}; }
    Sym a() const { return sym(node.a); }
    Sym b() const { return sym(node.b); }
    Sym c() const { return sym(node.c); }
    Sym self() const { return sym(self_id); }
    Sym w() const { return sym(w_id); }
    Sym zero() const { return sym(rev.g_.constant(0.0)); }
    int n() const { return node.index; }
    NodeId operand(int slot) const { return slot == 0 ? node.a : slot == 1 ? node.b : node.c; }
    bool varies(int slot) const { return rev.varies(operand(slot)); }
    void give(int slot, Sym contribution) { rev.give(operand(slot), contribution.id); }
  };

  // Pushes the adjoint w of node `self` (= n) to its operands.
  void propagate(NodeId self, const Node& n, NodeId w) {
    Rule r{*this, self, n, w};
    switch (n.op) {
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) \
  case Op::name: rule::reverse(r); break;
#include "expr/ops.def"
      default: break;  // constants and the tape-only store
    }
  }

  Graph& g_;
  GradientWorkspace::Scratch& ws_;
};

}  // namespace

std::vector<Partial> gradient(Graph& g, NodeId root, GradientWorkspace& workspace) {
  return Reverse(g, workspace.scratch()).run(root);
}

}  // namespace odesens::expr
