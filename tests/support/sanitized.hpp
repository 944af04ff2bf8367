// Whether this build runs under AddressSanitizer or ThreadSanitizer, and how
// a test of numerics alone steps aside there.
//
// The sanitized builds run every test program to find memory and thread
// errors, at 5 to 20 times the Release build's time. A few tests spend
// minutes of that on numerics the Release run already checks (a paper's
// table, a 124-state model's gradient): under a sanitizer they skip,
// saying so, or run a smaller case of the same code.
#pragma once

#include <gtest/gtest.h>

namespace odesens::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

}  // namespace odesens::testing

// In a TEST body: skip under a sanitizer, naming what else covers the code.
#define ODESENS_SKIP_WHEN_SANITIZED(covered_by)                                          \
  do {                                                                                     \
    if (::odesens::testing::kSanitized)                                                    \
      GTEST_SKIP() << "numerics only, checked by the Release run; under the sanitizer " \
                   << covered_by;                                                          \
  } while (0)
