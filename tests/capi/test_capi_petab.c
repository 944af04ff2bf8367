/* PEtab problems through the C ABI, on case 0001 of the PEtab test suite
 * ($ODESENS_SHARED_DIR/petab/test-suite, by default ../shared; skipped
 * without it): sizes, parameters, the likelihood and simulations against
 * the case's solution, the gradient against central differences of nllh,
 * the FIM, and the errors of every call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "odesens.h"

#ifndef ODESENS_DEFAULT_SHARED_DIR
#define ODESENS_DEFAULT_SHARED_DIR "../shared"
#endif

enum { NP = 4, NM = 2 };
static const double solution_llh = -0.84750169713188;
static const double solution_chi2 = 0.79183798368486;
static const double solution_simulations[NM] = {1.0, 0.42857190373069665};

static char case_folder[4096];
static char case_yaml[4200];

/* The case's folder and YAML file; 0 when the test suite is not there. */
static int find_case(void) {
  const char* shared = getenv("ODESENS_SHARED_DIR");
  if (!shared || !*shared) shared = ODESENS_DEFAULT_SHARED_DIR;
  snprintf(case_folder, sizeof case_folder, "%s/petab/test-suite/0001", shared);
  snprintf(case_yaml, sizeof case_yaml, "%s/_0001.yaml", case_folder);
  FILE* f = fopen(case_yaml, "r");
  if (!f) return 0;
  fclose(f);
  return 1;
}

/* nllh at x (tight tolerances), NAN on failure. */
static double nllh_at(odesens_petab* h, const double* x) {
  double nllh = NAN;
  CHECK_OK(odesens_petab_evaluate(h, x, NP, "cvodes_fsa", 1e-10, 1e-12, 1, &nllh, NULL, NULL,
                                  NULL, NULL, NULL, 0));
  return nllh;
}

static void test_parameters(const odesens_petab* h) {
  int64_t np = -1, nm = -1, ne = -1;
  CHECK_OK(odesens_petab_sizes(h, &np, &nm, &ne));
  CHECK(np == NP && nm == NM && ne == 1);
  CHECK_OK(odesens_petab_sizes(h, NULL, NULL, NULL));

  static const char* const ids[NP] = {"a0", "b0", "k1", "k2"};
  for (int64_t i = 0; i < NP; ++i) {
    const char* id = NULL;
    const char* scale = NULL;
    CHECK_OK(odesens_petab_parameter_id(h, i, &id));
    CHECK(id && strcmp(id, ids[i]) == 0);
    CHECK_OK(odesens_petab_parameter_scale(h, i, &scale));
    CHECK(scale && strcmp(scale, "lin") == 0);
  }

  double lower[NP], upper[NP], nominal[NP];
  CHECK_OK(odesens_petab_parameter_bounds(h, lower, upper, nominal, NP));
  const double expected_nominal[NP] = {1.0, 0.0, 0.8, 0.6};
  for (int i = 0; i < NP; ++i) CHECK(lower[i] == 0.0 && upper[i] == 10.0);
  CHECK_CLOSE(nominal, expected_nominal, NP, 0.0);
  double only_upper[NP + 2] = {-1, -1, -1, -1, -1, -1};
  CHECK_OK(odesens_petab_parameter_bounds(h, NULL, only_upper, NULL, NP + 2));
  CHECK(only_upper[0] == 10.0 && only_upper[3] == 10.0 && only_upper[4] == -1.0);
  CHECK_OK(odesens_petab_parameter_bounds(h, NULL, NULL, NULL, 0));
}

