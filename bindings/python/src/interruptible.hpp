// Long library calls (fits, profiles) that Ctrl-C can stop: the work runs
// on a thread of its own with the GIL released, while the calling thread
// looks for Python signals every 100 ms. A signal handler that raises
// (KeyboardInterrupt) sets the work's stop flag; the work then ends with
// what it has (fit.hpp, profile.hpp), and the exception is cleared, so the
// caller returns that, marked stopped. Signals are only seen on Python's
// main thread; elsewhere the work runs to its end, or until `stop_event`
// (an object with is_set(), a threading.Event; None: none) is set.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace odesens::python {

// work(const std::atomic<bool>* stop). Returns whether a signal stopped it
// (not the event); rethrows what the work threw.
template <class Work>
bool run_interruptibly(Work&& work, const pybind11::object& stop_event = pybind11::none()) {
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
    if (!stop && !stop_event.is_none()) {
      try {
        if (stop_event.attr("is_set")().cast<bool>()) stop = true;
      } catch (pybind11::error_already_set&) {
        stop = true;  // an event that cannot be read ends the work, not the wait
      }
    }
  }
  worker.join();
  if (failure) std::rethrow_exception(failure);
  return interrupted;
}

}  // namespace odesens::python
