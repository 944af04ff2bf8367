/* Sensitivity directions through the C ABI: S·R of dopri8s and grk4as for
 * directions given by the caller and for the option directions=all,
 * against the exact products of a model with a closed-form solution, the
 * zero-copy view against the copy, and the errors of the new calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "odesens.h"

/* u' = -a u, v' = -b v with v(0) = b: u = u0 e^{-at}, v = v0 e^{-bt}. */
static const char* decay_model =
    "param a = 0.5\nparam b = 2\n"
    "state u = 1\nstate v = b\n"
    "du/dt = -a*u\n"
    "dv/dt = -b*v\n";

enum { NX = 2, NP = 2, ROWS = NX + NP, NT = 3, ND = 3 };
static const double times[NT] = {0.5, 1.0, 2.0};
static const double a = 0.5, b = 2.0, u0 = 1.0, v0 = 2.0;

/* Columns (u0, v0, a, b): x0 of u; b with x0 held; a mixture. */
static const double directions[ROWS * ND] = {
    1.0, 0.0, 0.0, 0.0,   /* r_1 */
    0.0, 0.0, 0.0, 1.0,   /* r_2 */
    0.5, -2.0, 3.0, 0.25, /* r_3 */
};

/* dx(t)/d(x0, p) r for the columns above: partial derivatives, x0 fixed. */
static void exact_products(double t, const double* r, double* out) {
  const double eu = exp(-a * t), ev = exp(-b * t);
  out[0] = r[0] * eu - r[2] * t * u0 * eu;
  out[1] = r[1] * ev - r[3] * t * v0 * ev;
}

static odesens_solver* directions_solver(const odesens_model* m, const char* method) {
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, method, &s));
  if (!s) return NULL;
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  CHECK_OK(odesens_solver_set_tolerances(s, 1e-10, 1e-12));
  CHECK_OK(odesens_solver_set_option_double(s, "sens_rtol", 1e-7));
  return s;
}

static void test_given_directions(const odesens_model* m, const char* method) {
  odesens_solver* s = directions_solver(m, method);
  if (!s) return;
  CHECK_OK(odesens_solver_set_sens_directions(s, directions, ROWS * ND));
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  if (!r) {
    fprintf(stderr, "%s: %s\n", method, odesens_errmsg(s));
    odesens_solver_free(s);
    return;
  }
  int64_t nd = -1;
  CHECK_OK(odesens_result_n_directions(r, &nd));
  CHECK(nd == ND);

  double sr[NX * ND * NT], expected[NX * ND * NT];
  CHECK_OK(odesens_result_sr(r, sr, NX * ND * NT));
  for (int k = 0; k < NT; ++k)
    for (int j = 0; j < ND; ++j)
      exact_products(times[k], directions + j * ROWS, expected + j * NX + k * NX * ND);
  CHECK_CLOSE(sr, expected, NX * ND * NT, 1e-5);

  /* The zero-copy view holds the same values. */
  const double* view = NULL;
  int64_t len = 0;
  CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_SR, &view, &len));
  CHECK(len == NX * ND * NT);
  for (int64_t i = 0; view && i < len; ++i) CHECK(view[i] == sr[i]);

  /* A buffer one value short is refused, and a NULL count pointer. */
  CHECK_STATUS(odesens_result_sr(r, sr, NX * ND * NT - 1), ODESENS_ERR_BUFFER_TOO_SMALL);
  CHECK_STATUS(odesens_result_n_directions(r, NULL), ODESENS_ERR_NULL_HANDLE);
  odesens_result_free(r);

  /* len 0 removes them: back to the option's dx/dp, without S·R. */
  CHECK_OK(odesens_solver_set_sens_directions(s, NULL, 0));
  CHECK_OK(odesens_solve(s, &r));
  if (r) {
    CHECK_OK(odesens_result_n_directions(r, &nd));
    CHECK(nd == 0);
    CHECK_STATUS(odesens_result_sr(r, sr, NX * ND * NT), ODESENS_ERR_UNSUPPORTED);
    CHECK_MESSAGE(odesens_errmsg(r), "computed no result array 'SR'");
    double s_values[NX * NP * NT];
    CHECK_OK(odesens_result_s(r, s_values, NX * NP * NT));
    /* dv/db at t = 2 includes x0's dependence on b: e^{-bt} (1 - b t). */
    const double dv_db = exp(-b * 2.0) * (1.0 - b * 2.0);
    CHECK(fabs(s_values[1 + 1 * NX + 2 * NX * NP] - dv_db) <= 1e-5);
    odesens_result_free(r);
  }
  odesens_solver_free(s);
}

