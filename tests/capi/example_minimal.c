/* Sensitivities of x' = -k x, x(0) = x0, with respect to p = (k, x0):
 * the minimal C example of docs/c-api.md. */
#include <math.h>
#include <stdio.h>

#include "odesens.h"

static int decay(double t, const double* x, const double* p, double* xdot, void* user) {
  (void)t;
  (void)user;
  xdot[0] = -p[0] * x[0];
  return 0;
}

static int initial_state(const double* p, double* x0, void* user) {
  (void)user;
  x0[0] = p[1];
  return 0;
}

int main(void) {
  const double p[2] = {0.5, 2.0};
  const double times[3] = {1.0, 2.0, 4.0};
  double S[1 * 2 * 3]; /* nx x np per output time */
  odesens_model* model = NULL;
  odesens_solver* solver = NULL;
  odesens_result* result = NULL;

  int status = odesens_model_create(1, 2, decay, NULL, &model);
  if (status == ODESENS_OK) status = odesens_model_set_x0_fn(model, initial_state);
  if (status == ODESENS_OK) status = odesens_solver_create(model, "cvodes_fsa", &solver);
  if (status == ODESENS_OK) status = odesens_solver_set_params(solver, p, 2);
  if (status == ODESENS_OK) status = odesens_solver_set_output_times(solver, times, 3);
  if (status == ODESENS_OK) status = odesens_solve(solver, &result);
  if (status == ODESENS_OK) status = odesens_result_s(result, S, 6);
  if (status != ODESENS_OK) {
    fprintf(stderr, "odesens: %s: %s\n", odesens_status_string(status), odesens_errmsg(NULL));
    return 1;
  }

  int wrong = 0;
  for (int k = 0; k < 3; ++k) {
    const double t = times[k], e = exp(-p[0] * t);
    printf("t = %g  dx/dk = %.8f (exact %.8f)  dx/dx0 = %.8f (exact %.8f)\n", t, S[2 * k],
           -t * p[1] * e, S[2 * k + 1], e);
    wrong += fabs(S[2 * k] + t * p[1] * e) > 1e-6 || fabs(S[2 * k + 1] - e) > 1e-6;
  }
  odesens_result_free(result);
  odesens_solver_free(solver);
  odesens_model_free(model);
  return wrong;
}
