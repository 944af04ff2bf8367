#include "ensemble/worker_pool.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace odesens::ensemble {

std::size_t worker_threads(std::size_t count, unsigned threads) {
  return count == 0 ? 0 : std::clamp<std::size_t>(threads, 1, count);
}

void run_tasks(std::size_t count, unsigned threads, const std::atomic<bool>& stop,
               const std::function<void(std::size_t, std::size_t)>& task) {
  if (count == 0) return;
  std::atomic<std::size_t> next{0};
  auto work = [&](std::size_t worker) {
    for (;;) {
      if (stop.load(std::memory_order_relaxed)) return;
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) return;
      task(i, worker);
    }
  };
  const std::size_t n = worker_threads(count, threads);
  std::vector<std::thread> helpers;
  helpers.reserve(n - 1);
  for (std::size_t t = 1; t < n; ++t) helpers.emplace_back(work, t);
  work(0);
  for (auto& h : helpers) h.join();
}

}  // namespace odesens::ensemble
