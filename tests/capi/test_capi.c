/* The C ABI driven from C11: every function, every method, every getter and
 * every error path, with values checked against the built-in models and
 * closed-form solutions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "odesens.h"
#include "test_models.h"

/* ---- helpers ---- */

static const double chua_times[] = {0.5, 1.0, 2.0, 3.0};
enum { CHUA_NT = 4 };

/* A solver of `model` with `method` at `times`, tolerances rtol/atol. */
static odesens_solver* make_solver(const odesens_model* model, const char* method,
                                   const double* times, int64_t nt, double rtol, double atol) {
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(model, method, &s));
  if (!s) return NULL;
  CHECK_OK(odesens_solver_set_output_times(s, times, nt));
  CHECK_OK(odesens_solver_set_tolerances(s, rtol, atol));
  return s;
}

/* Solves; a failure is reported at the caller's line. */
#define solve_ok(s) solve_ok_at((s), __LINE__)
static odesens_result* solve_ok_at(odesens_solver* s, int line) {
  odesens_result* r = NULL;
  int status = odesens_solve(s, &r);
  if (status != ODESENS_OK || !r) {
    fprintf(stderr, "%s:%d: solve failed (%d): %s\n", __FILE__, line, status, odesens_errmsg(s));
    ++check_failures;
  }
  return r;
}

/* Copies one array of a result into a new malloc'ed buffer of *len values. */
static double* copy_array(const odesens_result* r, int64_t which, int64_t* len) {
  const double* view = NULL;
  CHECK_OK(odesens_result_data(r, which, &view, len));
  double* out = malloc((size_t)(*len > 0 ? *len : 1) * sizeof(double));
  int status = ODESENS_ERR_INTERNAL;
  switch (which) {
    case ODESENS_ARRAY_TIMES: status = odesens_result_times(r, out, *len); break;
    case ODESENS_ARRAY_X: status = odesens_result_x(r, out, *len); break;
    case ODESENS_ARRAY_S_TIMES: status = odesens_result_s_times(r, out, *len); break;
    case ODESENS_ARRAY_S: status = odesens_result_s(r, out, *len); break;
    case ODESENS_ARRAY_GRADIENT: status = odesens_result_gradient(r, out, *len); break;
  }
  CHECK_OK(status);
  /* The copy and the zero-copy view hold the same numbers. */
  CHECK(view != NULL && memcmp(view, out, (size_t)*len * sizeof(double)) == 0);
  return out;
}

static int has_method(const char* id) {
  int64_t n = 0;
  CHECK_OK(odesens_method_count(&n));
  for (int64_t i = 0; i < n; ++i) {
    const char* name = NULL;
    CHECK_OK(odesens_method_id(i, &name));
    if (name && strcmp(name, id) == 0) return 1;
  }
  return 0;
}

/* ---- library ---- */

static void test_version_and_status_strings(void) {
  char expected[64];
  snprintf(expected, sizeof expected, "%d.%d.%d", ODESENS_VERSION_MAJOR, ODESENS_VERSION_MINOR,
           ODESENS_VERSION_PATCH);
  CHECK(strcmp(odesens_version(), expected) == 0);
  CHECK(odesens_abi_version() == ODESENS_ABI_VERSION);
  CHECK(strcmp(odesens_status_string(ODESENS_OK), "ok") == 0);
  CHECK(strcmp(odesens_status_string(ODESENS_ERR_BUFFER_TOO_SMALL), "output buffer too small") == 0);
  CHECK(strcmp(odesens_status_string(ODESENS_ERR_CALLBACK_FAILED), "a user callback failed") == 0);
  CHECK(strcmp(odesens_status_string(12345), "unknown status") == 0);
}

static void test_method_discovery(void) {
  CHECK(has_method("cvodes_fsa"));
  CHECK(has_method("cvodes_asa"));
  CHECK(has_method("odesd"));
  int64_t n = 0, type = -1;
  CHECK_OK(odesens_method_option_count("cvodes_fsa", &n));
  CHECK(n >= 1);
  int found_lmm = 0, found_int = 0;
  for (int64_t i = 0; i < n; ++i) {
    const char *key = NULL, *doc = NULL;
    CHECK_OK(odesens_method_option("cvodes_fsa", i, &key, &type, &doc));
    CHECK(key && doc && strlen(doc) > 0);
    if (key && strcmp(key, "lmm") == 0) found_lmm = type == ODESENS_OPTION_STRING;
    if (key && strcmp(key, "sens_error_control") == 0) found_int = type == ODESENS_OPTION_INT;
  }
  CHECK(found_lmm && found_int);
  CHECK_OK(odesens_method_option("cvodes_fsa", 0, NULL, NULL, NULL));
  /* Ranges: a flag is [0, 1], a string option has none, and a value outside
   * the range is refused when set. */
  for (int64_t i = 0; i < n; ++i) {
    const char* key = NULL;
    double lo = 0.0, hi = 0.0;
    CHECK_OK(odesens_method_option("cvodes_fsa", i, &key, &type, NULL));
    CHECK_OK(odesens_method_option_bounds("cvodes_fsa", i, &lo, &hi));
    if (strcmp(key, "sens_error_control") == 0) CHECK(lo == 0.0 && hi == 1.0);
    if (type == ODESENS_OPTION_STRING) CHECK(lo != lo && hi != hi);
  }
  CHECK_OK(odesens_method_option_bounds("cvodes_fsa", 0, NULL, NULL));
  CHECK_STATUS(odesens_method_option_bounds("cvodes_fsa", n, NULL, NULL),
               ODESENS_ERR_INVALID_ARGUMENT);
  {
    odesens_model* m = NULL;
    odesens_solver* s = NULL;
    CHECK_OK(odesens_model_from_builtin("chua", &m));
    CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
    CHECK_STATUS(odesens_solver_set_option_int(s, "sens_error_control", 2),
                 ODESENS_ERR_OPTION_TYPE);
    CHECK_MESSAGE(odesens_errmsg(s), "must be 0 or 1 (got 2)");
    CHECK_OK(odesens_solver_set_option_int(s, "sens_error_control", 0));
    odesens_solver_free(s);
    odesens_model_free(m);
  }
  const char* id = NULL;
  CHECK_STATUS(odesens_method_id(n + 100, &id), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_method_id(-1, &id), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_method_option("cvodes_fsa", n, NULL, NULL, NULL),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_method_option_count("no_such_method", &n), ODESENS_ERR_UNKNOWN_METHOD);
  CHECK_MESSAGE(odesens_errmsg(NULL), "no_such_method");
  CHECK_STATUS(odesens_method_count(NULL), ODESENS_ERR_NULL_HANDLE);
}

/* ---- models ---- */

static void test_builtin_model_getters(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  int64_t nx = 0, np = 0;
  CHECK_OK(odesens_model_sizes(m, &nx, &np));
  CHECK(nx == 3 && np == 2);
  CHECK_OK(odesens_model_sizes(m, NULL, NULL));
  double p[2] = {0, 0};
  CHECK_OK(odesens_model_nominal_params(m, p, 2));
  CHECK(p[0] == 7.0 && p[1] == 15.0);
  const char* name = NULL;
  CHECK_OK(odesens_model_state_name(m, 2, &name));
  CHECK(name && strcmp(name, "x3") == 0);
  CHECK_OK(odesens_model_param_name(m, 1, &name));
  CHECK(name && strcmp(name, "p2") == 0);
  CHECK_STATUS(odesens_model_state_name(m, 3, &name), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_model_param_name(m, -1, &name), ODESENS_ERR_INVALID_ARGUMENT);
  /* Built-ins are finished models. */
  CHECK_STATUS(odesens_model_set_jac_x(m, chua_jac_x), ODESENS_ERR_UNSUPPORTED);
  CHECK_MESSAGE(odesens_errmsg(m), "only callback models can be changed");
  CHECK_STATUS(odesens_model_set_nominal_params(m, p, 2), ODESENS_ERR_UNSUPPORTED);
  odesens_model_free(m);

  CHECK_OK(odesens_model_from_builtin("builtin:linear:4", &m));
  CHECK_OK(odesens_model_sizes(m, &nx, NULL));
  CHECK(nx == 4);
  odesens_model_free(m);

  m = (odesens_model*)1; /* must be reset on failure */
  CHECK_STATUS(odesens_model_from_builtin("no_such_model", &m), ODESENS_ERR_UNKNOWN_MODEL);
  CHECK(m == NULL);
  CHECK_MESSAGE(odesens_errmsg(NULL), "no_such_model");
}

