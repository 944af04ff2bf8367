#include "expr/moving_switch.hpp"

#include "expr/expr_node.hpp"
#include "expr/expression_text.hpp"
#include "expr/switch_ops.hpp"

namespace odesens::expr {

std::string moving_switch_text(const Graph& graph, NodeId root,
                               const std::vector<std::string>& state_names,
                               const std::vector<std::string>& param_names) {
  std::vector<char> seen(graph.size(), 0);
  std::vector<NodeId> stack{root};
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    if (id == kNoNode || seen[id]) continue;
    seen[id] = 1;
    const Node& n = graph.node(id);
    if (!(n.depends & (kOnTime | kOnState))) continue;  // constant along a solution
    if (is_switch(n.op))
      return std::string("'") + op_name(n.op) + "' " +
             (n.op == Op::floor || n.op == Op::ceil ? "switch" : "comparison") + " `" +
             expression_text(graph, id, state_names, param_names) + "`";
    for (NodeId operand : {n.a, n.b, n.c}) stack.push_back(operand);
  }
  return {};
}

std::string moving_kink_text(const Graph& graph, const std::vector<NodeId>& roots,
                             const std::vector<std::string>& state_names,
                             const std::vector<std::string>& param_names) {
  std::vector<char> seen(graph.size(), 0);
  std::vector<NodeId> stack(roots.begin(), roots.end());
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    if (id == kNoNode || seen[id]) continue;
    seen[id] = 1;
    const Node& n = graph.node(id);
    if (!(n.depends & (kOnTime | kOnState))) continue;  // constant along a solution
    if (n.op == Op::min || n.op == Op::max || n.op == Op::abs)
      return std::string("'") + op_name(n.op) + "' kink `" +
             expression_text(graph, id, state_names, param_names) + "`";
    // A condition's, floor's or ceil's value is piecewise constant, with
    // switches of its own: a kink inside it is no kink of f.
    if (is_condition(n.op) || is_switch(n.op)) continue;
    if (n.op == Op::select) {
      stack.push_back(n.b);
      stack.push_back(n.c);
      continue;
    }
    for (NodeId operand : {n.a, n.b, n.c}) stack.push_back(operand);
  }
  return {};
}

}  // namespace odesens::expr
