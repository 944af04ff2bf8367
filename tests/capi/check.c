#include "check.h"

int check_failures = 0;

double max_scaled_difference(const double* a, const double* b, int64_t n) {
  double worst = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double scale = fabs(b[i]) > 1.0 ? fabs(b[i]) : 1.0;
    const double d = fabs(a[i] - b[i]) / scale;
    if (isnan(d)) return d; /* a NaN anywhere is a failure */
    if (d > worst) worst = d;
  }
  return worst;
}

int check_exit_status(const char* program) {
  if (check_failures == 0) {
    printf("%s: all checks passed\n", program);
    return 0;
  }
  fprintf(stderr, "%s: %d check(s) failed\n", program, check_failures);
  return check_failures > 100 ? 100 : check_failures;
}
