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

// A discrete event (docs/events.md): when `trigger` (a condition of t, x,
// p) turns from false to true, after `delay`, the states `targets` take
// `values` (expressions of t, x, p, in state units).
struct SymbolicEvent {
  std::string id;  // for messages
  NodeId trigger = kNoNode;
  bool initial_value = true;
  bool persistent = true;
  bool values_from_trigger_time = true;
  NodeId delay = kNoNode;     // none: executes when it fires
  NodeId priority = kNoNode;  // none: priority 0, declaration order among equals
  std::vector<int> targets;
  std::vector<NodeId> values;
};

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
  std::vector<SymbolicEvent> events;
  // Facts about the source for `odesens info`, in order ("reactions", "36").
  std::vector<std::pair<std::string, std::string>> details;
  double t0 = 0.0;
  double t_end = 1.0;
};

}  // namespace odesens::expr
