/* Set-valued bounds through the C ABI: bounds_fsa over a parameter box on
 * a model with a closed-form solution. The hulls and the polynomial models
 * (evaluated here, Chebyshev polynomials T_k by their recurrence) plus
 * their remainders must contain the exact x, S and gradient at parameters
 * across the box; the hulls must also be tight enough to mean something.
 * Then the least-squares objective of given data, and every error of the
 * new calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "odesens.h"

/* x' = -p x, x(0) = c/2: x = (c/2) e^{-pt}; the box holds c at 2. */
static const char* decay_model =
    "param p = 1\nparam c = 2\n"
    "state x = c/2\n"
    "dx/dt = -p*x\n";

enum { NX = 1, NP = 2, NT = 2, ORDER = 6, MAX_MON = 64 };
static const double times[NT] = {0.5, 1.0};
static const double lower[NP] = {0.9, 2.0}, upper[NP] = {1.1, 2.0};
/* The error of integrating the bounding system is not enclosed (result.hpp):
 * at the default tolerances (rtol 1e-8) it stays well below this slack. */
static const double slack = 1e-6;

static double exact_x(double p, double t) { return exp(-p * t); }
static double exact_dx_dp(double p, double t) { return -t * exp(-p * t); }
static double exact_dx_dc(double p, double t) { return 0.5 * exp(-p * t); }

typedef struct {
  int64_t order, n_mon;
  const char *basis, *remainder;
  int64_t exponents[MAX_MON * NP];
  const double *mid, *rad;
} Bounds;

static const double* array_of(const odesens_result* r, int64_t which, int64_t expected_len) {
  const double* data = NULL;
  int64_t len = -1;
  CHECK_OK(odesens_result_data(r, which, &data, &len));
  CHECK(len == expected_len);
  return len == expected_len ? data : NULL;
}

static int read_bounds(const odesens_result* r, Bounds* b) {
  CHECK_OK(odesens_result_bounds_info(r, &b->order, &b->n_mon, &b->basis, &b->remainder));
  if (b->n_mon <= 0 || b->n_mon > MAX_MON) return 0;
  CHECK_OK(odesens_result_bounds_exponents(r, b->exponents, b->n_mon * NP));
  b->mid = array_of(r, ODESENS_ARRAY_BOX_MID, NP);
  b->rad = array_of(r, ODESENS_ARRAY_BOX_RAD, NP);
  return b->mid && b->rad;
}

/* T_k(xi) */
static double chebyshev(int64_t k, double xi) {
  double previous = 1.0, current = xi;
  if (k == 0) return 1.0;
  for (int64_t n = 1; n < k; ++n) {
    const double next = 2.0 * xi * current - previous;
    previous = current;
    current = next;
  }
  return current;
}

/* sum_c coef[c] B_c(xi(p)) of one model. */
static double evaluate_model(const Bounds* b, const double* coef, const double* p) {
  double sum = 0.0;
  for (int64_t c = 0; c < b->n_mon; ++c) {
    double basis = 1.0;
    for (int j = 0; j < NP; ++j) {
      const double xi = b->rad[j] > 0.0 ? (p[j] - b->mid[j]) / b->rad[j] : 0.0;
      const int64_t e = b->exponents[j + c * NP];
      basis *= strcmp(b->basis, "taylor") == 0 ? pow(xi, (double)e) : chebyshev(e, xi);
    }
    sum += coef[c] * basis;
  }
  return sum;
}

/* The exact value lies in model m's hull and in its polynomial plus its
 * remainder at p. */
static void check_enclosure(const Bounds* b, const double* coef, const double* rem,
                            const double* hull, int64_t m, const double* p, double exact) {
  const double poly = evaluate_model(b, coef + m * b->n_mon, p);
  CHECK(hull[2 * m] - slack <= exact && exact <= hull[2 * m + 1] + slack);
  CHECK(poly + rem[2 * m] - slack <= exact && exact <= poly + rem[2 * m + 1] + slack);
  if (!(poly + rem[2 * m] - slack <= exact && exact <= poly + rem[2 * m + 1] + slack))
    fprintf(stderr, "  model %lld at p = %g: %.17g not in %.17g + [%g, %g]\n", (long long)m, p[0],
            exact, poly, rem[2 * m], rem[2 * m + 1]);
}

static odesens_solver* bounds_solver(const odesens_model* m, const char* remainder) {
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "bounds_fsa", &s));
  if (!s) return NULL;
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  CHECK_OK(odesens_solver_set_option_int(s, "order", ORDER));
  CHECK_OK(odesens_solver_set_option_string(s, "remainder", remainder));
  CHECK_OK(odesens_solver_set_param_box(s, lower, upper, NP));
  return s;
}

static odesens_result* solved(odesens_solver* s) {
  odesens_result* r = NULL;
  if (!s) return NULL;
  CHECK_OK(odesens_solve(s, &r));
  if (!r) fprintf(stderr, "bounds_fsa: %s\n", odesens_errmsg(s));
  return r;
}

