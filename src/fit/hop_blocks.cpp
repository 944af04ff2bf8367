// Blocks of the estimated parameters for hops (hop_blocks.hpp).
#include "fit/hop_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <numeric>

#include "estimate/experiment_readers.hpp"

namespace odesens::fitting {

std::vector<std::vector<std::size_t>> parameter_blocks(const PetabProblem& problem,
                                                       bool hierarchical) {
  const petab::Definition& def = problem.definition();
  const std::vector<std::vector<char>> reads = petab::experiments_reading(def);
  std::vector<char> inner(reads.size(), 0);
  if (hierarchical)
    for (std::size_t i : problem.inner_parameters()) inner.at(i) = 1;
  const std::vector<double>& lo = problem.lower_scaled();
  const std::vector<double>& hi = problem.upper_scaled();
  std::map<std::vector<char>, std::size_t> block_of;  // experiments read -> block
  std::vector<std::vector<std::size_t>> blocks;
  for (std::size_t i = 0; i < reads.size(); ++i) {
    const auto readers = std::count(reads[i].begin(), reads[i].end(), 1);
    if (inner[i] || readers == 0 || static_cast<std::size_t>(readers) == reads[i].size() ||
        !std::isfinite(lo.at(i)) || !std::isfinite(hi.at(i)))
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
  const std::vector<std::vector<char>> reads = petab::experiments_reading(def);
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
