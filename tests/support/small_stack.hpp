// Running a test on a thread with a small stack, as a host program may give
// the threads that call the C ABI: what a model source does with hostile
// input must fit in it, not only in the 8 MiB of a main thread.
#pragma once

#include <gtest/gtest.h>
#include <pthread.h>

#include <cstddef>
#include <exception>
#include <functional>

#include "support/sanitized.hpp"

namespace odesens::testing {

#ifdef NDEBUG
constexpr bool kOptimized = true;
#else
constexpr bool kOptimized = false;
#endif

// A thread stack of 1 MiB, as a host program may give the threads that call
// the C ABI. Documents at the limits take at most about 0.45 MiB of it in an
// optimized build; unoptimized frames are larger (2 MiB), and
// a sanitizer's larger again (4 MiB).
constexpr std::size_t kSmallStack = std::size_t{kSanitized ? 4 : kOptimized ? 1 : 2} << 20;

// Runs `f` on a thread with `stack_bytes` of stack; its exception is
// rethrown here.
inline void on_small_stack(std::size_t stack_bytes, const std::function<void()>& f) {
  struct Call {
    const std::function<void()>* f;
    std::exception_ptr error;
  } call{&f, nullptr};
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, stack_bytes), 0);
  pthread_t thread;
  const int created = pthread_create(
      &thread, &attr,
      [](void* p) -> void* {
        auto* c = static_cast<Call*>(p);
        try {
          (*c->f)();
        } catch (...) {
          c->error = std::current_exception();
        }
        return nullptr;
      },
      &call);
  pthread_attr_destroy(&attr);
  ASSERT_EQ(created, 0);
  pthread_join(thread, nullptr);
  if (call.error) std::rethrow_exception(call.error);
}

}  // namespace odesens::testing
