// The experiments of an evaluation on threads (experiment_solver.hpp).
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "ensemble/worker_pool.hpp"
#include "estimate/experiment_solver.hpp"

namespace odesens::petab {

bool ThreadedSolves::solve(const Definition& def, const std::vector<double>& theta,
                           const PetabOptions& options, bool sensitivities,
                           std::vector<ExperimentSolution>& out) {
  out.assign(def.experiments.size(), ExperimentSolution{});
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::exception_ptr failure;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = options.threads == 0 ? cores : options.threads;
  const std::size_t workers = ensemble::worker_threads(def.experiments.size(), threads);
  if (workers_.size() < workers) workers_.resize(workers);
  Preequilibrations preequilibrations;
  ensemble::run_tasks(def.experiments.size(), threads, stop, [&](std::size_t k, std::size_t w) {
    try {
      out[k] = solve_experiment(workers_[w], def, def.experiments[k], theta, options,
                                sensitivities, &preequilibrations);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
      stop = true;
    }
  });
  if (failure) std::rethrow_exception(failure);
  return true;
}

}  // namespace odesens::petab
