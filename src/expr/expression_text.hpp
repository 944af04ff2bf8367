// An expression of the graph as text, for messages: "abs(t - 6.1) <
// 0.02", with the model's names for states and parameters. Long
// expressions are cut to about max_chars, ending in "...".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "expr/expr_graph.hpp"

namespace odesens::expr {

std::string expression_text(const Graph& graph, NodeId id,
                            const std::vector<std::string>& state_names,
                            const std::vector<std::string>& param_names,
                            std::size_t max_chars = 72);

}  // namespace odesens::expr