static void test_evaluation(odesens_petab* h) {
  double x[NP];
  CHECK_OK(odesens_petab_parameter_bounds(h, NULL, NULL, x, NP));

  double nllh = NAN, nlpost = NAN, chi2 = NAN, gradient[NP], fim[NP * NP], sim[NM];
  CHECK_OK(odesens_petab_evaluate(h, x, NP, NULL, 1e-10, 1e-12, 1, &nllh, &nlpost, &chi2,
                                  gradient, fim, sim, NM));
  CHECK(fabs(nllh + solution_llh) < 1e-3);
  CHECK(fabs(chi2 - solution_chi2) < 1e-3);
  CHECK(nlpost == nllh); /* no priors */
  for (int i = 0; i < NM; ++i) CHECK(fabs(sim[i] - solution_simulations[i]) < 1e-3);

  /* The gradient of nllh against central differences. */
  double differences[NP];
  for (int j = 0; j < NP; ++j) {
    const double step = 1e-5;
    double xp[NP], xm[NP];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[j] += step;
    xm[j] -= step;
    differences[j] = (nllh_at(h, xp) - nllh_at(h, xm)) / (2 * step);
  }
  CHECK_CLOSE(gradient, differences, NP, 1e-5);

  /* The FIM: symmetric, with a non-negative diagonal and non-zero. */
  double largest = 0.0;
  for (int i = 0; i < NP; ++i) {
    CHECK(fim[i * NP + i] >= 0.0);
    for (int k = 0; k < NP; ++k) {
      CHECK(fabs(fim[i * NP + k] - fim[k * NP + i]) <= 1e-12 * (1.0 + fabs(fim[i * NP + k])));
      if (fabs(fim[i * NP + k]) > largest) largest = fabs(fim[i * NP + k]);
    }
  }
  CHECK(largest > 0.0);

  /* The same numbers whatever the method's spelling ("" is auto, which runs
   * odesd here) and the threads; the adjoint gives the same gradient;
   * default tolerances are close. */
  double again = NAN, alone = NAN, adjoint[NP], sim2[NM + 1] = {0, 0, -7};
  CHECK_OK(odesens_petab_evaluate(h, x, NP, "odesd", 1e-10, 1e-12, 1, &alone, NULL, NULL,
                                  NULL, NULL, NULL, 0));
  CHECK_OK(odesens_petab_evaluate(h, x, NP, "", 1e-10, 1e-12, 0, &again, NULL, NULL, NULL, NULL,
                                  sim2, NM + 1));
  CHECK(again == alone);
  CHECK(fabs(again - nllh) < 1e-8); /* without S, the steps differ */
  CHECK_CLOSE(sim2, sim, NM, 1e-8);
  CHECK(sim2[NM] == -7);
  CHECK_OK(odesens_petab_evaluate(h, x, NP, "cvodes_asa", 1e-10, 1e-12, 2, &again, NULL, NULL,
                                  adjoint, NULL, NULL, 0));
  CHECK(fabs(again - nllh) < 1e-8);
  CHECK_CLOSE(adjoint, gradient, NP, 1e-6);
  CHECK_OK(odesens_petab_evaluate(h, x, NP, "auto", 0.0, -1.0, 1, &again, NULL, NULL, NULL, NULL,
                                  NULL, 0));
  CHECK(fabs(again - nllh) < 1e-6);

  int64_t count = -1;
  CHECK_OK(odesens_petab_warning_count(h, &count));
  CHECK(count == 0);
}