/* directions=all: n_directions = nx + np, the state columns dx/dx0 and the
 * parameter columns the total derivatives dx/dp. */
static void test_directions_option_all(const odesens_model* m) {
  odesens_solver* s = directions_solver(m, "dopri8s");
  if (!s) return;
  CHECK_OK(odesens_solver_set_option_string(s, "directions", "all"));
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  if (r) {
    int64_t nd = 0;
    CHECK_OK(odesens_result_n_directions(r, &nd));
    CHECK(nd == ROWS);
    double sr[NX * ROWS * NT];
    CHECK_OK(odesens_result_sr(r, sr, NX * ROWS * NT));
    const double t = times[NT - 1];
    const double* last = sr + (NT - 1) * NX * ROWS;
    CHECK(fabs(last[0 + 0 * NX] - exp(-a * t)) <= 1e-6);                       /* du/du0 */
    CHECK(fabs(last[1 + 1 * NX] - exp(-b * t)) <= 1e-6);                       /* dv/dv0 */
    CHECK(fabs(last[0 + 2 * NX] + t * u0 * exp(-a * t)) <= 1e-6);              /* du/da */
    CHECK(fabs(last[1 + 3 * NX] - exp(-b * t) * (1.0 - b * t)) <= 1e-6);       /* dv/db */
    CHECK(fabs(last[1 + 0 * NX]) <= 1e-12 && fabs(last[0 + 3 * NX]) <= 1e-12); /* uncoupled */
    odesens_result_free(r);
  }
  odesens_solver_free(s);
}

static void test_errors(const odesens_model* m) {
  odesens_solver* s = directions_solver(m, "dopri8s");
  if (!s) return;
  const double five[5] = {1, 0, 0, 0, 0};
  CHECK_STATUS(odesens_solver_set_sens_directions(s, five, 5), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "nx + np = 4");
  const double with_nan[4] = {1, NAN, 0, 0};
  CHECK_STATUS(odesens_solver_set_sens_directions(s, with_nan, 4), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_sens_directions(s, NULL, 4), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_set_sens_directions(s, five, -1), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_sens_directions(NULL, five, 4), ODESENS_ERR_NULL_HANDLE);
  odesens_solver_free(s);

  /* A method of S = dx/dp alone refuses directions, naming those that take
   * them, and its results have none. */
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  if (!s) return;
  CHECK_STATUS(odesens_solver_set_sens_directions(s, directions, ROWS), ODESENS_ERR_UNSUPPORTED);
  CHECK_MESSAGE(odesens_errmsg(s), "dopri8s");
  CHECK_OK(odesens_solver_set_sens_directions(s, NULL, 0));
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  if (r) {
    int64_t nd = -1;
    CHECK_OK(odesens_result_n_directions(r, &nd));
    CHECK(nd == 0);
    const double* view = NULL;
    int64_t len = 0;
    CHECK_STATUS(odesens_result_data(r, ODESENS_ARRAY_SR, &view, &len), ODESENS_ERR_UNSUPPORTED);
    odesens_result_free(r);
  }
  odesens_solver_free(s);
}

int main(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(decay_model, &m));
  if (!m) return 1;
  test_given_directions(m, "dopri8s");
  test_given_directions(m, "grk4as");
  test_directions_option_all(m);
  test_errors(m);
  odesens_model_free(m);
  return check_exit_status("test_capi_directions");
}
