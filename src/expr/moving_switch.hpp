// The first switch of an expression that moves with t or the states: a
// comparison, floor or ceil whose operands read t or a state. Its value
// jumps where the switch turns, which a quadrature of the expression (an
// integrand: integrand.hpp) steps across unless the steps end there.
#pragma once

#include <string>
#include <vector>

#include "expr/expr_graph.hpp"

namespace odesens::expr {

// The switch as text for messages ("'lt' comparison `t < T1`"), or empty
// where the expression at `root` has none.
std::string moving_switch_text(const Graph& graph, NodeId root,
                               const std::vector<std::string>& state_names,
                               const std::vector<std::string>& param_names);

// The first min, max or abs that reads t or a state among the expressions
// at `roots` ("'min' kink `min(x, a)`"), or empty; not one inside a
// condition, floor or ceil (f steps there, at switches of their own).
std::string moving_kink_text(const Graph& graph, const std::vector<NodeId>& roots,
                             const std::vector<std::string>& state_names,
                             const std::vector<std::string>& param_names);

}  // namespace odesens::expr