static void check_info(const odesens_result* r, const Bounds* b, const char* remainder) {
  CHECK(b->order == ORDER);
  CHECK(b->n_mon == ORDER + 1); /* one parameter varies: C(1 + q, q) */
  CHECK(b->basis && strcmp(b->basis, "chebyshev") == 0);
  CHECK(b->remainder && strcmp(b->remainder, remainder) == 0);
  /* p's exponents are 0..q once each, c's all 0 (held fixed). */
  int seen[ORDER + 1] = {0};
  for (int64_t c = 0; c < b->n_mon; ++c) {
    const int64_t e = b->exponents[0 + c * NP];
    if (e >= 0 && e <= ORDER) ++seen[e];
    CHECK(b->exponents[1 + c * NP] == 0);
  }
  for (int e = 0; e <= ORDER; ++e) CHECK(seen[e] == 1);
  /* The box as given, and mid +- rad around it. */
  const double* lo = array_of(r, ODESENS_ARRAY_BOX_LOWER, NP);
  const double* hi = array_of(r, ODESENS_ARRAY_BOX_UPPER, NP);
  for (int j = 0; lo && hi && j < NP; ++j) {
    CHECK(lo[j] == lower[j] && hi[j] == upper[j]);
    CHECK(b->mid[j] - b->rad[j] <= lower[j] && upper[j] <= b->mid[j] + b->rad[j]);
  }
  CHECK(b->rad[1] == 0.0 && b->mid[1] == 2.0);
}

static void check_x_and_s(const odesens_result* r, const Bounds* b) {
  const int64_t nm = b->n_mon;
  const double* x_coef = array_of(r, ODESENS_ARRAY_X_COEF, nm * NX * NT);
  const double* x_rem = array_of(r, ODESENS_ARRAY_X_REM, 2 * NX * NT);
  const double* x_hull = array_of(r, ODESENS_ARRAY_X_HULL, 2 * NX * NT);
  const double* s_coef = array_of(r, ODESENS_ARRAY_S_COEF, nm * NX * NP * NT);
  const double* s_rem = array_of(r, ODESENS_ARRAY_S_REM, 2 * NX * NP * NT);
  const double* s_hull = array_of(r, ODESENS_ARRAY_S_HULL, 2 * NX * NP * NT);
  if (!x_coef || !x_rem || !x_hull || !s_coef || !s_rem || !s_hull) return;
  for (int step = 0; step <= 8; ++step) {
    const double p[NP] = {lower[0] + (upper[0] - lower[0]) * step / 8.0, 2.0};
    for (int k = 0; k < NT; ++k) {
      const double t = times[k];
      check_enclosure(b, x_coef, x_rem, x_hull, k, p, exact_x(p[0], t));
      check_enclosure(b, s_coef, s_rem, s_hull, 0 + k * NP, p, exact_dx_dp(p[0], t));
      check_enclosure(b, s_coef, s_rem, s_hull, 1 + k * NP, p, exact_dx_dc(p[0], t));
    }
  }
  /* Tight: the hull of x(1) is within 1e-4 of the exact range. */
  CHECK(fabs(x_hull[2] - exact_x(upper[0], 1.0)) <= 1e-4);
  CHECK(fabs(x_hull[3] - exact_x(lower[0], 1.0)) <= 1e-4);
  /* x at the box centre, as the point result. */
  double x[NX * NT];
  CHECK_OK(odesens_result_x(r, x, NX * NT));
  CHECK(fabs(x[1] - exact_x(b->mid[0], 1.0)) <= 1e-6);
}

/* G = x(t_final) by default: dG/dp = -e^{-p}. */
static void check_gradient(const odesens_result* r, const Bounds* b,
                           double (*exact)(double p)) {
  const double* coef = array_of(r, ODESENS_ARRAY_GRADIENT_COEF, b->n_mon * NP);
  const double* rem = array_of(r, ODESENS_ARRAY_GRADIENT_REM, 2 * NP);
  const double* hull = array_of(r, ODESENS_ARRAY_GRADIENT_HULL, 2 * NP);
  if (!coef || !rem || !hull) return;
  for (int step = 0; step <= 8; ++step) {
    const double p[NP] = {lower[0] + (upper[0] - lower[0]) * step / 8.0, 2.0};
    check_enclosure(b, coef, rem, hull, 0, p, exact(p[0]));
  }
}

static double final_state_gradient(double p) { return exact_dx_dp(p, 1.0); }

/* F = (d - x(1))^2 with d = e^{-1}, x(0.5) unobserved:
 * dF/dp = 2 (x(1) - d) dx(1)/dp. */
static double data_gradient(double p) {
  return 2.0 * (exact_x(p, 1.0) - exp(-1.0)) * exact_dx_dp(p, 1.0);
}