static void test_callback_model_defaults_and_names(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_create(2, 3, decay_rhs, NULL, &m));
  const char* name = NULL;
  CHECK_OK(odesens_model_state_name(m, 1, &name));
  CHECK(name && strcmp(name, "x2") == 0);
  CHECK_OK(odesens_model_param_name(m, 2, &name));
  CHECK(name && strcmp(name, "p3") == 0);
  double p[3] = {-1, -1, -1};
  CHECK_OK(odesens_model_nominal_params(m, p, 3));
  CHECK(p[0] == 0.0 && p[1] == 0.0 && p[2] == 0.0);

  CHECK_OK(odesens_model_set_name(m, "decay"));
  CHECK_OK(odesens_model_set_state_name(m, 0, "A"));
  CHECK_OK(odesens_model_set_param_name(m, 2, "amount"));
  CHECK_OK(odesens_model_state_name(m, 0, &name));
  CHECK(name && strcmp(name, "A") == 0);
  CHECK_OK(odesens_model_param_name(m, 2, &name));
  CHECK(name && strcmp(name, "amount") == 0);
  const double nominal[3] = {1.0, 2.0, 3.0};
  CHECK_OK(odesens_model_set_nominal_params(m, nominal, 3));
  CHECK_OK(odesens_model_nominal_params(m, p, 3));
  CHECK(p[0] == 1.0 && p[1] == 2.0 && p[2] == 3.0);
  CHECK_STATUS(odesens_model_set_state_name(m, 2, "C"), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_model_set_param_name(m, 0, NULL), ODESENS_ERR_NULL_HANDLE);
  odesens_model_free(m);
}

/* S, X and the gradient of a callback Chua against the built-in, for every
 * method: the same equations in the same order give the same numbers. */
static void test_callback_chua_matches_builtin_for_every_method(void) {
  odesens_model* builtin = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &builtin));
  odesens_model* callbacks = chua_callback_model(1, NULL);
  CHECK(callbacks != NULL);
  int64_t n_methods = 0;
  CHECK_OK(odesens_method_count(&n_methods));
  for (int64_t i = 0; i < n_methods; ++i) {
    const char* method = NULL;
    CHECK_OK(odesens_method_id(i, &method));
    odesens_solver* a = make_solver(builtin, method, chua_times, CHUA_NT, 1e-10, 1e-12);
    odesens_solver* b = make_solver(callbacks, method, chua_times, CHUA_NT, 1e-10, 1e-12);
    if (strcmp(method, "odesd") == 0) {
      /* odesd needs the model's second derivatives, which callback models
       * lack: refused with a message naming them. */
      odesens_result* r = NULL;
      CHECK_STATUS(odesens_solve(b, &r), ODESENS_ERR_UNSUPPORTED);
      CHECK(strstr(odesens_errmsg(b), "second derivatives") != NULL);
      odesens_result* ra = solve_ok(a);
      odesens_result_free(ra);
      odesens_solver_free(a);
      odesens_solver_free(b);
      continue;
    }
    if (strncmp(method, "bounds_", 7) == 0) {
      /* bounds_fsa and bounds_asa evaluate the model's expressions over a
       * box: neither a
       * compiled built-in nor callbacks have them (test_capi_bounds). */
      odesens_result* r = NULL;
      CHECK_STATUS(odesens_solve(a, &r), ODESENS_ERR_UNSUPPORTED);
      CHECK(strstr(odesens_errmsg(a), "the model's expressions") != NULL);
      CHECK_STATUS(odesens_solve(b, &r), ODESENS_ERR_UNSUPPORTED);
      odesens_solver_free(a);
      odesens_solver_free(b);
      continue;
    }
    odesens_result* ra = solve_ok(a);
    odesens_result* rb = solve_ok(b);
    if (ra && rb) {
      int64_t na = 0, nb = 0, nsa = 0, nsb = 0, nga = 0, ngb = 0;
      CHECK_OK(odesens_result_sizes(ra, NULL, NULL, NULL, &nsa, &nga));
      CHECK_OK(odesens_result_sizes(rb, NULL, NULL, NULL, &nsb, &ngb));
      CHECK(nsa == nsb && nsa >= 1 && nga == ngb);
      double* xa = copy_array(ra, ODESENS_ARRAY_X, &na);
      double* xb = copy_array(rb, ODESENS_ARRAY_X, &nb);
      CHECK(na == 3 * CHUA_NT && nb == na);
      CHECK_CLOSE(xb, xa, na, 1e-8);
      double* sa = copy_array(ra, ODESENS_ARRAY_S, &na);
      double* sb = copy_array(rb, ODESENS_ARRAY_S, &nb);
      CHECK(na == 6 * nsa && nb == na);
      CHECK_CLOSE(sb, sa, na, 1e-8);
      if (nga > 0) {
        double* ga = copy_array(ra, ODESENS_ARRAY_GRADIENT, &na);
        double* gb = copy_array(rb, ODESENS_ARRAY_GRADIENT, &nb);
        CHECK(na == 2 && nb == 2);
        CHECK_CLOSE(gb, ga, na, 1e-8);
        free(ga);
        free(gb);
      }
      free(xa); free(xb); free(sa); free(sb);
    }
    odesens_result_free(ra);
    odesens_result_free(rb);
    odesens_solver_free(a);
    odesens_solver_free(b);
  }
  odesens_model_free(builtin);
  odesens_model_free(callbacks);
}

/* Without Jacobians the library differentiates f itself: CVODES' difference
 * quotients (jacobian=auto) and the model's central differences
 * (jacobian=model) both reproduce the analytic S. At rtol 1e-8 (not
 * tighter: CVODES' quotients then become too noisy for its error test). */
static void test_finite_difference_jacobians_match_analytic(void) {
  odesens_model* exact = chua_callback_model(1, NULL);
  test_user user = test_user_make();
  odesens_model* differences = chua_callback_model(0, &user);
  odesens_solver* ref = make_solver(exact, "cvodes_fsa", chua_times, CHUA_NT, 1e-10, 1e-12);
  odesens_result* rref = solve_ok(ref);
  const char* sources[] = {"auto", "model"};
  for (int k = 0; k < 2; ++k) {
    odesens_solver* s = make_solver(differences, "cvodes_fsa", chua_times, CHUA_NT, 1e-8, 1e-10);
    CHECK_OK(odesens_solver_set_option_string(s, "jacobian", sources[k]));
    odesens_result* r = solve_ok(s);
    if (r && rref) {
      int64_t n = 0, nref = 0;
      double* sref = copy_array(rref, ODESENS_ARRAY_S, &nref);
      double* sfd = copy_array(r, ODESENS_ARRAY_S, &n);
      CHECK(n == nref);
      CHECK_CLOSE(sfd, sref, n, 1e-6);
      free(sref);
      free(sfd);
    }
    odesens_result_free(r);
    odesens_solver_free(s);
  }
  CHECK(user.calls[CB_F] > 0 && user.calls[CB_JAC_X] == 0 && user.calls[CB_JAC_P] == 0);
  odesens_result_free(rref);
  odesens_solver_free(ref);
  odesens_model_free(exact);
  odesens_model_free(differences);
}

