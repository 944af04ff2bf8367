#include "expr/moving_switch.hpp"

#include "expr/expr_node.hpp"
#include "expr/expression_text.hpp"
#include "expr/switch_ops.hpp"

namespace odesens::expr {

namespace {

// What a walk does at a node that moves with t or the states.
enum class MovingWalk { found, stop, operands, select_values };

// The first node from `roots` down (depth first, each node once) that
// `visit` finds, among the nodes that move with t or the states (the
// others are constant along a solution); kNoNode for none.
template <class Visit>
NodeId first_moving_node(const Graph& graph, std::vector<NodeId> stack, Visit visit) {
  std::vector<char> seen(graph.size(), 0);
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    if (id == kNoNode || seen[id]) continue;
    seen[id] = 1;
    const Node& n = graph.node(id);
    if (!(n.depends & (kOnTime | kOnState))) continue;
    switch (visit(n)) {
      case MovingWalk::found: return id;
      case MovingWalk::stop: break;
      case MovingWalk::select_values:
        stack.push_back(n.b);
        stack.push_back(n.c);
        break;
      case MovingWalk::operands:
        for (NodeId operand : {n.a, n.b, n.c}) stack.push_back(operand);
        break;
    }
  }
  return kNoNode;
}

}  // namespace

std::string moving_switch_text(const Graph& graph, NodeId root,
                               const std::vector<std::string>& state_names,
                               const std::vector<std::string>& param_names) {
  const NodeId id = first_moving_node(graph, {root}, [](const Node& n) {
    return is_switch(n.op) ? MovingWalk::found : MovingWalk::operands;
  });
  if (id == kNoNode) return {};
  const Op op = graph.node(id).op;
  return std::string("'") + op_name(op) + "' " +
         (op == Op::floor || op == Op::ceil ? "switch" : "comparison") + " `" +
         expression_text(graph, id, state_names, param_names) + "`";
}

std::string moving_kink_text(const Graph& graph, const std::vector<NodeId>& roots,
                             const std::vector<std::string>& state_names,
                             const std::vector<std::string>& param_names) {
  const NodeId id = first_moving_node(graph, roots, [](const Node& n) {
    if (n.op == Op::min || n.op == Op::max || n.op == Op::abs) return MovingWalk::found;
    // A condition's, floor's or ceil's value is piecewise constant, with
    // switches of its own: a kink inside it is no kink of f (nor one in
    // the condition of a select).
    if (is_condition(n.op) || is_switch(n.op)) return MovingWalk::stop;
    return n.op == Op::select ? MovingWalk::select_values : MovingWalk::operands;
  });
  if (id == kNoNode) return {};
  return std::string("'") + op_name(graph.node(id).op) + "' kink `" +
         expression_text(graph, id, state_names, param_names) + "`";
}

}  // namespace odesens::expr
