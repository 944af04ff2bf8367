/* Consumer of the installed C ABI: forward sensitivities of Chua's circuit. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "odesens.h"

int main(void) {
  const double times[3] = {1.0, 5.0, 10.0};
  odesens_model* model = NULL;
  odesens_solver* solver = NULL;
  odesens_result* result = NULL;
  int64_t nx = 0, np = 0;
  double* S = NULL;
  int status = odesens_model_from_builtin("chua", &model);
  if (status == ODESENS_OK) status = odesens_model_sizes(model, &nx, &np);
  if (status == ODESENS_OK) status = odesens_solver_create(model, "cvodes_fsa", &solver);
  if (status == ODESENS_OK) status = odesens_solver_set_output_times(solver, times, 3);
  if (status == ODESENS_OK) status = odesens_solve(solver, &result);
  if (status == ODESENS_OK) {
    S = malloc(sizeof(double) * (size_t)(nx * np * 3));
    status = S ? odesens_result_s(result, S, nx * np * 3) : ODESENS_ERR_INTERNAL;
  }
  if (status != ODESENS_OK) {
    fprintf(stderr, "consumer_c: %s: %s\n", odesens_status_string(status), odesens_errmsg(NULL));
    return 1;
  }
  int bad = 0;
  for (int64_t i = 0; i < nx * np * 3; ++i) bad += !isfinite(S[i]);
  if (bad) fprintf(stderr, "consumer_c: S is not finite\n");
  else
    printf("odesens %s (C ABI %d), builtin:chua, cvodes_fsa: nx = %lld, np = %lld, "
           "dx_0/dp_0(t=10) = %.10g\n",
           odesens_version(), odesens_abi_version(), (long long)nx, (long long)np,
           S[2 * nx * np]);
  free(S);
  odesens_result_free(result);
  odesens_solver_free(solver);
  odesens_model_free(model);
  return bad != 0;
}