static odesens_model* decay_model(test_user* user) {
  static const int64_t col_ptr[3] = {0, 1, 2};
  static const int64_t row_idx[2] = {0, 1};
  const double nominal[3] = {0.7, 1.3, 2.0};
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_create(2, 3, decay_rhs, user, &m));
  CHECK_OK(odesens_model_set_nominal_params(m, nominal, 3));
  CHECK_OK(odesens_model_set_sparsity(m, 2, col_ptr, row_idx));
  CHECK_OK(odesens_model_set_jac_x_sparse(m, decay_jac_values));
  CHECK_OK(odesens_model_set_jac_x(m, decay_jac_x));
  CHECK_OK(odesens_model_set_jac_p(m, decay_jac_p));
  CHECK_OK(odesens_model_set_jvp(m, decay_jvp));
  CHECK_OK(odesens_model_set_vjp(m, decay_vjp));
  CHECK_OK(odesens_model_set_x0_fn(m, decay_x0));
  CHECK_OK(odesens_model_set_dx0dp_fn(m, decay_dx0dp));
  return m;
}

static const double decay_times[] = {0.0, 0.5, 1.0, 2.0};
enum { DECAY_NT = 4 };

/* Forward S of the decay model through the dense and the sparse (KLU)
 * linear solver, each with the user's Jacobian in that form. */
static void test_decay_forward_matches_exact_solution(void) {
  const double p[3] = {0.7, 1.3, 2.0};
  const char* solvers[] = {"dense", "klu"};
  for (int k = 0; k < 2; ++k) {
    test_user user = test_user_make();
    odesens_model* m = decay_model(&user);
    odesens_solver* s = make_solver(m, "cvodes_fsa", decay_times, DECAY_NT, 1e-10, 1e-12);
    CHECK_OK(odesens_solver_set_option_string(s, "linear_solver", solvers[k]));
    odesens_result* r = solve_ok(s);
    if (r) {
      int64_t n = 0;
      double* x = copy_array(r, ODESENS_ARRAY_X, &n);
      double* S = copy_array(r, ODESENS_ARRAY_S, &n);
      CHECK(n == 6 * DECAY_NT);
      for (int t = 0; t < DECAY_NT; ++t) {
        double xe[2], se[6];
        decay_exact(p, decay_times[t], xe, se);
        CHECK_CLOSE(x + 2 * t, xe, 2, 1e-7);
        CHECK_CLOSE(S + 6 * t, se, 6, 1e-7);
      }
      free(x);
      free(S);
    }
    CHECK(user.calls[CB_X0] >= 1 && user.calls[CB_DX0] >= 1 && user.calls[CB_JVP] > 0);
    CHECK(user.calls[k == 0 ? CB_JAC_X : CB_JAC_SPARSE] > 0);
    odesens_result_free(r);
    odesens_solver_free(s);
    odesens_model_free(m);
  }
}

