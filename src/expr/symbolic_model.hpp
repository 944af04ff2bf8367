// A model as expressions: what the .ode parser, the SBML importer and
// record() produce and ExprModel consumes. x0 may depend on parameters only;
// the right-hand sides, outputs and observables on t, states and parameters
// (consts and lets are already inlined as constants and shared
// subexpressions).
#pragma once

#include <string>
#include <utility>
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
  // Named values a caller may observe (.ode lets; for SBML every id with a
  // value, species also as ID:amount and ID:concentration). They take
  // precedence over states and outputs of the same name, which ExprModel
  // adds to the observables itself.
  std::vector<std::string> observable_names;
  std::vector<NodeId> observables;
  // Facts about the source for `odesens info`, in order ("reactions", "36").
  std::vector<std::pair<std::string, std::string>> details;
  double t0 = 0.0;
  double t_end = 1.0;
};

}  // namespace odesens::expr
