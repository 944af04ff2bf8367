/* The C ABI against careless and hostile sizes and values: counts that are
 * negative, absurd or disagree with the arrays are refused before anything
 * is read or allocated, tolerances out of range are refused when set, and a
 * failed allocation is ODESENS_ERR_OUT_OF_MEMORY. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "odesens.h"

static int decay_rhs(double t, const double* x, const double* p, double* xdot, void* user) {
  (void)t;
  (void)user;
  xdot[0] = -p[0] * x[0];
  xdot[1] = -x[1];
  return 0;
}

static void test_model_sizes_are_bounded(void) {
  odesens_model* m = NULL;
  CHECK_STATUS(odesens_model_create(INT64_MAX, 1, decay_rhs, NULL, &m),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(NULL),
                "nx must be from 1 to 100000000 (got 9223372036854775807)");
  CHECK_STATUS(odesens_model_create(-5, 1, decay_rhs, NULL, &m), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(NULL), "nx must be from 1 to 100000000 (got -5)");
  CHECK_STATUS(odesens_model_create(2, INT64_MAX, decay_rhs, NULL, &m),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(NULL), "np must be from 0 to 100000000");
  CHECK_STATUS(odesens_model_create(100000001, 0, decay_rhs, NULL, &m),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK(m == NULL);

  CHECK_OK(odesens_model_create(2, 1, decay_rhs, NULL, &m));
  const int64_t col_ptr[3] = {0, 1, 2}, rows[2] = {0, 1};
  CHECK_STATUS(odesens_model_set_sparsity(m, INT64_MAX, col_ptr, rows),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(m), "nnz must be from 0 to 4");
  /* nnz larger than the array: refused by col_ptr[nx] before row_idx is read. */
  CHECK_STATUS(odesens_model_set_sparsity(m, 3, col_ptr, rows), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(m), "col_ptr[nx] = 2 differs from nnz = 3");
  CHECK_OK(odesens_model_set_sparsity(m, 2, col_ptr, rows));
  odesens_model_free(m);
}

/* Names: empty ones and control characters are refused (they break every
   table); commas and quotes are the writers' to quote. */
static void test_names(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_create(2, 1, decay_rhs, NULL, &m));
  CHECK_STATUS(odesens_model_set_state_name(m, 0, ""), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(m), "must not be empty");
  CHECK_STATUS(odesens_model_set_param_name(m, 0, "k\n2"), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(m), "control characters");
  CHECK_OK(odesens_model_set_state_name(m, 0, "A,B"));
  odesens_model_free(m);
}

static odesens_solver* decay_solver(const char* method) {
  odesens_model* m = NULL;
  odesens_solver* s = NULL;
  CHECK_OK(odesens_model_create(2, 1, decay_rhs, NULL, &m));
  CHECK_OK(odesens_solver_create(m, method, &s));
  odesens_model_free(m);
  return s;
}