static void test_enclosures(const odesens_model* m, const char* remainder) {
  odesens_solver* s = bounds_solver(m, remainder);
  odesens_result* r = solved(s);
  Bounds b;
  if (r && read_bounds(r, &b)) {
    check_info(r, &b, remainder);
    check_x_and_s(r, &b);
    check_gradient(r, &b, final_state_gradient);
    const double* shape = NULL;
    int64_t len = -1;
    if (strcmp(remainder, "ellipsoid") == 0) {
      CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_X_SHAPE, &shape, &len));
      CHECK(len == NX * NX * NT);
    } else {
      CHECK_STATUS(odesens_result_data(r, ODESENS_ARRAY_X_SHAPE, &shape, &len),
                   ODESENS_ERR_UNSUPPORTED);
      CHECK_MESSAGE(odesens_errmsg(r), "with remainder=ellipsoid");
    }
    /* A buffer one value short is refused. */
    int64_t exponents[MAX_MON * NP];
    CHECK_STATUS(odesens_result_bounds_exponents(r, exponents, b.n_mon * NP - 1),
                 ODESENS_ERR_BUFFER_TOO_SMALL);
    /* Any output of bounds_info may be NULL. */
    CHECK_OK(odesens_result_bounds_info(r, NULL, NULL, NULL, NULL));
  }
  odesens_result_free(r);

  /* With data, the gradient encloses that of the least-squares objective. */
  const double data[NX * NT] = {NAN, exp(-1.0)};
  if (s) CHECK_OK(odesens_solver_set_objective_data(s, data, NX * NT));
  r = solved(s);
  if (r && read_bounds(r, &b)) check_gradient(r, &b, data_gradient);
  odesens_result_free(r);
  odesens_solver_free(s);
}

static void test_setter_errors(const odesens_model* m) {
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "bounds_fsa", &s));
  if (!s) return;
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  odesens_result* r = NULL;
  /* No box: the solve names what is missing. */
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "parameter box");
  CHECK(r == NULL);

  const double three[3] = {0.9, 2.0, 1.0};
  CHECK_STATUS(odesens_solver_set_param_box(s, three, three, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "expected 2");
  const double reversed_lo[NP] = {1.1, 2.0}, reversed_hi[NP] = {0.9, 2.0};
  CHECK_STATUS(odesens_solver_set_param_box(s, reversed_lo, reversed_hi, NP),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "parameter box of 'p'");
  const double with_nan[NP] = {NAN, 2.0};
  CHECK_STATUS(odesens_solver_set_param_box(s, with_nan, upper, NP), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_param_box(s, lower, with_nan, NP), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_param_box(s, NULL, upper, NP), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_set_param_box(NULL, lower, upper, NP), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_set_option_int(s, "order", 13), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "order");

  const double data[3] = {1.0, 2.0, 3.0};
  CHECK_STATUS(odesens_solver_set_objective_data(s, data, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "2 x 1");
  const double infinite[NT] = {1.0, INFINITY};
  CHECK_STATUS(odesens_solver_set_objective_data(s, infinite, NT), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_objective_data(s, data, -1), ODESENS_ERR_INVALID_ARGUMENT);

  /* A box set and removed again (np 0, NULL bounds) is no box. */
  CHECK_OK(odesens_solver_set_param_box(s, lower, upper, NP));
  CHECK_OK(odesens_solver_set_param_box(s, NULL, NULL, 0));
  CHECK_OK(odesens_solver_set_objective_data(s, NULL, 0));
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT);
  odesens_solver_free(s);
}

/* Methods without bounds refuse the box and the data, and their results
 * have no bounds to read. */
static void test_other_methods(const odesens_model* m) {
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  if (!s) return;
  CHECK_STATUS(odesens_solver_set_param_box(s, lower, upper, NP), ODESENS_ERR_UNSUPPORTED);
  CHECK_MESSAGE(odesens_errmsg(s), "bounds_fsa");
  const double data[NT] = {1.0, 2.0};
  CHECK_STATUS(odesens_solver_set_objective_data(s, data, NT), ODESENS_ERR_UNSUPPORTED);
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  odesens_result* r = solved(s);
  if (r) {
    int64_t order = -1, exponents[NP];
    const char* basis = NULL;
    CHECK_STATUS(odesens_result_bounds_info(r, &order, NULL, &basis, NULL),
                 ODESENS_ERR_UNSUPPORTED);
    CHECK_MESSAGE(odesens_errmsg(r), "computed no bounds");
    CHECK(order == -1 && basis == NULL);
    CHECK_STATUS(odesens_result_bounds_exponents(r, exponents, NP), ODESENS_ERR_UNSUPPORTED);
    const double* view = NULL;
    int64_t len = -1;
    for (int64_t a = ODESENS_ARRAY_X_COEF; a <= ODESENS_ARRAY_BOX_UPPER; ++a)
      CHECK_STATUS(odesens_result_data(r, a, &view, &len), ODESENS_ERR_UNSUPPORTED);
    CHECK_STATUS(odesens_result_data(r, ODESENS_ARRAY_BOX_UPPER + 1, &view, &len),
                 ODESENS_ERR_INVALID_ARGUMENT);
    CHECK(view == NULL && len == -1);
  }
  odesens_result_free(r);
  odesens_solver_free(s);
}

int main(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(decay_model, &m));
  if (!m) return 1;
  test_enclosures(m, "ellipsoid");
  test_enclosures(m, "interval");
  test_setter_errors(m);
  test_other_methods(m);
  odesens_model_free(m);
  return check_exit_status("test_capi_bounds");
}
