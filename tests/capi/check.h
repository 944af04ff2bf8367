/* Minimal checking for the C tests of the ABI: every failed check prints
 * where and what, and the program's exit status is the number of failures
 * (capped), so ctest reports the test as failed. */
#ifndef ODESENS_TEST_CHECK_H
#define ODESENS_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "odesens.h"

extern int check_failures;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++check_failures;                                                    \
    }                                                                      \
  } while (0)

/* A call must return exactly `expected`; on a mismatch the library's last
 * message on this thread is printed. */
#define CHECK_STATUS(call, expected)                                             \
  do {                                                                           \
    int check_status_ = (call);                                                  \
    if (check_status_ != (expected)) {                                           \
      fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d: %s\n", __FILE__, \
              __LINE__, #call, check_status_, odesens_status_string(check_status_), \
              (int)(expected), odesens_errmsg(NULL));                            \
      ++check_failures;                                                          \
    }                                                                            \
  } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, ODESENS_OK)

/* The message contains `needle`. */
#define CHECK_MESSAGE(message, needle)                                              \
  do {                                                                              \
    const char* check_message_ = (message);                                         \
    if (!check_message_ || !strstr(check_message_, (needle))) {                     \
      fprintf(stderr, "%s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__,     \
              check_message_ ? check_message_ : "(null)", (needle));                \
      ++check_failures;                                                             \
    }                                                                               \
  } while (0)

/* max_i |a_i - b_i| / max(1, |b_i|) */
double max_scaled_difference(const double* a, const double* b, int64_t n);

#define CHECK_CLOSE(a, b, n, tol)                                                  \
  do {                                                                             \
    double check_diff_ = max_scaled_difference((a), (b), (n));                     \
    if (!(check_diff_ <= (tol))) {                                                 \
      fprintf(stderr, "%s:%d: %s and %s differ by %.3g (tolerance %.3g)\n", __FILE__, \
              __LINE__, #a, #b, check_diff_, (double)(tol));                       \
      ++check_failures;                                                            \
    }                                                                              \
  } while (0)

int check_exit_status(const char* program);

#endif
