// Structural affinity (affine.hpp).
#include "expr/affine.hpp"

#include <algorithm>
#include <unordered_map>

namespace odesens::expr {
namespace {

bool is_one_of(const Node& n, const std::vector<int>& params) {
  return n.op == Op::param && std::find(params.begin(), params.end(), n.index) != params.end();
}

// Memoized depth-first walks; the graphs of real models share subexpressions
// widely, so each node is decided once.
class Walk {
 public:
  Walk(const Graph& g, const std::vector<int>& params) : g_(g), params_(params) {}

  bool depends(NodeId id) {
    if (id == kNoNode) return false;
    const Node& n = g_.node(id);
    if (!(n.depends & kOnParam)) return false;
    if (is_leaf(n.op)) return is_one_of(n, params_);
    const auto found = depends_.find(id);
    if (found != depends_.end()) return found->second;
    const bool d = depends(n.a) || depends(n.b) || depends(n.c);
    depends_[id] = d;
    return d;
  }

  // linear: free terms are not allowed (root = b s); else affine.
  bool affine(NodeId id, bool linear = false) {
    if (!depends(id)) return !linear;
    const Node& n = g_.node(id);
    if (is_leaf(n.op)) return true;  // one of the parameters
    auto& memo = linear ? linear_ : affine_;
    const auto found = memo.find(id);
    if (found != memo.end()) return found->second;
    bool a = false;
    switch (n.op) {
      case Op::add:
      case Op::sub: a = affine(n.a, linear) && affine(n.b, linear); break;
      case Op::neg: a = affine(n.a, linear); break;
      case Op::mul:
        a = (!depends(n.a) && affine(n.b, linear)) || (!depends(n.b) && affine(n.a, linear));
        break;
      case Op::div: a = !depends(n.b) && affine(n.a, linear); break;
      default: a = false; break;
    }
    memo[id] = a;
    return a;
  }

 private:
  const Graph& g_;
  const std::vector<int>& params_;
  std::unordered_map<NodeId, bool> depends_, affine_, linear_;
};

}  // namespace

bool depends_on_params(const Graph& g, NodeId root, const std::vector<int>& params) {
  return Walk(g, params).depends(root);
}

bool is_affine_in(const Graph& g, NodeId root, const std::vector<int>& params) {
  return Walk(g, params).affine(root);
}

bool is_linear_in(const Graph& g, NodeId root, const std::vector<int>& params) {
  return Walk(g, params).affine(root, true);
}

}  // namespace odesens::expr
