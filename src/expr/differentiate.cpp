#include "expr/differentiate.hpp"

#include <algorithm>
#include <cmath>

namespace odesens::expr {
namespace {

const double kLn10 = 2.302585092994045684017991454684364208;

// Reused marks and adjoints, indexed by node id; a generation counter makes
// clearing them free between calls.
struct Workspace {
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

class Reverse {
 public:
  Reverse(Graph& g, Workspace& ws) : g_(g), ws_(ws) {}

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

  // Pushes the adjoint w of node `self` (= n) to its operands.
  void propagate(NodeId self, const Node& n, NodeId w) {
    Graph& g = g_;
    const NodeId a = n.a, b = n.b;
    auto one = [&g] { return g.constant(1.0); };
    switch (n.op) {
      case Op::neg: give(a, g.neg(w)); break;
      case Op::add:
        give(a, w);
        give(b, w);
        break;
      case Op::sub:
        give(a, w);
        give(b, g.neg(w));
        break;
      case Op::mul:
        give(a, g.mul(w, b));
        give(b, g.mul(w, a));
        break;
      case Op::div:  // d(a/b) = da/b - (a/b) db/b
        give(a, g.div(w, b));
        if (varies(b)) give(b, g.neg(g.div(g.mul(w, self), b)));
        break;
      case Op::pow:  // d(a^b) = b a^(b-1) da + a^b log(a) db
        if (varies(a)) give(a, g.mul(w, g.mul(b, g.pow(a, g.sub(b, one())))));
        if (varies(b)) give(b, g.mul(w, g.mul(self, g.unary(Op::log, a))));
        break;
      case Op::powi:
        give(a, g.mul(w, g.mul(g.constant(n.index), g.powi(a, n.index - 1))));
        break;
      case Op::exp: give(a, g.mul(w, self)); break;
      case Op::log: give(a, g.div(w, a)); break;
      case Op::log10: give(a, g.div(w, g.mul(a, g.constant(kLn10)))); break;
      case Op::sqrt: give(a, g.div(w, g.mul(g.constant(2.0), self))); break;
      case Op::sin: give(a, g.mul(w, g.unary(Op::cos, a))); break;
      case Op::cos: give(a, g.neg(g.mul(w, g.unary(Op::sin, a)))); break;
      case Op::tan: give(a, g.mul(w, g.add(one(), g.mul(self, self)))); break;
      case Op::sinh: give(a, g.mul(w, g.unary(Op::cosh, a))); break;
      case Op::cosh: give(a, g.mul(w, g.unary(Op::sinh, a))); break;
      case Op::tanh: give(a, g.mul(w, g.sub(one(), g.mul(self, self)))); break;
      case Op::asin:
        give(a, g.div(w, g.unary(Op::sqrt, g.sub(one(), g.mul(a, a)))));
        break;
      case Op::acos:
        give(a, g.neg(g.div(w, g.unary(Op::sqrt, g.sub(one(), g.mul(a, a))))));
        break;
      case Op::atan: give(a, g.div(w, g.add(one(), g.mul(a, a)))); break;
      case Op::abs:  // |a| = a < 0 ? -a : a
        give(a, g.select(g.binary(Op::lt, a, g.constant(0.0)), g.neg(w), w));
        break;
      case Op::min:
      case Op::max: {
        const NodeId took_a = g.binary(n.op == Op::min ? Op::le : Op::ge, a, b);
        const NodeId zero = g.constant(0.0);
        give(a, g.select(took_a, w, zero));
        give(b, g.select(took_a, zero, w));
        break;
      }
      case Op::select: {
        const NodeId zero = g.constant(0.0);
        give(b, g.select(a, w, zero));
        give(n.c, g.select(a, zero, w));
        break;
      }
      default: break;  // conditions, floor, ceil, factorial, constants: zero derivative
    }
  }

  Graph& g_;
  Workspace& ws_;
};

}  // namespace

std::vector<Partial> gradient(Graph& g, NodeId root) {
  thread_local Workspace ws;
  return Reverse(g, ws).run(root);
}

}  // namespace odesens::expr
