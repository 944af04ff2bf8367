// Long library calls (fits, profiles) that Ctrl-C can stop: the work runs
// on a thread of its own with the GIL released, while the calling thread
// looks for Python signals every 100 ms. A signal handler that raises
// (KeyboardInterrupt) sets the work's stop flag; the work then ends with
// what it has (fit.hpp, profile.hpp), and the exception is cleared, so the
// caller returns that, marked stopped. Signals are only seen on Python's
// main thread; elsewhere the work runs to its end.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace odesens::python {

// work(const std::atomic<bool>* stop). Returns whether a signal stopped it;
// rethrows what the work threw.
template <class Work>
bool run_interruptibly(Work&& work) {
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  std::mutex mutex;
  std::condition_variable ended;
  bool done = false;
  std::thread worker([&] {
    try {
      work(&stop);
    } catch (...) {
      failure = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    ended.notify_all();
  });
  bool interrupted = false;
  for (;;) {
    {
      pybind11::gil_scoped_release unlocked;
      std::unique_lock<std::mutex> lock(mutex);
      if (ended.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) break;
    }
    if (!interrupted && PyErr_CheckSignals() != 0) {
      PyErr_Clear();
      interrupted = true;
      stop = true;
    }
  }
  worker.join();
  if (failure) std::rethrow_exception(failure);
  return interrupted;
}

}  // namespace odesens::python
