// Which experiments read which estimated parameters (experiment_readers.hpp).
#include "estimate/experiment_readers.hpp"

#include <cstddef>
#include <unordered_set>
#include <utility>

#include "estimate/expression_reads.hpp"
#include "expr/expr_model_impl.hpp"

namespace odesens::petab {
namespace {

// Estimated index of each parameter-table row (-1: not estimated).
std::vector<long> estimated_index(const Definition& def) {
  std::vector<long> index(def.tables.parameters.size(), -1);
  for (std::size_t i = 0; i < def.estimated.size(); ++i)
    index.at(def.estimated[i]) = static_cast<long>(i);
  return index;
}

// Marks in `read` the parameters (Op::param nodes) that the nodes `roots`
// of `sym` read.
void mark_parameters_read(const expr::SymbolicModel& sym, std::vector<expr::NodeId> roots,
                          std::vector<char>& read) {
  visit_reached_nodes(sym, std::move(roots), [&read](const expr::Node& node) {
    if (node.op == expr::Op::param) read.at(static_cast<std::size_t>(node.index)) = 1;
  });
}

// 1 for each model parameter the dynamics read (f, the initial values and
// the events' triggers, delays, priorities and assigned values), traced,
// sized as the full model's parameters.
std::vector<char> trace_dynamics_reads(const Definition& def) {
  const ExprModel::Impl& impl = expr_model_internals(*def.dynamics);
  const expr::SymbolicModel& sym = impl.sym;
  std::vector<char> read(def.model->param_names().size(), 0);
  std::vector<expr::NodeId> roots = sym.x0;
  roots.insert(roots.end(), sym.rhs.begin(), sym.rhs.end());
  for (const expr::SymbolicEvent& event : sym.events) {
    roots.insert(roots.end(), {event.trigger, event.delay, event.priority});
    roots.insert(roots.end(), event.values.begin(), event.values.end());
  }
  const auto lock = impl.lock_graph();
  mark_parameters_read(sym, roots, read);
  return read;
}

// reads[o][j] = 1 where observable o's formula or noise formula (outputs of
// the full model) reads model parameter j.
std::vector<std::vector<char>> read_by_observables(const Definition& def) {
  const ExprModel::Impl& impl = expr_model_internals(*def.model);
  const expr::SymbolicModel& sym = impl.sym;
  std::vector<std::vector<char>> reads(def.observables.size(),
                                       std::vector<char>(def.model->param_names().size(), 0));
  const auto lock = impl.lock_graph();
  for (std::size_t o = 0; o < def.observables.size(); ++o)
    mark_parameters_read(sym,
                         {sym.outputs.at(def.observables[o].output),
                          sym.outputs.at(def.observables[o].sigma_output)},
                         reads[o]);
  return reads;
}

}  // namespace

void visit_reached_nodes(const expr::SymbolicModel& sym, std::vector<expr::NodeId> roots,
                         const std::function<void(const expr::Node&)>& visit) {
  std::unordered_set<expr::NodeId> seen;
  while (!roots.empty()) {
    const expr::NodeId id = roots.back();
    roots.pop_back();
    if (id == expr::kNoNode || !seen.insert(id).second) continue;
    const expr::Node& node = sym.graph.node(id);
    visit(node);
    if (node.depends & (expr::kOnParam | expr::kOnState))
      for (expr::NodeId operand : {node.a, node.b, node.c}) roots.push_back(operand);
  }
}

std::vector<char> parameters_the_dynamics_read(const Definition& def) {
  std::vector<char> read = trace_dynamics_reads(def);
  read.resize(def.n_sbml_params);
  return read;
}

std::vector<std::vector<char>> experiments_reading(const Definition& def) {
  const std::vector<long> index = estimated_index(def);
  // Traced at load (Definition::dynamics_reads), else here.
  std::vector<char> dynamics = def.dynamics_reads.size() == def.n_sbml_params
                                   ? def.dynamics_reads
                                   : trace_dynamics_reads(def);
  dynamics.resize(def.model->param_names().size(), 0);
  const std::vector<std::vector<char>> observed = read_by_observables(def);
  const std::size_t n_exp = def.experiments.size();
  std::vector<std::vector<char>> reads(def.estimated.size(), std::vector<char>(n_exp, 0));
  auto mark = [&](const Setting& s, std::size_t e) {
    if (s.theta >= 0 && index.at(static_cast<std::size_t>(s.theta)) >= 0)
      reads[static_cast<std::size_t>(index[static_cast<std::size_t>(s.theta)])][e] = 1;
  };
  // Marks the settings of condition c of the parameters `used` flags.
  auto mark_condition = [&](int c, const std::vector<char>& used, std::size_t e) {
    if (c < 0) return;
    const std::vector<Setting>& params =
        def.conditions.at(static_cast<std::size_t>(c)).params;
    for (std::size_t j = 0; j < params.size() && j < used.size(); ++j)
      if (used[j]) mark(params[j], e);
  };
  for (std::size_t e = 0; e < n_exp; ++e) {
    const Experiment& ex = def.experiments[e];
    std::vector<char> used = dynamics;  // by the simulation: its dynamics and observables
    for (std::size_t m : ex.measurements) {
      const std::vector<char>& by = observed.at(def.measurements.at(m).observable);
      for (std::size_t j = 0; j < used.size(); ++j) used[j] |= by[j];
      for (const auto& placeholder : def.measurements[m].placeholders) mark(placeholder.second, e);
    }
    mark_condition(static_cast<int>(ex.simulation), used, e);
    mark_condition(ex.preequilibration, dynamics, e);
  }
  return reads;
}

}  // namespace odesens::petab
