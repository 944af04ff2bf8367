#include <stdio.h>
#include "odesens.h"

int main(void) {
  odesens_model* m = NULL; odesens_solver* s = NULL; odesens_result* r = NULL;
  const double times[3] = {1.0, 5.0, 10.0};
  double S[3 * 3 * 2]; /* S[i + j*nx + k*nx*np] = dx_i/dp_j at times[k] */
  int status = odesens_model_from_builtin("chua", &m);
  if (!status) status = odesens_solver_create(m, "cvodes_fsa", &s);
  if (!status) status = odesens_solver_set_output_times(s, times, 3);
  if (!status) status = odesens_solve(s, &r);
  if (!status) status = odesens_result_s(r, S, 18);
  if (status) fprintf(stderr, "odesens: %s\n", odesens_errmsg(NULL));
  else printf("dx_1/dp_2 at t = 10: %g\n", S[0 + 1 * 3 + 2 * 6]);
  odesens_result_free(r); odesens_solver_free(s); odesens_model_free(m);
  return status != ODESENS_OK;
}
