// Blocks of the estimated parameters for hops (hop_blocks.hpp).
#include "fit/hop_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <numeric>
#include <unordered_set>

#include "expr/expr_model_impl.hpp"
#include "sources/petab/petab_problem.hpp"

namespace odesens::fitting {
namespace {

// Estimated index of each parameter-table row (-1: not estimated).
std::vector<long> estimated_index(const petab::Definition& def) {
  std::vector<long> index(def.tables.parameters.size(), -1);
  for (std::size_t i = 0; i < def.estimated.size(); ++i)
    index.at(def.estimated[i]) = static_cast<long>(i);
  return index;
}

// Marks in `read` the parameters (Op::param nodes) that the nodes `roots`
// of `sym` read, through every operand that depends on a parameter or a state.
void mark_parameters_read(const expr::SymbolicModel& sym, std::vector<expr::NodeId> roots,
                          std::vector<char>& read) {
  std::unordered_set<expr::NodeId> seen;
  while (!roots.empty()) {
    const expr::NodeId id = roots.back();
    roots.pop_back();
    if (id == expr::kNoNode || !seen.insert(id).second) continue;
    const expr::Node& node = sym.graph.node(id);
    if (node.op == expr::Op::param) read.at(static_cast<std::size_t>(node.index)) = 1;
    if (node.depends & (expr::kOnParam | expr::kOnState))
      for (expr::NodeId operand : {node.a, node.b, node.c}) roots.push_back(operand);
  }
}

// 1 for each model parameter the dynamics read (f, the initial values and
// the events' triggers, delays, priorities and assigned values), sized as
// the full model's parameters.
std::vector<char> read_by_dynamics(const petab::Definition& def) {
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
std::vector<std::vector<char>> read_by_observables(const petab::Definition& def) {
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

// reads[i][e] = 1 where experiment e reads estimated parameter i: through a
// setting of its simulation condition of a model parameter its dynamics or
// its observables read, of its pre-equilibration condition of one the
// dynamics read, or through the placeholders of its measurements.
std::vector<std::vector<char>> experiments_reading(const petab::Definition& def) {
  const std::vector<long> index = estimated_index(def);
  const std::vector<char> dynamics = read_by_dynamics(def);
  const std::vector<std::vector<char>> observed = read_by_observables(def);
  const std::size_t n_exp = def.experiments.size();
  std::vector<std::vector<char>> reads(def.estimated.size(), std::vector<char>(n_exp, 0));
  auto mark = [&](const petab::Setting& s, std::size_t e) {
    if (s.theta >= 0 && index.at(static_cast<std::size_t>(s.theta)) >= 0)
      reads[static_cast<std::size_t>(index[static_cast<std::size_t>(s.theta)])][e] = 1;
  };
  // Marks the settings of condition c of the parameters `used` flags.
  auto mark_condition = [&](int c, const std::vector<char>& used, std::size_t e) {
    if (c < 0) return;
    const std::vector<petab::Setting>& params =
        def.conditions.at(static_cast<std::size_t>(c)).params;
    for (std::size_t j = 0; j < params.size() && j < used.size(); ++j)
      if (used[j]) mark(params[j], e);
  };
  for (std::size_t e = 0; e < n_exp; ++e) {
    const petab::Experiment& ex = def.experiments[e];
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

}  // namespace

std::vector<std::vector<std::size_t>> parameter_blocks(const PetabProblem& problem,
                                                       bool hierarchical) {
  const petab::Definition& def = problem.definition();
  const std::vector<std::vector<char>> reads = experiments_reading(def);
  std::vector<char> inner(reads.size(), 0);
  if (hierarchical)
    for (std::size_t i : problem.inner_parameters()) inner.at(i) = 1;
  std::map<std::vector<char>, std::size_t> block_of;  // experiments read -> block
  std::vector<std::vector<std::size_t>> blocks;
  for (std::size_t i = 0; i < reads.size(); ++i) {
    const auto readers = std::count(reads[i].begin(), reads[i].end(), 1);
    if (inner[i] || readers == 0 || static_cast<std::size_t>(readers) == reads[i].size())
      continue;
    const auto [at, added] = block_of.emplace(reads[i], blocks.size());
    if (added) blocks.emplace_back();
    blocks[at->second].push_back(i);
  }
  return blocks;
}

std::vector<std::size_t> blocks_by_misfit(const PetabProblem& problem,
                                          const std::vector<std::vector<std::size_t>>& blocks,
                                          const std::vector<double>& residuals) {
  const petab::Definition& def = problem.definition();
  const std::size_t n_exp = def.experiments.size();
  std::vector<double> squares(n_exp, 0.0), counts(n_exp, 0.0);
  for (std::size_t m = 0; m < residuals.size() && m < def.measurements.size(); ++m)
    if (std::isfinite(residuals[m])) {
      squares.at(def.measurements[m].experiment) += residuals[m] * residuals[m];
      counts.at(def.measurements[m].experiment) += 1.0;
    }
  const std::vector<std::vector<char>> reads = experiments_reading(def);
  std::vector<double> misfit(blocks.size(), 0.0);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const std::vector<char>& readers = reads.at(blocks[b].at(0));  // the block's key
    double sum = 0.0, count = 0.0;
    for (std::size_t e = 0; e < n_exp; ++e)
      if (readers[e]) sum += squares[e], count += counts[e];
    misfit[b] = count > 0.0 ? sum / count : 0.0;
  }
  std::vector<std::size_t> order(blocks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return misfit[a] > misfit[b]; });
  return order;
}

std::vector<char> block_point_mask(const PetabProblem& problem, const PetabOptions& evaluation,
                                   const std::vector<double>& center, std::size_t count,
                                   std::size_t first_rank) {
  const auto blocks = parameter_blocks(problem, evaluation.hierarchical);
  if (blocks.empty() || count < 2 || center.size() != problem.parameter_ids().size()) return {};
  PetabOptions o = evaluation;
  o.gradient = o.fim = o.least_squares = o.residual_jacobian = false;
  std::vector<double> residuals;
  try {
    residuals = problem.evaluate(center, o).residuals;
  } catch (const std::exception&) {
    return {};  // stopped, out of time or failing there: the round hops as without blocks
  }
  const std::vector<std::size_t> order = blocks_by_misfit(problem, blocks, residuals);
  const std::size_t n = center.size();
  std::vector<char> mask(count * n, 0);
  for (std::size_t k = 1; k < count; k += 2)
    for (std::size_t i : blocks[order[(first_rank % order.size() + k / 2) % order.size()]])
      mask[k * n + i] = 1;
  return mask;
}

}  // namespace odesens::fitting
