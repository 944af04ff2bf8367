#include "ensemble/worker_pool.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace odesens::ensemble {

void run_tasks(std::size_t count, unsigned threads, const std::atomic<bool>& stop,
               const std::function<void(std::size_t)>& task) {
  if (count == 0) return;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (;;) {
      if (stop.load(std::memory_order_relaxed)) return;
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) return;
      task(i);
    }
  };
  const std::size_t n = std::clamp<std::size_t>(threads, 1, count);
  std::vector<std::thread> helpers;
  helpers.reserve(n - 1);
  for (std::size_t t = 1; t < n; ++t) helpers.emplace_back(work);
  work();
  for (auto& h : helpers) h.join();
}

}  // namespace odesens::ensemble
