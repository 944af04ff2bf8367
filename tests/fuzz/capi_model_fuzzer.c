/* libFuzzer target for the C ABI's model-from-text path, as a C user calls
 * it: odesens_model_from_text (SBML when the text is XML, .ode otherwise),
 * then on success the cheap calls on the model (sizes, names, nominal
 * parameters with a right and a short buffer), a solver with one output
 * time and a tiny max_steps, and every free. The text is the input up to
 * its first NUL.
 *
 * Findings: a crash or sanitizer report, ODESENS_ERR_INTERNAL from any
 * call, a status the call cannot return (a failed model_from_text must be
 * a parse error or unsupported), a failed call without a message, or a
 * successful create that leaves no model.
 *
 * Build and run: tests/fuzz/run_fuzz_lib.sh [seconds] (CMake option
 * ODESENS_FUZZ, build-fuzz-lib/). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "odesens.h"

/* Solves of models with more states than this are skipped: the solve is
 * there to reach the solver set-up with a fuzzed model, not to integrate. */
enum { max_solved_states = 32 };

static void require(int condition) {
  if (!condition) abort();
}

/* Any status but INTERNAL, and a failure must say something. */
static int checked(int status, const void* handle) {
  require(status != ODESENS_ERR_INTERNAL);
  if (status != ODESENS_OK) {
    const char* message = odesens_errmsg(handle);
    require(message != NULL && message[0] != '\0');
  }
  return status;
}

static void exercise_names(const odesens_model* m, int64_t nx, int64_t np) {
  const char* name = NULL;
  for (int64_t i = 0; i < nx; ++i) {
    require(checked(odesens_model_state_name(m, i, &name), m) == ODESENS_OK);
    require(name != NULL);
  }
  for (int64_t j = 0; j < np; ++j) {
    require(checked(odesens_model_param_name(m, j, &name), m) == ODESENS_OK);
    require(name != NULL);
  }
  require(checked(odesens_model_state_name(m, nx, &name), m) == ODESENS_ERR_INVALID_ARGUMENT);
}

/* One output time at 1: a model whose t0 is later fails the solve with a
 * message, which is as good a path as a solve. */
static void exercise_solve(const odesens_model* m) {
  odesens_solver* s = NULL;
  require(checked(odesens_solver_create(m, "cvodes_fsa", &s), NULL) == ODESENS_OK);
  require(s != NULL);
  const double times[1] = {1.0};
  require(checked(odesens_solver_set_output_times(s, times, 1), s) == ODESENS_OK);
  require(checked(odesens_solver_set_max_steps(s, 20), s) == ODESENS_OK);
  odesens_result* r = NULL;
  if (checked(odesens_solve(s, &r), s) == ODESENS_OK) {
    int64_t n_times = -1, nx = -1;
    require(checked(odesens_result_sizes(r, &n_times, &nx, NULL, NULL, NULL), r) == ODESENS_OK);
    require(n_times == 1);
    odesens_result_free(r);
  } else {
    require(r == NULL);
  }
  odesens_solver_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char* text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  odesens_model* m = NULL;
  const int status = checked(odesens_model_from_text(text, &m), NULL);
  free(text);
  if (status != ODESENS_OK) {
    require(status == ODESENS_ERR_PARSE || status == ODESENS_ERR_UNSUPPORTED);
    require(m == NULL);
    return 0;
  }
  require(m != NULL);
  int64_t nx = -1, np = -1;
  require(checked(odesens_model_sizes(m, &nx, &np), m) == ODESENS_OK);
  require(nx >= 0 && np >= 0);  /* nx = 0: a model of rules and time only */
  exercise_names(m, nx, np);
  double* p = malloc(sizeof(double) * (size_t)(np + 1));
  if (p) {
    require(checked(odesens_model_nominal_params(m, p, np), m) == ODESENS_OK);
    if (np > 0)
      require(checked(odesens_model_nominal_params(m, p, np - 1), m) ==
              ODESENS_ERR_BUFFER_TOO_SMALL);
    free(p);
  }
  if (nx <= max_solved_states) exercise_solve(m);
  odesens_model_free(m);
  return 0;
}
