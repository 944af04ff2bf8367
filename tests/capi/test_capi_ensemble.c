/* Ensembles through the C ABI: members equal separate solves bit for bit
 * at 1 and 2 threads, a NaN member fails alone with its status and
 * message, statuses, observables and results that outlive the ensemble,
 * and the errors of the new calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "odesens.h"

static const char* kinetics =
    "param k1 = 0.8\nparam k2 = 1.7\n"
    "state a = 1\nstate b = 0.2\n"
    "da/dt = -k1*a/(0.4 + a)\n"
    "db/dt = k1*a/(0.4 + a) - k2*b\n"
    "output total = a + b\n";

enum { NX = 2, NP = 2, NT = 3, K = 5 };
static const double times[NT] = {0.5, 1.0, 2.0};

static odesens_solver* kinetics_solver(const odesens_model* m, const char* method) {
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, method, &s));
  if (!s) return NULL;
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  CHECK_OK(odesens_solver_add_observable(s, "total"));
  return s;
}

/* Member k: (k1, k2) = (0.8 + 0.1 k, 1.7 - 0.2 k); member 2's k1 is NaN. */
static void member_params(double* params) {
  for (int k = 0; k < K; ++k) {
    params[0 + k * NP] = 0.8 + 0.1 * k;
    params[1 + k * NP] = 1.7 - 0.2 * k;
  }
  params[0 + 2 * NP] = NAN;
}

static int same_array(const odesens_result* a, const odesens_result* b, int64_t which) {
  const double *da = NULL, *db = NULL;
  int64_t la = -1, lb = -2;
  if (odesens_result_data(a, which, &da, &la) != ODESENS_OK) return 0;
  if (odesens_result_data(b, which, &db, &lb) != ODESENS_OK) return 0;
  return la == lb && memcmp(da, db, sizeof(double) * (size_t)la) == 0;
}

static void test_members_equal_separate_solves(const odesens_model* m, const char* method,
                                               int64_t threads) {
  odesens_solver* s = kinetics_solver(m, method);
  if (!s) return;
  double params[NP * K];
  member_params(params);
  int64_t statuses[K];
  odesens_ensemble* e = NULL;
  CHECK_OK(odesens_solver_solve_ensemble(s, params, K, threads, statuses, &e));
  if (!e) return;
  int64_t n = 0, failed = 0;
  CHECK_OK(odesens_ensemble_sizes(e, &n, &failed));
  CHECK(n == K && failed == 1);
  for (int k = 0; k < K; ++k) {
    int64_t status = -100;
    const char* message = NULL;
    CHECK_OK(odesens_ensemble_status(e, k, &status));
    CHECK(status == statuses[k]);
    CHECK_OK(odesens_ensemble_message(e, k, &message));
    if (k == 2) {
      CHECK(status == ODESENS_ERR_NOT_FINITE);
      CHECK_MESSAGE(message, "NaN");
      odesens_result* none = (odesens_result*)&none;
      CHECK_STATUS(odesens_ensemble_result(e, k, &none), ODESENS_ERR_NOT_FINITE);
      CHECK(none == NULL);
      CHECK_MESSAGE(odesens_errmsg(e), "member 2 failed");
      continue;
    }
    CHECK(status == ODESENS_OK);
    CHECK(message && message[0] == '\0');
    odesens_result* member = NULL;
    CHECK_OK(odesens_ensemble_result(e, k, &member));
    CHECK_OK(odesens_solver_set_params(s, params + k * NP, NP));
    odesens_result* alone = NULL;
    CHECK_OK(odesens_solve(s, &alone));
    if (member && alone) {
      CHECK(same_array(member, alone, ODESENS_ARRAY_X));
      CHECK(same_array(member, alone, ODESENS_ARRAY_S));
      double obs_member[NT], obs_alone[NT];
      CHECK_OK(odesens_result_observable(member, 0, obs_member, NT));
      CHECK_OK(odesens_result_observable(alone, 0, obs_alone, NT));
      CHECK(memcmp(obs_member, obs_alone, sizeof obs_member) == 0);
    }
    odesens_result_free(alone);
    /* A member's result is the caller's: it outlives the ensemble. */
    if (k == K - 1) {
      odesens_ensemble_free(e);
      e = NULL;
      double x[NX * NT];
      CHECK_OK(odesens_result_x(member, x, NX * NT));
    }
    odesens_result_free(member);
  }
  odesens_ensemble_free(e);
  odesens_solver_free(s);
}

static void test_errors(const odesens_model* m) {
  odesens_solver* s = kinetics_solver(m, "cvodes_fsa");
  if (!s) return;
  double params[NP * K];
  member_params(params);
  odesens_ensemble* e = NULL;
  CHECK_STATUS(odesens_solver_solve_ensemble(s, params, 0, 1, NULL, &e),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "n_members");
  CHECK_STATUS(odesens_solver_solve_ensemble(s, params, K, -1, NULL, &e),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_solve_ensemble(s, NULL, K, 1, NULL, &e), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_solve_ensemble(s, params, K, 1, NULL, NULL),
               ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_solve_ensemble(NULL, params, K, 1, NULL, &e),
               ODESENS_ERR_NULL_HANDLE);
  CHECK(e == NULL);
  /* Without a statuses array; indices out of range; handles of other kinds. */
  CHECK_OK(odesens_solver_solve_ensemble(s, params, K, 2, NULL, &e));
  int64_t status = 0;
  CHECK_STATUS(odesens_ensemble_status(e, K, &status), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_ensemble_status(e, -1, &status), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_ensemble_status(e, 0, NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_ensemble_sizes((const odesens_ensemble*)s, NULL, NULL),
               ODESENS_ERR_NULL_HANDLE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "not an ensemble");
  CHECK_STATUS(odesens_ensemble_result(e, 0, NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_OK(odesens_ensemble_sizes(e, NULL, NULL));
  odesens_ensemble_free(e);
  odesens_ensemble_free(NULL);
  odesens_solver_free(s);
}

/* A set-valued solver encloses one box: every member got that enclosure,
 * whatever its parameters. The call is refused. */
static void test_one_box_is_refused(const odesens_model* m) {
  odesens_solver* s = kinetics_solver(m, "bounds_fsa");
  if (!s) return;
  const double lower[NP] = {0.7, 1.5}, upper[NP] = {0.9, 1.8};
  CHECK_OK(odesens_solver_set_param_box(s, lower, upper, NP));
  double params[NP * K];
  member_params(params);
  odesens_ensemble* e = NULL;
  CHECK_STATUS(odesens_solver_solve_ensemble(s, params, K, 1, NULL, &e), ODESENS_ERR_UNSUPPORTED);
  CHECK_MESSAGE(odesens_errmsg(s), "one box");
  CHECK(e == NULL);
  odesens_solver_free(s);
}

int main(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(kinetics, &m));
  if (!m) return 1;
  test_members_equal_separate_solves(m, "cvodes_fsa", 1);
  test_members_equal_separate_solves(m, "cvodes_fsa", 2);
  test_members_equal_separate_solves(m, "exp", 2);
  test_members_equal_separate_solves(m, "odesd", 0);
  test_errors(m);
  test_one_box_is_refused(m);
  odesens_model_free(m);
  return check_exit_status("test_capi_ensemble");
}