static void test_errors(odesens_petab* h) {
  double x[NP];
  CHECK_OK(odesens_petab_parameter_bounds(h, NULL, NULL, x, NP));
  double nllh = 123.0, sim[NM] = {-5, -5}, gradient[NP] = {-5, -5, -5, -5};
  int64_t n = -1;
  const char* text = NULL;

  /* NULL and wrong-kind handles. */
  CHECK_STATUS(odesens_petab_sizes(NULL, &n, NULL, NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "odesens_petab_sizes: the PEtab problem handle is NULL");
  CHECK(n == -1);
  CHECK_STATUS(odesens_petab_parameter_id(NULL, 0, &text), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_petab_parameter_scale(NULL, 0, &text), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_petab_parameter_bounds(NULL, x, NULL, NULL, NP), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_petab_evaluate(NULL, x, NP, NULL, 0, 0, 1, &nllh, NULL, NULL, NULL, NULL,
                                      NULL, 0),
               ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_petab_warning_count(NULL, &n), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_petab_warning(NULL, 0, &text), ODESENS_ERR_NULL_HANDLE);
  CHECK(text == NULL && nllh == 123.0);
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  CHECK_STATUS(odesens_petab_sizes((const odesens_petab*)(const void*)m, &n, NULL, NULL),
               ODESENS_ERR_NULL_HANDLE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "is a model, not a PEtab problem");
  odesens_petab_free((odesens_petab*)(void*)m); /* another kind: ignored */
  odesens_model_free(m);
  odesens_petab_free(NULL);

  /* Parameters: indices, NULL outputs, short buffers. */
  CHECK_STATUS(odesens_petab_parameter_id(h, NP, &text), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(h), "parameter index 4 is out of range [0, 4)");
  CHECK_STATUS(odesens_petab_parameter_scale(h, -1, &text), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_petab_parameter_id(h, 0, NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK(text == NULL);
  double short_buffer[NP] = {-5, -5, -5, -5};
  CHECK_STATUS(odesens_petab_parameter_bounds(h, short_buffer, NULL, NULL, NP - 1),
               ODESENS_ERR_BUFFER_TOO_SMALL);
  CHECK_MESSAGE(odesens_errmsg(h), "room for 3 values, 4 needed");
  CHECK(short_buffer[0] == -5);
  CHECK_STATUS(odesens_petab_parameter_bounds(h, NULL, NULL, NULL, -1),
               ODESENS_ERR_INVALID_ARGUMENT);

  /* Evaluation: each failure writes nothing. */
  CHECK_STATUS(odesens_petab_evaluate(h, x, NP - 1, NULL, 0, 0, 1, &nllh, NULL, NULL, gradient,
                                      NULL, sim, NM),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(h), "x has 3 values, the problem estimates 4 parameters");
  CHECK_STATUS(odesens_petab_evaluate(h, NULL, NP, NULL, 0, 0, 1, &nllh, NULL, NULL, NULL, NULL,
                                      NULL, 0),
               ODESENS_ERR_NULL_HANDLE);
  CHECK_MESSAGE(odesens_errmsg(h), "x is NULL");
  double bad[NP];
  memcpy(bad, x, sizeof bad);
  bad[2] = NAN;
  CHECK_STATUS(odesens_petab_evaluate(h, bad, NP, NULL, 0, 0, 1, &nllh, NULL, NULL, gradient,
                                      NULL, sim, NM),
               ODESENS_ERR_NOT_FINITE);
  CHECK_MESSAGE(odesens_errmsg(h), "x[2] is NaN or Inf");
  bad[2] = -INFINITY; /* -inf is allowed on a log scale only */
  CHECK_STATUS(odesens_petab_evaluate(h, bad, NP, NULL, 0, 0, 1, &nllh, NULL, NULL, NULL, NULL,
                                      NULL, 0),
               ODESENS_ERR_NOT_FINITE);
  CHECK_MESSAGE(odesens_errmsg(h), "scale 'lin'");
  CHECK_STATUS(odesens_petab_evaluate(h, x, NP, "nosuch", 0, 0, 1, &nllh, NULL, NULL, NULL, NULL,
                                      NULL, 0),
               ODESENS_ERR_UNKNOWN_METHOD);
  CHECK_MESSAGE(odesens_errmsg(h), "unknown method 'nosuch'");
  CHECK_STATUS(odesens_petab_evaluate(h, x, NP, NULL, NAN, 0, 1, &nllh, NULL, NULL, NULL, NULL,
                                      NULL, 0),
               ODESENS_ERR_NOT_FINITE);
  CHECK_MESSAGE(odesens_errmsg(h), "rtol is NaN or Inf");
  CHECK_STATUS(odesens_petab_evaluate(h, x, NP, NULL, 1e-6, INFINITY, 1, &nllh, NULL, NULL,
                                      NULL, NULL, NULL, 0),
               ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_petab_evaluate(h, x, NP, NULL, 1.0, 0, 1, &nllh, NULL, NULL, NULL, NULL,
                                      NULL, 0),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(h), "rtol must be below 1");
  CHECK_STATUS(odesens_petab_evaluate(h, x, NP, NULL, 0, 0, -1, &nllh, NULL, NULL, NULL, NULL,
                                      NULL, 0),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(h), "threads must be from 0 to 4096");
  CHECK_STATUS(odesens_petab_evaluate(h, x, NP, NULL, 0, 0, 1, &nllh, NULL, NULL, gradient, NULL,
                                      sim, NM - 1),
               ODESENS_ERR_BUFFER_TOO_SMALL);
  CHECK_MESSAGE(odesens_errmsg(h), "simulations has room for 1 values, 2 needed");
  CHECK_STATUS(odesens_petab_evaluate(h, x, NP, NULL, 0, 0, 1, &nllh, NULL, NULL, NULL, NULL,
                                      NULL, -1),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK(nllh == 123.0 && sim[0] == -5 && sim[1] == -5 && gradient[0] == -5);

  /* Warnings: none, and indices beyond them. */
  CHECK_STATUS(odesens_petab_warning(h, 0, &text), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(h), "warning index 0 is out of range [0, 0)");
  CHECK_STATUS(odesens_petab_warning_count(h, NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_petab_warning(h, 0, NULL), ODESENS_ERR_NULL_HANDLE);
}

static void test_load_errors(void) {
  odesens_petab* h = (odesens_petab*)&h;
  CHECK_STATUS(odesens_petab_load("/no/such/problem.yaml", &h), ODESENS_ERR_UNKNOWN_MODEL);
  CHECK(h == NULL);
  CHECK_MESSAGE(odesens_errmsg(NULL), "odesens_petab_load: PEtab problem file");
  CHECK_MESSAGE(odesens_errmsg(NULL), "/no/such/problem.yaml");
  CHECK_MESSAGE(odesens_errmsg(NULL), "No such file or directory");
  h = (odesens_petab*)&h;
  CHECK_STATUS(odesens_petab_load(NULL, &h), ODESENS_ERR_NULL_HANDLE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "yaml_path is NULL");
  CHECK(h == NULL);
  CHECK_STATUS(odesens_petab_load(case_yaml, NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "out is NULL");
  /* The case's folder names its problem file, _0001.yaml, beside
   * _0001_solution.yaml: the same problem. */
  CHECK_OK(odesens_petab_load(case_folder, &h));
  if (h) {
    int64_t np = 0, nm = 0, ne = 0;
    CHECK_OK(odesens_petab_sizes(h, &np, &nm, &ne));
    CHECK(np == NP && nm == NM && ne == 1);
    odesens_petab_free(h);
  }
  h = (odesens_petab*)&h;
  CHECK_STATUS(odesens_petab_load("/dev/zero", &h), ODESENS_ERR_IO);
  CHECK_MESSAGE(odesens_errmsg(NULL), "not a regular file");
  CHECK(h == NULL);
  /* Not PEtab YAML: the model of the case. */
  char model[4200];
  snprintf(model, sizeof model, "%s/_model.xml", case_folder);
  CHECK_STATUS(odesens_petab_load(model, &h), ODESENS_ERR_PARSE);
  CHECK(h == NULL);
}

int main(void) {
  if (!find_case()) {
    printf("test_capi_petab: skipped, the PEtab test suite is not at %s "
           "(set ODESENS_SHARED_DIR)\n",
           case_yaml);
    return 77;
  }
  odesens_petab* h = NULL;
  CHECK_OK(odesens_petab_load(case_yaml, &h));
  if (!h) return check_exit_status("test_capi_petab");
  test_parameters(h);
  test_evaluation(h);
  test_errors(h);
  test_load_errors();
  odesens_petab_free(h);
  return check_exit_status("test_capi_petab");
}
