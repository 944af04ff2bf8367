// What a model's expressions read: a walk of the expression graph.
#pragma once

#include <functional>
#include <vector>

#include "expr/symbolic_model.hpp"

namespace odesens::petab {

// Calls visit on each node that the nodes `roots` of `sym` reach (themselves
// included) through the operands that depend on a parameter or a state,
// once each: what those expressions read. The caller holds the model's
// graph lock (ExprModel::Impl::lock_graph) where a solve may grow it.
void visit_reached_nodes(const expr::SymbolicModel& sym, std::vector<expr::NodeId> roots,
                         const std::function<void(const expr::Node&)>& visit);

}  // namespace odesens::petab
