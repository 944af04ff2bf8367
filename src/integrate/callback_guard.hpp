// The one way user code runs inside a solver's C callbacks.
//
// Solvers such as CVODES call back through C frames, which an exception must
// never unwind. A callback body runs inside CallbackGuard::run: an exception
// is stored and the callback returns -1 (unrecoverable, the solver stops);
// a body that reports a non-finite output makes it return 1 (recoverable,
// the solver retries with a smaller step) and is remembered, so that a
// failure the solver reports later can be named as NaN/Inf. After the solver
// returns, the method calls rethrow_pending() to surface the stored error.
#pragma once

#include <exception>

namespace odesens::integrate {

class CallbackGuard {
 public:
  // body() evaluates user code and returns whether its output is finite.
  template <typename Body>
  int run(Body&& body) noexcept {
    try {
      if (body()) return 0;
      saw_nonfinite_ = true;
      return 1;
    } catch (...) {
      pending_ = std::current_exception();
      return -1;
    }
  }

  // Rethrows (and clears) the exception a callback stored, if any.
  void rethrow_pending() {
    if (!pending_) return;
    std::exception_ptr e = pending_;
    pending_ = nullptr;
    std::rethrow_exception(e);
  }

  // A new solve: nothing pending, no NaN or Inf seen.
  void reset() {
    pending_ = nullptr;
    saw_nonfinite_ = false;
  }

  // Whether any callback produced NaN or Inf so far.
  bool saw_nonfinite() const { return saw_nonfinite_; }

 private:
  std::exception_ptr pending_;
  bool saw_nonfinite_ = false;
};

}  // namespace odesens::integrate
