// A pool of threads working through tasks 0..count-1, handed out one at a
// time from a shared counter (dynamic scheduling), so that tasks of very
// different cost keep every thread busy until the end.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace odesens::ensemble {

// Runs task(i, w) for every i < count on `threads` threads (at least 1, at
// most count; the calling thread is one of them; w < threads is the thread
// running it, for state kept per worker) and returns when all have
// stopped. No new task starts once `stop` is true. task must not throw:
// the caller catches what it needs to keep.
void run_tasks(std::size_t count, unsigned threads, const std::atomic<bool>& stop,
               const std::function<void(std::size_t, std::size_t)>& task);

// The threads run_tasks uses for `count` tasks on `threads` threads.
std::size_t worker_threads(std::size_t count, unsigned threads);

}  // namespace odesens::ensemble