/* The adjoint gradient of G = x1(0.5) + x2(2) through the user's vjp. */
static void test_decay_adjoint_gradient_matches_exact_solution(void) {
  const double p[3] = {0.7, 1.3, 2.0};
  test_user user = test_user_make();
  odesens_model* m = decay_model(&user);
  odesens_solver* s = make_solver(m, "cvodes_asa", decay_times, DECAY_NT, 1e-10, 1e-12);
  const double w[2 * DECAY_NT] = {0, 0, 1, 0, 0, 0, 0, 1};
  CHECK_OK(odesens_solver_set_adjoint_weights(s, w, 2 * DECAY_NT));
  odesens_result* r = solve_ok(s);
  if (r) {
    double xa[2], sa[6], xb[2], sb[6], expected[3], g[3];
    decay_exact(p, 0.5, xa, sa);
    decay_exact(p, 2.0, xb, sb);
    for (int j = 0; j < 3; ++j) expected[j] = sa[0 + 2 * j] + sb[1 + 2 * j];
    CHECK_OK(odesens_result_gradient(r, g, 3));
    CHECK_CLOSE(g, expected, 3, 1e-7);
    /* S at the final time, one backward problem per state. */
    double S[6], st = 0;
    CHECK_OK(odesens_result_s(r, S, 6));
    CHECK_OK(odesens_result_s_times(r, &st, 1));
    CHECK(st == 2.0);
    CHECK_CLOSE(S, sb, 6, 1e-7);
  }
  CHECK(user.calls[CB_VJP] > 0);
  odesens_result_free(r);

  /* Back to the default objective G = sum_i x_i(T). */
  CHECK_OK(odesens_solver_set_adjoint_weights(s, NULL, 0));
  CHECK_OK(odesens_solver_set_option_int(s, "final_sensitivity", 0));
  r = solve_ok(s);
  if (r) {
    double x[2], se[6], expected[3], g[3];
    decay_exact(p, 2.0, x, se);
    for (int j = 0; j < 3; ++j) expected[j] = se[0 + 2 * j] + se[1 + 2 * j];
    CHECK_OK(odesens_result_gradient(r, g, 3));
    CHECK_CLOSE(g, expected, 3, 1e-7);
    double S[6];
    int64_t ns = -1;
    CHECK_OK(odesens_result_sizes(r, NULL, NULL, NULL, &ns, NULL));
    CHECK(ns == 0);
    CHECK_STATUS(odesens_result_s(r, S, 6), ODESENS_ERR_UNSUPPORTED);
  }
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* Without a dx0/dp callback, dx0/dp comes from differences of x0(p); with
 * an initial-state override, x0 is fixed and dx0/dp = 0. */
static void test_initial_state_sources(void) {
  const double p[3] = {0.7, 1.3, 2.0};
  test_user user = test_user_make();
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_create(2, 3, decay_rhs, &user, &m));
  CHECK_OK(odesens_model_set_nominal_params(m, p, 3));
  CHECK_OK(odesens_model_set_x0_fn(m, decay_x0));
  odesens_solver* s = make_solver(m, "cvodes_fsa", decay_times, DECAY_NT, 1e-10, 1e-12);
  odesens_result* r = solve_ok(s);
  double S[6 * DECAY_NT], x[2], se[6];
  if (r) {
    CHECK_OK(odesens_result_s(r, S, 6 * DECAY_NT));
    decay_exact(p, 2.0, x, se);
    CHECK_CLOSE(S + 6 * 3, se, 6, 1e-6);
  }
  odesens_result_free(r);

  const double fixed[2] = {1.0, 1.0};
  CHECK_OK(odesens_solver_set_initial_state(s, fixed, 2));
  r = solve_ok(s);
  if (r) {
    double xs[2 * DECAY_NT];
    CHECK_OK(odesens_result_x(r, xs, 2 * DECAY_NT));
    CHECK(xs[0] == 1.0 && xs[1] == 1.0);
    CHECK_OK(odesens_result_s(r, S, 6 * DECAY_NT));
    CHECK(S[4] == 0.0 && S[5] == 0.0); /* no dependence on p3 at t0 */
    CHECK(fabs(S[6 * 3 + 4]) < 1e-12);
  }
  odesens_result_free(r);
  CHECK_OK(odesens_solver_set_initial_state(s, NULL, 0)); /* back to x0(p) */
  r = solve_ok(s);
  if (r) {
    double xs[2 * DECAY_NT];
    CHECK_OK(odesens_result_x(r, xs, 2 * DECAY_NT));
    CHECK(xs[0] == 2.0 && xs[1] == 4.0);
  }
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* Parameters, t0, vector atol and max_steps reach the solve. */
static void test_solver_settings_reach_the_solve(void) {
  odesens_model* m = decay_model(NULL);
  odesens_solver* s = make_solver(m, "cvodes_fsa", decay_times + 1, DECAY_NT - 1, 1e-10, 1e-12);
  const double p[3] = {0.2, 0.4, 1.5};
  const double atol[2] = {1e-12, 1e-12};
  CHECK_OK(odesens_solver_set_params(s, p, 3));
  CHECK_OK(odesens_solver_set_t0(s, 0.25));
  CHECK_OK(odesens_solver_set_atol_vector(s, atol, 2));
  CHECK_OK(odesens_solver_set_max_steps(s, 5000));
  odesens_result* r = solve_ok(s);
  if (r) {
    double x[2 * 3], xe[2], se[6];
    CHECK_OK(odesens_result_x(r, x, 6));
    decay_exact(p, 2.0 - 0.25, xe, se);
    CHECK_CLOSE(x + 4, xe, 2, 1e-8);
  }
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* Solves of one solver handle: a change of parameters, initial state or
 * output times reuses its prepared session, and its results are bit for bit
 * those of a fresh solver; any other change (an option, tolerances)
 * prepares anew. */
static int same_arrays(const odesens_result* a, const odesens_result* b) {
  const int64_t which[] = {ODESENS_ARRAY_X, ODESENS_ARRAY_S};
  for (int w = 0; w < 2; ++w) {
    const double *va = NULL, *vb = NULL;
    int64_t na = -1, nb = -2;
    if (odesens_result_data(a, which[w], &va, &na) != ODESENS_OK ||
        odesens_result_data(b, which[w], &vb, &nb) != ODESENS_OK || na != nb ||
        memcmp(va, vb, (size_t)na * sizeof(double)) != 0)
      return 0;
  }
  return 1;
}

static odesens_result* fresh_solve(const odesens_model* m, const double* p, const char* corrector,
                                   double rtol) {
  odesens_solver* s = make_solver(m, "cvodes_fsa", chua_times, CHUA_NT, rtol, rtol * 1e-2);
  CHECK_OK(odesens_solver_set_params(s, p, 2));
  if (corrector) CHECK_OK(odesens_set_option_string(s, "corrector", corrector));
  odesens_result* r = solve_ok(s);
  odesens_solver_free(s);
  return r;
}

static void test_repeated_solves_match_fresh_solvers(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  double p0[2], p1[2];
  CHECK_OK(odesens_model_nominal_params(m, p0, 2));
  for (int j = 0; j < 2; ++j) p1[j] = p0[j] * (1.0 + 0.03 * (j + 1));
  odesens_solver* s = make_solver(m, "cvodes_fsa", chua_times, CHUA_NT, 1e-8, 1e-10);
  CHECK_OK(odesens_solver_set_params(s, p0, 2));
  odesens_result* first = solve_ok(s);
  CHECK_OK(odesens_solver_set_params(s, p1, 2));
  odesens_result* other = solve_ok(s);
  odesens_result* other_fresh = fresh_solve(m, p1, NULL, 1e-8);
  CHECK(same_arrays(other, other_fresh));
  CHECK(!same_arrays(other, first));
  CHECK_OK(odesens_solver_set_params(s, p0, 2));
  odesens_result* again = solve_ok(s);
  CHECK(same_arrays(again, first));
  CHECK_OK(odesens_set_option_string(s, "corrector", "staggered"));
  odesens_result* staggered = solve_ok(s);
  odesens_result* staggered_fresh = fresh_solve(m, p0, "staggered", 1e-8);
  CHECK(same_arrays(staggered, staggered_fresh));
  CHECK_OK(odesens_solver_set_tolerances(s, 1e-6, 1e-8));
  odesens_result* looser = solve_ok(s);
  odesens_result* looser_fresh = fresh_solve(m, p0, "staggered", 1e-6);
  CHECK(same_arrays(looser, looser_fresh));
  odesens_result* all[] = {first, other, other_fresh, again, staggered, staggered_fresh, looser,
                           looser_fresh};
  for (int i = 0; i < 8; ++i) odesens_result_free(all[i]);
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* ---- the automatic method ---- */

/* "auto" solves with a method it names and says why; its own options are
 * set like any method's, the options of the methods it may choose are not. */
static void test_automatic_method(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  odesens_solver* s = make_solver(m, ODESENS_METHOD_AUTO, chua_times, CHUA_NT, 1e-8, 1e-10);
  CHECK_OK(odesens_solver_set_option_string(s, "goal", "s"));
  CHECK_STATUS(odesens_solver_set_option_int(s, "order", 5), ODESENS_ERR_UNKNOWN_OPTION);
  odesens_result* r = solve_ok(s);
  if (r) {
    const char* method = NULL;
    const char* reason = NULL;
    CHECK_OK(odesens_result_method(r, &method));
    CHECK(method && strcmp(method, "auto") != 0 && strlen(method) > 0);
    CHECK_OK(odesens_result_method_choice(r, &reason));
    CHECK(reason && strstr(reason, "S at every output time") != NULL);
    odesens_result_free(r);
  }
  odesens_solver_free(s);
  /* A named method leaves the reason empty. */
  odesens_solver* named = make_solver(m, "cvodes_fsa", chua_times, CHUA_NT, 1e-8, 1e-10);
  odesens_result* plain = solve_ok(named);
  if (plain) {
    const char* reason = NULL;
    CHECK_OK(odesens_result_method_choice(plain, &reason));
    CHECK(reason && reason[0] == '\0');
    odesens_result_free(plain);
  }
  CHECK_STATUS(odesens_result_method_choice(NULL, NULL), ODESENS_ERR_NULL_HANDLE);
  odesens_solver_free(named);
  odesens_model_free(m);
}

/* ---- results ---- */

static void test_result_getters(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  odesens_solver* s = make_solver(m, "cvodes_fsa", chua_times, CHUA_NT, 1e-8, 1e-10);
  odesens_result* r = solve_ok(s);
  if (!r) return;
  int64_t nt = 0, nx = 0, np = 0, ns = 0, ng = -1, n = 0;
  CHECK_OK(odesens_result_sizes(r, &nt, &nx, &np, &ns, &ng));
  CHECK(nt == CHUA_NT && nx == 3 && np == 2 && ns == CHUA_NT && ng == 2);
  CHECK_OK(odesens_result_sizes(r, NULL, NULL, NULL, NULL, NULL));
  const char* method = NULL;
  CHECK_OK(odesens_result_method(r, &method));
  CHECK(method && strcmp(method, "cvodes_fsa") == 0);

  double* times = copy_array(r, ODESENS_ARRAY_TIMES, &n);
  CHECK(n == CHUA_NT && memcmp(times, chua_times, sizeof chua_times) == 0);
  free(times);
  double* s_times = copy_array(r, ODESENS_ARRAY_S_TIMES, &n);
  CHECK(n == CHUA_NT && memcmp(s_times, chua_times, sizeof chua_times) == 0);
  free(s_times);
  /* A longer buffer is fine; only the data is written. */
  double x[3 * CHUA_NT + 1];
  x[3 * CHUA_NT] = -42.0;
  CHECK_OK(odesens_result_x(r, x, 3 * CHUA_NT + 1));
  CHECK(x[3 * CHUA_NT] == -42.0);

  double stats[ODESENS_STAT_COUNT];
  CHECK_OK(odesens_result_stats(r, stats, ODESENS_STAT_COUNT));
  CHECK(stats[ODESENS_STAT_STEPS] > 0 && stats[ODESENS_STAT_RHS_EVALS] > 0);
  CHECK(stats[ODESENS_STAT_JAC_EVALS] > 0 && stats[ODESENS_STAT_LINEAR_SETUPS] > 0);
  CHECK(stats[ODESENS_STAT_ERROR_TEST_FAILURES] >= 0 && stats[ODESENS_STAT_WALL_SECONDS] >= 0);
  int64_t count = 0;
  CHECK_OK(odesens_result_stat_count(r, &count));
  CHECK(count > ODESENS_STAT_COUNT); /* cvodes_fsa adds its own */
  for (int64_t i = 0; i < count; ++i) {
    const char* name = NULL;
    double value = -1;
    CHECK_OK(odesens_result_stat_name(r, i, &name));
    CHECK_OK(odesens_result_stat(r, name, &value));
    if (i < ODESENS_STAT_COUNT) CHECK(value == stats[i]);
  }
  double v = 0;
  CHECK_OK(odesens_result_stat(r, "sens_rhs_evals", &v));
  CHECK(v > 0);
  CHECK_STATUS(odesens_result_stat(r, "no_such_stat", &v), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(r), "no_such_stat");
  CHECK_STATUS(odesens_result_stat_name(r, count, &method), ODESENS_ERR_INVALID_ARGUMENT);

  /* A forward method gives the default objective's gradient, sum_i x_i(T),
   * through S: the column sums of S(T). */
  double g[2], s_all[CHUA_NT * 3 * 2];
  const double* view = NULL;
  CHECK_OK(odesens_result_gradient(r, g, 2));
  CHECK_OK(odesens_result_s(r, s_all, CHUA_NT * 3 * 2));
  for (int j = 0; j < 2; ++j) {
    const double* s_final = s_all + (CHUA_NT - 1) * 6 + j * 3;
    const double sum = s_final[0] + s_final[1] + s_final[2];
    CHECK(fabs(g[j] - sum) <= 1e-12 * (fabs(sum) + 1.0));
  }
  CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_GRADIENT, &view, &n));
  CHECK(n == 2 && view && view[0] == g[0] && view[1] == g[1]);
  CHECK_STATUS(odesens_result_data(r, 99, &view, &n), ODESENS_ERR_INVALID_ARGUMENT);

  /* The result outlives its solver and model. */
  odesens_solver_free(s);
  odesens_model_free(m);
  CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_S, &view, &n));
  CHECK(n == 6 * CHUA_NT && view != NULL && isfinite(view[n - 1]));
  odesens_result_free(r);
}

