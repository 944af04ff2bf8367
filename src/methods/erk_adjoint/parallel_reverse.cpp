#include "methods/erk_adjoint/parallel_reverse.hpp"

#include <algorithm>
#include <exception>
#include <thread>

namespace odesens::erk_adjoint {

std::vector<VectorBlock> split_vectors(std::size_t total, std::size_t lanes,
                                       std::int64_t threads) {
  const std::size_t wanted = threads > 0 ? static_cast<std::size_t>(threads)
                                         : std::max(1u, std::thread::hardware_concurrency());
  const std::size_t groups = (total + lanes - 1) / lanes;
  const std::size_t count = std::max<std::size_t>(1, std::min(wanted, groups / 2));
  std::vector<VectorBlock> blocks;
  for (std::size_t b = 0, g0 = 0; b < count; ++b) {
    const std::size_t g1 = g0 + groups / count + (b < groups % count ? 1 : 0);
    const std::size_t first = g0 * lanes, last = std::min(total, g1 * lanes);
    if (last > first) blocks.push_back({first, last - first});
    g0 = g1;
  }
  return blocks;
}

ReverseCounts reverse_in_blocks(const ReverseJob& job, const std::vector<VectorBlock>& blocks,
                                double* lambda, double* mu, const BlockJump& jump) {
  const std::size_t nx = job.model->nx(), np = job.model->np();
  std::vector<ReverseCounts> counts(blocks.size());
  std::vector<std::exception_ptr> failures(blocks.size());
  auto reverse_block = [&](std::size_t b) {
    try {
      const VectorBlock& block = blocks[b];
      auto ws = job.model->make_workspace(job.lane_width);
      StepAdjoint adjoint(*job.model, job.p, ws.get(), *job.tableau,
                          {block.first, block.m, job.integrand});
      run_reverse(*job.trajectory, adjoint, lambda + block.first * nx, mu + block.first * np,
                  [&](std::size_t k, double* l) { jump(k, block.first, block.m, l); },
                  job.checkpoints);
      counts[b] = adjoint.counts();
    } catch (...) {
      failures[b] = std::current_exception();
    }
  };
  {
    std::vector<std::thread> workers;
    for (std::size_t b = 1; b < blocks.size(); ++b) workers.emplace_back(reverse_block, b);
    if (!blocks.empty()) reverse_block(0);
    for (auto& w : workers) w.join();
  }
  for (const auto& f : failures)
    if (f) std::rethrow_exception(f);
  ReverseCounts total;
  for (const auto& c : counts) {
    total.rhs_evals += c.rhs_evals;
    total.recomputed_steps += c.recomputed_steps;
    total.vjp_products += c.vjp_products;
  }
  return total;
}

}  // namespace odesens::erk_adjoint