static void test_counts_are_checked_before_arrays_are_read(void) {
  odesens_solver* s = decay_solver("cvodes_asa");
  const double times[2] = {1.0, 2.0};
  /* A count far beyond the two values given: reading them would run off
   * the array. */
  CHECK_STATUS(odesens_solver_set_output_times(s, times, INT64_MAX), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "the number of output times must be from 1 to 100000000");
  CHECK_STATUS(odesens_solver_set_output_times(s, times, 100000001), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_output_times(s, times, -1), ODESENS_ERR_INVALID_ARGUMENT);

  const double w[4] = {1, 0, 0, 1};
  /* Before any output times: whole blocks of nx, not more than times. */
  CHECK_STATUS(odesens_solver_set_adjoint_weights(s, w, 2 * (int64_t)100000001),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "at most 100000000 blocks");
  CHECK_STATUS(odesens_solver_set_adjoint_weights(s, w, INT64_MAX), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_adjoint_weights(s, w, -2), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "length of w is negative (-2)");

  /* With output times: exactly nx x n_times, said when set. */
  CHECK_OK(odesens_solver_set_output_times(s, times, 2));
  CHECK_STATUS(odesens_solver_set_adjoint_weights(s, w, 2), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "adjoint weights: 2 given, expected nx x n_times = 2 x 2 = 4");
  CHECK_STATUS(odesens_solver_set_adjoint_weights(s, w, 6), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_adjoint_weights(s, w, INT64_MAX), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_OK(odesens_solver_set_adjoint_weights(s, w, 4));
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  odesens_result_free(r);
  CHECK_OK(odesens_solver_set_adjoint_weights(s, NULL, 0)); /* the default again */
  odesens_solver_free(s);
}

static void test_tolerances_and_options_out_of_range(void) {
  odesens_solver* s = decay_solver("cvodes_fsa");
  CHECK_STATUS(odesens_solver_set_tolerances(s, 1.0, 1e-8), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "rtol must be in (0, 1), got 1");
  CHECK_STATUS(odesens_solver_set_tolerances(s, 1e300, 1e-8), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "rtol must be in (0, 1), got 1e+300");
  CHECK_STATUS(odesens_solver_set_tolerances(s, 0.0, 1e-8), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_tolerances(s, 1e-300, 1e-8), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "below the machine epsilon");
  CHECK_STATUS(odesens_solver_set_tolerances(s, NAN, 1e-8), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_tolerances(s, 1e-6, -1e-3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "atol must not be negative, got -0.001");
  const double atol[2] = {1e-8, -2.5};
  CHECK_STATUS(odesens_solver_set_atol_vector(s, atol, 2), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "atol[1] must not be negative, got -2.5");
  CHECK_OK(odesens_solver_set_tolerances(s, 0.5, 0.0));

  /* Numbers in messages read back exactly (they were "0.000000"). */
  const double times[3] = {0.0, 1e-7, 1e-7};
  CHECK_STATUS(odesens_solver_set_output_times(s, times, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "times[2] = 1e-07 <= times[1] = 1e-07");

  CHECK_STATUS(odesens_solver_set_option_int(s, "sparse_threshold", -5), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "must be from 1 to 1e15 (got -5)");
  CHECK_STATUS(odesens_solver_set_option_int(s, "sens_error_control", 2), ODESENS_ERR_OPTION_TYPE);
  odesens_solver_free(s);
  s = decay_solver("pbsr");
  CHECK_STATUS(odesens_solver_set_option_int(s, "force_pbs", 5), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "option 'force_pbs' of method 'pbsr' must be 0 or 1 (got 5)");
  odesens_solver_free(s);

  /* Values inside an option's range that its further rule refuses are
     refused when set, as the solve would refuse them. */
  s = decay_solver("dopri8s");
  CHECK_STATUS(odesens_solver_set_option_int(s, "lanes", 3), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "option 'lanes' of method 'dopri8s' must be 0, 1, 4 or 8 (got 3)");
  CHECK_OK(odesens_solver_set_option_int(s, "lanes", 4));
  CHECK_STATUS(odesens_solver_set_option_double(s, "sens_rtol", 1e-9), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "above sqrt(eps)");
  CHECK_OK(odesens_solver_set_option_double(s, "sens_rtol", 0.0));
  odesens_solver_free(s);
  s = decay_solver("bounds_fsa");
  CHECK_STATUS(odesens_solver_set_option_double(s, "max_width", 0.0), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "option 'max_width' of method 'bounds_fsa' must be > 0 (got 0)");
  odesens_solver_free(s);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif

#ifndef SANITIZED
/* Bytes of address space this process uses now. */
static long long address_space_in_use(void) {
  FILE* f = fopen("/proc/self/statm", "r");
  long long pages = 0;
  if (!f) return -1;
  if (fscanf(f, "%lld", &pages) != 1) pages = -1;
  fclose(f);
  return pages < 0 ? -1 : pages * sysconf(_SC_PAGESIZE);
}
#endif

/* A model of 5e7 states (allowed) needs gigabytes for its names and
 * vectors; with 256 MB of address space to spare the allocation fails,
 * which is ODESENS_ERR_OUT_OF_MEMORY (it was ODESENS_ERR_INTERNAL, "a bug:
 * please report it"). In a child, so that the limit ends with it; the child
 * leaves by _exit, before any library's exit handler runs under the limit. */
static void test_failed_allocation_is_out_of_memory(void) {
#ifdef SANITIZED
  fprintf(stderr, "test_failed_allocation_is_out_of_memory: skipped under sanitizers\n");
#else
  const long long in_use = address_space_in_use();
  CHECK(in_use > 0);
  if (in_use <= 0) return;
  fflush(NULL);
  const pid_t child = fork();
  CHECK(child >= 0);
  if (child == 0) {
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max = (rlim_t)(in_use + 256LL * 1024 * 1024);
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(3);
    odesens_model* m = NULL;
    const int status = odesens_model_create(50000000, 0, decay_rhs, NULL, &m);
    if (status != ODESENS_ERR_OUT_OF_MEMORY) {
      fprintf(stderr, "odesens_model_create returned %d: %s\n", status, odesens_errmsg(NULL));
      _exit(1);
    }
    if (!strstr(odesens_errmsg(NULL), "odesens_model_create: out of memory") || m != NULL) {
      fprintf(stderr, "message: %s\n", odesens_errmsg(NULL));
      _exit(2);
    }
    _exit(0);
  }
  int raw = 0;
  CHECK(waitpid(child, &raw, 0) == child);
  CHECK(WIFEXITED(raw) && WEXITSTATUS(raw) == 0);
#endif
  CHECK(strcmp(odesens_status_string(ODESENS_ERR_OUT_OF_MEMORY), "out of memory") == 0);
}

/* Solves whose SUNDIALS allocations do not fit: SUNDIALS 6's vector and
 * matrix clones crash where an allocation fails (SIGSEGV in N_VClone for
 * cvodes_fsa's S of 10 columns of 1e6 states, in SUNMatClone at pbsr's first
 * step), so the library asks first: ODESENS_ERR_OUT_OF_MEMORY. The limit
 * leaves 120 MB beyond what the child has mapped once the model exists. */
static void test_solves_beyond_the_memory_left_are_out_of_memory(void) {
#ifdef SANITIZED
  fprintf(stderr, "test_solves_beyond_the_memory_left_are_out_of_memory: skipped under "
                  "sanitizers\n");
#else
  const char* methods[] = {"cvodes_fsa", "pbsr"};
  for (int k = 0; k < 2; ++k) {
    fflush(NULL);
    const pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
      odesens_model* m = NULL;
      odesens_solver* s = NULL;
      enum { N = 1000000 };
      if (odesens_model_create(N, 10, decay_rhs, NULL, &m) != ODESENS_OK) _exit(3);
      /* Diagonal J_x: sparse Newton matrices (a dense one is refused first). */
      int64_t* col_ptr = malloc((N + 1) * sizeof *col_ptr);
      int64_t* row_idx = malloc(N * sizeof *row_idx);
      if (!col_ptr || !row_idx) _exit(3);
      for (int64_t i = 0; i <= N; ++i) col_ptr[i] = i;
      for (int64_t i = 0; i < N; ++i) row_idx[i] = i;
      if (odesens_model_set_sparsity(m, N, col_ptr, row_idx) != ODESENS_OK) _exit(3);
      if (odesens_solver_create(m, methods[k], &s) != ODESENS_OK) _exit(3);
      const double times[2] = {0.5, 1.0};
      if (odesens_solver_set_output_times(s, times, 2) != ODESENS_OK) _exit(3);
      struct rlimit limit;
      limit.rlim_cur = limit.rlim_max = (rlim_t)(address_space_in_use() + 120LL * 1024 * 1024);
      if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(3);
      odesens_result* r = NULL;
      const int status = odesens_solve(s, &r);
      if (status != ODESENS_ERR_OUT_OF_MEMORY ||
          !strstr(odesens_errmsg(s), "GB this process has left")) {
        fprintf(stderr, "%s: odesens_solve returned %d: %s\n", methods[k], status,
                odesens_errmsg(s));
        _exit(1);
      }
      _exit(0);
    }
    int raw = 0;
    CHECK(waitpid(child, &raw, 0) == child);
    CHECK(WIFEXITED(raw) && WEXITSTATUS(raw) == 0);
  }
#endif
}

int main(void) {
  test_model_sizes_are_bounded();
  test_counts_are_checked_before_arrays_are_read();
  test_tolerances_and_options_out_of_range();
  test_failed_allocation_is_out_of_memory();
  test_solves_beyond_the_memory_left_are_out_of_memory();
  test_names();
  return check_exit_status("test_capi_limits");
}
