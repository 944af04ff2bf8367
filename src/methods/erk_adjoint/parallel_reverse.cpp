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
      // Each block carries its own vectors across the instants, with its
      // own workspace (the runner only evaluates the model's event functions).
      integrate::EventRunner events(*job.model, job.p, 0, ws.get());
      std::vector<double> lambda_minus(nx);
      const std::size_t n_costs = job.integrand ? job.integrand->count() : 0;
      std::vector<double> cost_minus(n_costs), cost_plus(n_costs);
      std::vector<std::vector<integrate::EventRunner::DelayedAdjoint>> owed(block.m);
      const InstantJump across = [&](const RecordedInstant& r, double* l, double* m) {
        // The running costs on both sides of the instant (objectives only).
        if (n_costs > 0 && block.first < n_costs) {
          job.integrand->evaluate(r.instant.t, r.instant.x_minus.data(), job.p,
                                  cost_minus.data(), nullptr, nullptr, ws.get());
          job.integrand->evaluate(r.instant.t, r.instant.x_plus.data(), job.p, cost_plus.data(),
                                  nullptr, nullptr, ws.get());
        }
        for (std::size_t c = 0; c < block.m; ++c) {
          const std::size_t v = block.first + c;
          const double cost_jump = v < n_costs ? cost_minus[v] - cost_plus[v] : 0.0;
          events.adjoint_jump(r.instant, l + c * nx, lambda_minus.data(), m + c * np, cost_jump,
                              &owed[c]);
          std::copy(lambda_minus.begin(), lambda_minus.end(), l + c * nx);
        }
      };
      run_reverse(*job.trajectory, adjoint, lambda + block.first * nx, mu + block.first * np,
                  [&](std::size_t k, double* l) { jump(k, block.first, block.m, l); },
                  job.checkpoints, across);
      counts[b] = adjoint.counts();
      counts[b].warnings = events.warnings();
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
    for (const auto& w : c.warnings)
      if (std::find(total.warnings.begin(), total.warnings.end(), w) == total.warnings.end())
        total.warnings.push_back(w);
  }
  return total;
}

}  // namespace odesens::erk_adjoint
