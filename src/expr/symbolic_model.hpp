// A model as expressions: what the .ode parser and record() produce and
// ExprModel consumes. x0 may depend on parameters only; the right-hand sides
// and outputs on t, states and parameters (consts and lets are already
// inlined as constants and shared subexpressions).
#pragma once

#include <string>
#include <vector>

#include "expr/expr_graph.hpp"

namespace odesens::expr {

struct SymbolicModel {
  std::string name;
  Graph graph;
  std::vector<std::string> state_names;
  std::vector<std::string> param_names;
  std::vector<double> nominal_params;
  std::vector<NodeId> x0;   // nx
  std::vector<NodeId> rhs;  // nx
  std::vector<std::string> output_names;
  std::vector<NodeId> outputs;
  double t0 = 0.0;
  double t_end = 1.0;
};

}  // namespace odesens::expr