/* The table of arrays: its order is odesens_result_array's, every array's
 * extents multiply to its length, and the names, documentation and axes are
 * those of the header. */
static void test_result_array_table(void) {
  static const char* const names[] = {
      "times",  "x",      "S_times", "S",      "gradient",      "gradient_x0",  "objectives",
      "SR",     "x_coef", "x_rem",   "x_hull", "x_shape",       "s_coef",       "s_rem",
      "s_hull", "gradient_coef",     "gradient_rem",   "gradient_hull", "box_mid", "box_rad",
      "box_lower", "box_upper"};
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  odesens_solver* s = make_solver(m, "cvodes_fsa", chua_times, CHUA_NT, 1e-8, 1e-10);
  odesens_result* r = solve_ok(s);
  odesens_solver_free(s);
  odesens_model_free(m);
  if (!r) return;
  int64_t count = 0;
  CHECK_OK(odesens_result_array_count(r, &count));
  CHECK(count == ODESENS_ARRAY_BOX_UPPER + 1);
  CHECK(count == (int64_t)(sizeof names / sizeof names[0]));
  for (int64_t a = 0; a < count && a < ODESENS_ARRAY_BOX_UPPER + 1; ++a) {
    const char *name = NULL, *doc = NULL;
    int64_t index = -1, ndim = 0, extents[4] = {0, 0, 0, 0};
    CHECK_OK(odesens_result_array_name(r, a, &name, &doc));
    CHECK(name && strcmp(name, names[a]) == 0 && doc && doc[0] != '\0');
    CHECK_OK(odesens_result_array_index(r, names[a], &index));
    CHECK(index == a);
    CHECK_OK(odesens_result_array_dims(r, a, &ndim, NULL, 0));
    CHECK(ndim >= 1 && ndim <= 4);
    CHECK_OK(odesens_result_array_dims(r, a, &ndim, extents, 4));
    int64_t product = 1;
    for (int64_t d = 0; d < ndim; ++d) product *= extents[d];
    const double* data = NULL;
    int64_t len = -1;
    if (odesens_result_data(r, a, &data, &len) == ODESENS_OK)
      CHECK(len == product);
    else
      CHECK(product == 0); /* not computed: extent 0 along its slowest axis */
  }
  /* x: states fastest, then times; S: states, parameters, then S_times. */
  int64_t ndim = 0, extents[3] = {0, 0, 0};
  const char* axis = NULL;
  CHECK_OK(odesens_result_array_dims(r, ODESENS_ARRAY_X, &ndim, extents, 3));
  CHECK(ndim == 2 && extents[0] == 3 && extents[1] == CHUA_NT);
  CHECK_OK(odesens_result_array_axis(r, ODESENS_ARRAY_X, 0, &axis));
  CHECK(axis && strcmp(axis, "state") == 0);
  CHECK_OK(odesens_result_array_axis(r, ODESENS_ARRAY_X, 1, &axis));
  CHECK(axis && strcmp(axis, "time") == 0);
  CHECK_OK(odesens_result_array_dims(r, ODESENS_ARRAY_S, &ndim, extents, 3));
  CHECK(ndim == 3 && extents[0] == 3 && extents[1] == 2 && extents[2] == CHUA_NT);
  CHECK_OK(odesens_result_array_axis(r, ODESENS_ARRAY_S, 1, &axis));
  CHECK(axis && strcmp(axis, "parameter") == 0);
  /* Wrong indices, names and buffers. */
  int64_t index = -1;
  CHECK_STATUS(odesens_result_array_index(r, "s", &index), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(r), "S_times, S");
  CHECK_STATUS(odesens_result_array_index(r, NULL, &index), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_result_array_name(r, count, &axis, NULL), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_result_array_axis(r, ODESENS_ARRAY_X, 2, &axis),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_result_array_dims(r, ODESENS_ARRAY_S, &ndim, extents, 2),
               ODESENS_ERR_BUFFER_TOO_SMALL);
  CHECK_STATUS(odesens_result_array_dims(r, -1, &ndim, extents, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_result_array_count(NULL, &count), ODESENS_ERR_NULL_HANDLE);
  odesens_result_free(r);
}

/* ---- lifetimes ---- */

/* A result says what it distrusts: exp with J_p frozen over steps of a
 * stiff model whose J_p grows (fast modes lag it) warns; J_p linear (the
 * default) does not. Without error control (error_control=off): with it the
 * estimate of S's error warns too (tests/methods/test_pbs.cpp). */
static void test_result_warnings(void) {
  static const char* text =
      "param k = 1e8\nstate x = 1\nstate y = 0\n"
      "dx/dt = -k*x + y\ndy/dt = k*x - 1e-8*y\n";
  static const double times[3] = {0.0, 50.0, 100.0};
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(text, &m));
  const char* frozen[2] = {"linear", "frozen"};
  for (int k = 0; k < 2; ++k) {
    odesens_solver* s = make_solver(m, "exp", times, 3, 1e-6, 1e-30);
    CHECK_OK(odesens_solver_set_option_string(s, "exp_jp", frozen[k]));
    CHECK_OK(odesens_solver_set_option_string(s, "error_control", "off"));
    odesens_result* r = solve_ok(s);
    if (!r) {
      odesens_solver_free(s);
      continue;
    }
    int64_t count = -1;
    CHECK_OK(odesens_result_warning_count(r, &count));
    CHECK(count == k);
    const char* warning = NULL;
    if (k == 1) {
      CHECK_OK(odesens_result_warning(r, 0, &warning));
      CHECK(warning && strstr(warning, "exp_jp=frozen") != NULL);
    }
    CHECK_STATUS(odesens_result_warning(r, count, &warning), ODESENS_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(odesens_result_warning(r, -1, &warning), ODESENS_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(odesens_result_warning(r, 0, NULL), ODESENS_ERR_NULL_HANDLE);
    CHECK_STATUS(odesens_result_warning_count(NULL, &count), ODESENS_ERR_NULL_HANDLE);
    odesens_result_free(r);
    odesens_solver_free(s);
  }
  odesens_model_free(m);
}

static void test_model_lifetime_and_snapshots(void) {
  odesens_model* m = decay_model(NULL);
  odesens_solver* before = make_solver(m, "cvodes_fsa", decay_times, DECAY_NT, 1e-10, 1e-12);
  const double changed[3] = {0.7, 1.3, 5.0};
  CHECK_OK(odesens_model_set_nominal_params(m, changed, 3));
  odesens_solver* after = make_solver(m, "cvodes_fsa", decay_times, DECAY_NT, 1e-10, 1e-12);
  odesens_model_free(m); /* the solvers keep what they need */
  odesens_result* rb = solve_ok(before);
  odesens_result* ra = solve_ok(after);
  if (rb && ra) {
    double xb[2 * DECAY_NT], xa[2 * DECAY_NT];
    CHECK_OK(odesens_result_x(rb, xb, 2 * DECAY_NT));
    CHECK_OK(odesens_result_x(ra, xa, 2 * DECAY_NT));
    CHECK(xb[0] == 2.0 && xa[0] == 5.0); /* x0 = p3 at the time of creation */
  }
  odesens_result_free(rb);
  odesens_result_free(ra);
  odesens_solver_free(before);
  odesens_solver_free(after);

  /* Freeing NULL does nothing. */
  odesens_model_free(NULL);
  odesens_solver_free(NULL);
  odesens_result_free(NULL);
}

/* ---- error paths ---- */

static void test_null_handles_are_refused(void) {
  double buf[4];
  int64_t n = 0;
  const char* text = NULL;
  odesens_model* m = NULL;
  odesens_solver* s = NULL;
  odesens_result* r = NULL;
  CHECK_STATUS(odesens_model_create(2, 3, decay_rhs, NULL, NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_model_create(2, 3, NULL, NULL, &m), ODESENS_ERR_NULL_HANDLE);
  CHECK(m == NULL);
  CHECK_STATUS(odesens_model_from_builtin(NULL, &m), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_model_set_jac_x(NULL, decay_jac_x), ODESENS_ERR_NULL_HANDLE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "odesens_model_set_jac_x");
  CHECK_MESSAGE(odesens_errmsg(NULL), "model handle is NULL");
  CHECK_STATUS(odesens_model_sizes(NULL, &n, &n), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_model_nominal_params(NULL, buf, 4), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_create(NULL, "cvodes_fsa", &s), ODESENS_ERR_NULL_HANDLE);
  CHECK(s == NULL);
  CHECK_STATUS(odesens_solver_set_params(NULL, buf, 3), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_set_output_times(NULL, buf, 1), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_set_option_string(NULL, "lmm", "bdf"), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solve(NULL, &r), ODESENS_ERR_NULL_HANDLE);
  CHECK(r == NULL);
  CHECK_STATUS(odesens_result_sizes(NULL, &n, NULL, NULL, NULL, NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_result_s(NULL, buf, 4), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_result_method(NULL, &text), ODESENS_ERR_NULL_HANDLE);

  /* NULL pointers where outputs or strings are required. */
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  CHECK_STATUS(odesens_solver_create(m, NULL, &s), ODESENS_ERR_NULL_HANDLE);
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  CHECK_STATUS(odesens_solver_set_params(s, NULL, 2), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_set_option_string(s, NULL, "bdf"), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_solver_set_option_string(s, "lmm", NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_OK(odesens_solver_set_output_times(s, chua_times, 1));
  CHECK_STATUS(odesens_solve(s, NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_OK(odesens_solve(s, &r));
  CHECK_STATUS(odesens_result_s(r, NULL, 6), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_result_data(r, ODESENS_ARRAY_X, NULL, &n), ODESENS_ERR_NULL_HANDLE);

  /* A handle of the wrong kind, as Fortran or Julia could pass it. */
  CHECK_STATUS(odesens_model_sizes((const odesens_model*)(const void*)r, &n, &n),
               ODESENS_ERR_NULL_HANDLE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "is a result, not a model");
  CHECK_STATUS(odesens_result_x((const odesens_result*)(const void*)s, buf, 4),
               ODESENS_ERR_NULL_HANDLE);
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void test_wrong_sizes_are_refused(void) {
  odesens_model* m = NULL;
  CHECK_STATUS(odesens_model_create(0, 1, decay_rhs, NULL, &m), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(NULL), "nx must be from 1 to 100000000 (got 0)");
  CHECK_STATUS(odesens_model_create(2, -1, decay_rhs, NULL, &m), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_OK(odesens_model_create(2, 3, decay_rhs, NULL, &m));
  const double v[4] = {1, 2, 3, 4};
  CHECK_STATUS(odesens_model_set_x0(m, v, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(m), "x0 has 3 entries, expected 2");
  CHECK_STATUS(odesens_model_set_nominal_params(m, v, 2), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_model_set_x0(m, v, -1), ODESENS_ERR_INVALID_ARGUMENT);
  /* Sparsity: a pointer past nnz, an unsorted column, a row out of range. */
  const int64_t bad_ptr[3] = {0, 1, 3}, rows[2] = {0, 1}, unsorted[3] = {1, 0, 1},
                out_of_range[2] = {0, 2}, ptr3[3] = {0, 2, 3};
  CHECK_STATUS(odesens_model_set_sparsity(m, 2, bad_ptr, rows), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_model_set_sparsity(m, 3, ptr3, unsorted), ODESENS_ERR_INVALID_ARGUMENT);
  const int64_t ptr2[3] = {0, 1, 2};
  CHECK_STATUS(odesens_model_set_sparsity(m, 2, ptr2, out_of_range), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_model_set_jac_x_sparse(m, decay_jac_values), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(m), "odesens_model_set_sparsity first");
  CHECK_OK(odesens_model_set_sparsity(m, 2, ptr2, rows));
  CHECK_OK(odesens_model_set_jac_x_sparse(m, decay_jac_values));
  CHECK_OK(odesens_model_set_sparsity(m, 0, NULL, NULL)); /* removes both */

  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  CHECK_STATUS(odesens_solver_set_params(s, v, 2), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "parameter vector has 2 entries, expected 3");
  CHECK_STATUS(odesens_solver_set_initial_state(s, v, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_atol_vector(s, v, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_adjoint_weights(s, v, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_output_times(s, v, 0), ODESENS_ERR_INVALID_ARGUMENT);
  const double unordered[3] = {1.0, 3.0, 2.0};
  CHECK_STATUS(odesens_solver_set_output_times(s, unordered, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "strictly increasing");
  CHECK_STATUS(odesens_solver_set_tolerances(s, 0.0, 1e-8), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_tolerances(s, 1e-6, -1.0), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_max_steps(s, 0), ODESENS_ERR_INVALID_ARGUMENT);

  /* Weights given before the output times and matching none of their
   * number: found at solve. */
  CHECK_OK(odesens_solver_set_adjoint_weights(s, v, 2));
  CHECK_OK(odesens_solver_set_output_times(s, v, 2));
  odesens_result* r = NULL;
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "adjoint weights");
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void test_short_buffers_are_refused(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  double p[2] = {-1, -1};
  CHECK_STATUS(odesens_model_nominal_params(m, p, 1), ODESENS_ERR_BUFFER_TOO_SMALL);
  CHECK(p[0] == -1); /* nothing written */
  odesens_solver* s = make_solver(m, "cvodes_asa", chua_times, CHUA_NT, 1e-8, 1e-10);
  odesens_result* r = solve_ok(s);
  if (r) {
    double buf[64];
    buf[0] = -7.0;
    CHECK_STATUS(odesens_result_times(r, buf, CHUA_NT - 1), ODESENS_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(odesens_result_x(r, buf, 3 * CHUA_NT - 1), ODESENS_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(odesens_result_s(r, buf, 5), ODESENS_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(odesens_result_s_times(r, buf, 0), ODESENS_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(odesens_result_gradient(r, buf, 1), ODESENS_ERR_BUFFER_TOO_SMALL);
    CHECK_STATUS(odesens_result_stats(r, buf, ODESENS_STAT_COUNT - 1),
                 ODESENS_ERR_BUFFER_TOO_SMALL);
    CHECK_MESSAGE(odesens_errmsg(r), "6 needed");
    CHECK(buf[0] == -7.0);
    double v = 0;
    CHECK_OK(odesens_result_stat(r, "checkpoints", &v));
    CHECK_OK(odesens_result_stat(r, "backward_steps", &v));
    CHECK(v > 0);
  }
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void test_unknown_method_and_options_are_refused(void) {
  odesens_model* m = NULL;
  odesens_solver* s = (odesens_solver*)1;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  CHECK_STATUS(odesens_solver_create(m, "rk4_magic", &s), ODESENS_ERR_UNKNOWN_METHOD);
  CHECK(s == NULL);
  CHECK_MESSAGE(odesens_errmsg(NULL), "rk4_magic");
  CHECK_MESSAGE(odesens_errmsg(NULL), "cvodes_fsa"); /* lists what exists */

  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  CHECK_STATUS(odesens_solver_set_option_int(s, "no_such_option", 1), ODESENS_ERR_UNKNOWN_OPTION);
  CHECK_MESSAGE(odesens_errmsg(s), "no_such_option");
  CHECK_STATUS(odesens_solver_set_option_double(s, "lmm", 1.0), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "'lmm'");
  CHECK_STATUS(odesens_solver_set_option_string(s, "sens_error_control", "yes"),
               ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "sens_error_control");
  CHECK_STATUS(odesens_solver_set_option_double(s, "sens_error_control", 1.0),
               ODESENS_ERR_OPTION_TYPE);
  CHECK_STATUS(odesens_solver_set_option_string(s, "lmm", "euler"), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "bdf, adams");
  /* checkpoint_steps belongs to the adjoint method only. */
  CHECK_STATUS(odesens_solver_set_option_int(s, "checkpoint_steps", 10),
               ODESENS_ERR_UNKNOWN_OPTION);
  CHECK_OK(odesens_solver_set_option_string(s, "lmm", "adams"));
  CHECK_OK(odesens_solver_set_option_string(s, "corrector", "staggered"));
  CHECK_OK(odesens_solver_set_option_int(s, "sens_error_control", 0));
  CHECK_OK(odesens_solver_set_output_times(s, chua_times, CHUA_NT));
  odesens_result* r = solve_ok(s); /* the accepted options work */
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* The option setters' first names, odesens_set_option_*, are aliases of
 * odesens_solver_set_option_*: the same checks, statuses and messages (each
 * naming the function called), and the same options reach the solve. */
static odesens_solver* adjoint_solver_with_options(const odesens_model* m, int aliases) {
  odesens_solver* s = make_solver(m, "cvodes_asa", chua_times, CHUA_NT, 1e-6, 1e-8);
  if (aliases) {
    CHECK_OK(odesens_set_option_string(s, "lmm", "adams"));
    CHECK_OK(odesens_set_option_int(s, "final_sensitivity", 0));
    CHECK_OK(odesens_set_option_double(s, "rtol_adjoint", 1e-9));
  } else {
    CHECK_OK(odesens_solver_set_option_string(s, "lmm", "adams"));
    CHECK_OK(odesens_solver_set_option_int(s, "final_sensitivity", 0));
    CHECK_OK(odesens_solver_set_option_double(s, "rtol_adjoint", 1e-9));
  }
  return s;
}

static void test_option_setters_have_their_first_names_as_aliases(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  odesens_solver* s = make_solver(m, "cvodes_asa", chua_times, CHUA_NT, 1e-6, 1e-8);
  CHECK_STATUS(odesens_solver_set_option_int(s, "final_sensitivity", 2), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "odesens_solver_set_option_int: option 'final_sensitivity'");
  CHECK_MESSAGE(odesens_errmsg(s), "must be 0 or 1 (got 2)");
  CHECK_STATUS(odesens_set_option_int(s, "final_sensitivity", 2), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "odesens_set_option_int: option 'final_sensitivity'");
  CHECK_MESSAGE(odesens_errmsg(s), "must be 0 or 1 (got 2)");
  CHECK_STATUS(odesens_solver_set_option_double(s, "rtol_adjoint", 2.0), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "must be from 0 to 1 (got 2)");
  CHECK_STATUS(odesens_set_option_double(s, "rtol_adjoint", 2.0), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "odesens_set_option_double: option 'rtol_adjoint'");
  CHECK_STATUS(odesens_solver_set_option_string(s, "lmm", "euler"), ODESENS_ERR_OPTION_TYPE);
  CHECK_STATUS(odesens_set_option_string(s, "lmm", "euler"), ODESENS_ERR_OPTION_TYPE);
  CHECK_MESSAGE(odesens_errmsg(s), "odesens_set_option_string: option 'lmm'");
  CHECK_STATUS(odesens_set_option_string(s, "lmm", NULL), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_set_option_int(NULL, "lmm", 1), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_set_option_int(s, "no_such_option", 1), ODESENS_ERR_UNKNOWN_OPTION);
  odesens_solver_free(s);

  /* Set under either name, the options give the same solve: no S(T)
   * (final_sensitivity = 0) and the gradient bit for bit. */
  odesens_solver* by_alias = adjoint_solver_with_options(m, 1);
  odesens_solver* by_name = adjoint_solver_with_options(m, 0);
  odesens_result* a = solve_ok(by_alias);
  odesens_result* b = solve_ok(by_name);
  int64_t n_s_times = -1, n_gradient = 0;
  CHECK_OK(odesens_result_sizes(a, NULL, NULL, NULL, &n_s_times, &n_gradient));
  CHECK(n_s_times == 0);
  int64_t len_a = 0, len_b = 0;
  double* gradient_a = copy_array(a, ODESENS_ARRAY_GRADIENT, &len_a);
  double* gradient_b = copy_array(b, ODESENS_ARRAY_GRADIENT, &len_b);
  CHECK(len_a == n_gradient && len_b == len_a && len_a > 0);
  CHECK(memcmp(gradient_a, gradient_b, (size_t)len_a * sizeof(double)) == 0);
  free(gradient_a);
  free(gradient_b);
  odesens_result_free(a);
  odesens_result_free(b);
  odesens_solver_free(by_alias);
  odesens_solver_free(by_name);
  odesens_model_free(m);
}

static void test_callback_failures_name_the_callback(void) {
  struct {
    int callback;
    const char* name;
    const char* method;
  } cases[] = {{CB_F, "'f'", "cvodes_fsa"},
               {CB_JAC_X, "'jac_x'", "cvodes_fsa"},
               {CB_JAC_P, "'jac_p'", "cvodes_fsa"},
               {CB_JVP, "'jvp'", "cvodes_fsa"},
               {CB_VJP, "'vjp'", "cvodes_asa"},
               {CB_X0, "'x0 (initial_state)'", "cvodes_fsa"},
               {CB_DX0, "'dx0dp (initial_sensitivity)'", "cvodes_fsa"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    test_user user = test_user_make();
    user.fail = cases[k].callback;
    user.fail_after = 0.3;
    odesens_model* m = decay_model(&user);
    CHECK_OK(odesens_model_set_sparsity(m, 0, NULL, NULL)); /* dense path: jac_x */
    odesens_solver* s = make_solver(m, cases[k].method, decay_times, DECAY_NT, 1e-8, 1e-10);
    odesens_result* r = (odesens_result*)1;
    CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_CALLBACK_FAILED);
    CHECK(r == NULL);
    CHECK_MESSAGE(odesens_errmsg(s), cases[k].name);
    CHECK_MESSAGE(odesens_errmsg(s), "returned 3");
    odesens_solver_free(s);
    odesens_model_free(m);
  }
  /* The sparse Jacobian through KLU. */
  test_user user = test_user_make();
  user.fail = CB_JAC_SPARSE;
  odesens_model* m = decay_model(&user);
  odesens_solver* s = make_solver(m, "cvodes_fsa", decay_times, DECAY_NT, 1e-8, 1e-10);
  CHECK_OK(odesens_solver_set_option_string(s, "linear_solver", "klu"));
  odesens_result* r = NULL;
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_CALLBACK_FAILED);
  CHECK_MESSAGE(odesens_errmsg(s), "'jac_x_sparse'");
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* A model callback that calls back into the solver that is solving: a
 * nested odesens_solve on the same session broke the outer cvodes_fsa solve
 * ("CVodeGetDky failed"); it and setters are refused, the outer solve is
 * right, and another solver may solve from the callback. */
static odesens_solver* reentrant_solver = NULL;
static odesens_solver* reentrant_other = NULL;
static int reentrant_calls = 0, reentrant_inner = 12345, reentrant_setter = 12345,
           reentrant_other_status = 12345;

static int reentrant_rhs(double t, const double* x, const double* p, double* xdot, void* user) {
  (void)t;
  (void)user;
  xdot[0] = -p[0] * x[0];
  if (++reentrant_calls == 5) {
    odesens_result* r = NULL;
    reentrant_inner = odesens_solve(reentrant_solver, &r);
    odesens_result_free(r);
    reentrant_setter = odesens_solver_set_tolerances(reentrant_solver, 1e-3, 1e-3);
    r = NULL;
    reentrant_other_status = odesens_solve(reentrant_other, &r);
    odesens_result_free(r);
  }
  return 0;
}

static void test_a_solver_is_not_solved_from_its_own_callback(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_create(1, 1, reentrant_rhs, NULL, &m));
  const double p[1] = {0.5}, x0[1] = {1.0}, times[3] = {1.0, 2.0, 3.0};
  CHECK_OK(odesens_model_set_nominal_params(m, p, 1));
  CHECK_OK(odesens_model_set_x0(m, x0, 1));
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &reentrant_solver));
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &reentrant_other));
  CHECK_OK(odesens_solver_set_output_times(reentrant_solver, times, 3));
  CHECK_OK(odesens_solver_set_output_times(reentrant_other, times, 3));
  CHECK_OK(odesens_solver_set_tolerances(reentrant_solver, 1e-10, 1e-12));
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(reentrant_solver, &r));
  CHECK(reentrant_inner == ODESENS_ERR_INVALID_ARGUMENT);
  CHECK(reentrant_setter == ODESENS_ERR_INVALID_ARGUMENT);
  CHECK(reentrant_other_status == ODESENS_OK);
  double x[3] = {0, 0, 0};
  CHECK_OK(odesens_result_x(r, x, 3));
  CHECK(fabs(x[2] - exp(-1.5)) < 1e-8);
  odesens_result_free(r);
  r = NULL;
  CHECK_OK(odesens_solve(reentrant_solver, &r)); /* usable again after */
  odesens_result_free(r);
  odesens_solver_free(reentrant_solver);
  odesens_solver_free(reentrant_other);
  odesens_model_free(m);
}

static void test_nan_input_is_refused(void) {
  const double nan3[3] = {1.0, NAN, 1.0};
  const double inf2[2] = {INFINITY, 0.0};
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_create(2, 3, decay_rhs, NULL, &m));
  CHECK_STATUS(odesens_model_set_nominal_params(m, nan3, 3), ODESENS_ERR_NOT_FINITE);
  CHECK_MESSAGE(odesens_errmsg(m), "p[1] is NaN or Inf");
  CHECK_STATUS(odesens_model_set_x0(m, inf2, 2), ODESENS_ERR_NOT_FINITE);
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  CHECK_STATUS(odesens_solver_set_params(s, nan3, 3), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_initial_state(s, inf2, 2), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_output_times(s, nan3, 3), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_t0(s, NAN), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_tolerances(s, NAN, 1e-8), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_atol_vector(s, inf2, 2), ODESENS_ERR_NOT_FINITE);
  CHECK_STATUS(odesens_solver_set_adjoint_weights(s, inf2, 2), ODESENS_ERR_NOT_FINITE);
  odesens_solver_free(s);
  odesens_model_free(m);

  /* NaN produced by the user's f during the solve. */
  test_user user = test_user_make();
  user.nan_in_f = 1;
  user.fail_after = 0.3;
  m = decay_model(&user);
  s = make_solver(m, "cvodes_fsa", decay_times, DECAY_NT, 1e-8, 1e-10);
  odesens_result* r = NULL;
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_NOT_FINITE);
  CHECK_MESSAGE(odesens_errmsg(s), "NaN");
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void test_solve_errors(void) {
  odesens_model* m = decay_model(NULL);
  odesens_solver* s = NULL;
  odesens_result* r = NULL;
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "no output times");
  CHECK_OK(odesens_solver_set_output_times(s, decay_times + 1, 3));
  CHECK_OK(odesens_solver_set_t0(s, 1.0));
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "before t0");
  CHECK_OK(odesens_solver_set_t0(s, 0.0));
  CHECK_OK(odesens_solver_set_max_steps(s, 1));
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_TOO_MUCH_WORK);
  CHECK(r == NULL);
  CHECK_OK(odesens_solver_set_max_steps(s, 100000));
  r = solve_ok(s); /* the solver recovers once the settings are right */
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* x' = -k x, x(0) = x0 with x0 = 2 k: x = 2k e^{-kt}, dx/dk = 2 e^{-kt} (1 - k t). */
static const char* decay_text = "param k = 1.5\nstate x = 2*k\ndx/dt = -k*x\n";

static void check_decay_text_model(odesens_model* m) {
  const double t[] = {0.5, 2.0};
  odesens_solver* s = make_solver(m, "cvodes_fsa", t, 2, 1e-10, 1e-12);
  odesens_result* r = solve_ok(s);
  double sens[2];
  CHECK_OK(odesens_result_s(r, sens, 2));
  for (int k = 0; k < 2; ++k) {
    const double exact = 2.0 * exp(-1.5 * t[k]) * (1.0 - 1.5 * t[k]);
    CHECK(fabs(sens[k] - exact) < 1e-8);
  }
  odesens_result_free(r);
  odesens_solver_free(s);
}

static void test_text_and_file_models(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(decay_text, &m));
  int64_t nx = 0, np = 0;
  CHECK_OK(odesens_model_sizes(m, &nx, &np));
  CHECK(nx == 1 && np == 1);
  check_decay_text_model(m);
  CHECK_STATUS(odesens_model_set_x0(m, (const double[]){1.0}, 1), ODESENS_ERR_UNSUPPORTED);
  odesens_model_free(m);

  const char* path = "odesens_capi_test_decay.ode";
  FILE* f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(decay_text, f);
    fclose(f);
    m = NULL;
    CHECK_OK(odesens_model_from_file(path, &m));
    check_decay_text_model(m);
    odesens_model_free(m);
    remove(path);
  }

  m = (odesens_model*)1;
  CHECK_STATUS(odesens_model_from_text("state x = 1\ndx/dt = -y\n", &m), ODESENS_ERR_PARSE);
  CHECK(m == NULL);
  CHECK_MESSAGE(odesens_errmsg(NULL), "<text>:2:");
  CHECK_STATUS(odesens_model_from_file("no/such/model.ode", &m), ODESENS_ERR_UNKNOWN_MODEL);
  CHECK_STATUS(odesens_model_from_file("no/such/model.xml", &m), ODESENS_ERR_UNKNOWN_MODEL);
  CHECK_STATUS(odesens_model_from_text(NULL, &m), ODESENS_ERR_NULL_HANDLE);
}

/* odesens_errmsg(handle) keeps the last failure on that handle, while
 * odesens_errmsg(NULL) follows the thread's last failure. */
static void test_error_messages_per_handle(void) {
  odesens_model* m = decay_model(NULL);
  CHECK(strcmp(odesens_errmsg(m), "") == 0);
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  CHECK_STATUS(odesens_solver_set_max_steps(s, -5), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_model_set_x0(m, NULL, 2), ODESENS_ERR_NULL_HANDLE);
  CHECK_MESSAGE(odesens_errmsg(s), "odesens_solver_set_max_steps: max_steps must be positive");
  CHECK_MESSAGE(odesens_errmsg(m), "odesens_model_set_x0: x0 is NULL");
  CHECK_MESSAGE(odesens_errmsg(NULL), "odesens_model_set_x0");
  CHECK_OK(odesens_solver_set_max_steps(s, 10)); /* success keeps the last failure */
  CHECK_MESSAGE(odesens_errmsg(s), "max_steps must be positive");
  odesens_solver_free(s);
  odesens_model_free(m);
}

int main(void) {
  test_version_and_status_strings();
  test_method_discovery();
  test_builtin_model_getters();
  test_callback_model_defaults_and_names();
  test_callback_chua_matches_builtin_for_every_method();
  test_finite_difference_jacobians_match_analytic();
  test_decay_forward_matches_exact_solution();
  test_decay_adjoint_gradient_matches_exact_solution();
  test_initial_state_sources();
  test_solver_settings_reach_the_solve();
  test_repeated_solves_match_fresh_solvers();
  test_result_getters();
  test_result_array_table();
  test_automatic_method();
  test_result_warnings();
  test_model_lifetime_and_snapshots();
  test_null_handles_are_refused();
  test_wrong_sizes_are_refused();
  test_short_buffers_are_refused();
  test_unknown_method_and_options_are_refused();
  test_option_setters_have_their_first_names_as_aliases();
  test_callback_failures_name_the_callback();
  test_a_solver_is_not_solved_from_its_own_callback();
  test_nan_input_is_refused();
  test_solve_errors();
  test_text_and_file_models();
  test_error_messages_per_handle();
  return check_exit_status("test_capi");
}
