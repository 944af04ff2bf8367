/* Several objectives with running costs through the C ABI: erk_adjoint on
 * a model from .ode text whose `output` is a running cost, two objectives
 * (one with weights, one the integral alone), the gradients with respect
 * to p and to x(t0) against central differences of the objective values
 * the C ABI itself reports, and the errors of the new calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "odesens.h"

/* Two states, two parameters, x0 depending on a; two outputs to serve as
 * running costs. */
static const char* cost_model =
    "param a = 1.3\nparam b = 0.7\n"
    "state u = 1\nstate v = 0.5*a\n"
    "du/dt = -a*u + b*sin(v)\n"
    "dv/dt = a*u*v/(1 + v^2) - b*v\n"
    "output cost = (u - 0.3)^2 + b*log(1 + v^2)\n"
    "output energy = u*v + exp(0.2*a*u)\n";

enum { NX = 2, NP = 2, NT = 3, M = 2 };
static const double times[NT] = {0.5, 1.0, 2.0};
static const double nominal_p[NP] = {1.3, 0.7};

/* psi_0 = 2 v(0.5) - u(2) + integral of cost; psi_1 = integral of energy
 * (no weights). w[i + k*nx + m*nx*n_times]. */
static void objective_weights(double* w) {
  memset(w, 0, sizeof(double) * NX * NT * M);
  w[1 + 0 * NX + 0 * NX * NT] = 2.0;
  w[0 + 2 * NX + 0 * NX * NT] = -1.0;
}

/* An erk_adjoint solver of the two objectives with fixed steps, so that the
 * objective values are smooth functions of p and x0. */
static odesens_solver* objectives_solver(const odesens_model* m) {
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "erk_adjoint", &s));
  if (!s) return NULL;
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  CHECK_OK(odesens_solver_set_option_double(s, "h_fixed", 0.01));
  CHECK_OK(odesens_solver_set_objectives(s, M));
  double w[NX * NT * M];
  objective_weights(w);
  CHECK_OK(odesens_solver_set_adjoint_weights(s, w, NX * NT * M));
  const char* const names[M] = {"cost", "energy"};
  CHECK_OK(odesens_solver_set_integrand_observables(s, names, M));
  return s;
}

/* The M objective values at parameters p and initial state x0 (NULL: the
 * model's x0(p)). */
static void objectives_at(const odesens_model* m, const double* p, const double* x0,
                          double* psi) {
  odesens_solver* s = objectives_solver(m);
  CHECK_OK(odesens_solver_set_params(s, p, NP));
  if (x0) CHECK_OK(odesens_solver_set_initial_state(s, x0, NX));
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  psi[0] = psi[1] = NAN;
  if (r) CHECK_OK(odesens_result_objectives(r, psi, M));
  odesens_result_free(r);
  odesens_solver_free(s);
}

static void test_gradients_match_differences_of_the_objectives(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(cost_model, &m));
  odesens_solver* s = objectives_solver(m);
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  if (!r) return;

  int64_t nt = 0, nx = 0, np = 0, ns = 0, ng = 0, n_objectives = 0, len = 0;
  CHECK_OK(odesens_result_sizes(r, &nt, &nx, &np, &ns, &ng));
  CHECK(nt == NT && nx == NX && np == NP && ns == 1);
  CHECK(ng == NP * M);
  CHECK_OK(odesens_result_n_objectives(r, &n_objectives));
  CHECK(n_objectives == M);

  double gradient[NP * M], gradient_x0[NX * M], psi[M];
  CHECK_OK(odesens_result_gradient(r, gradient, NP * M));
  CHECK_OK(odesens_result_gradient_x0(r, gradient_x0, NX * M));
  CHECK_OK(odesens_result_objectives(r, psi, M));
  CHECK_STATUS(odesens_result_objectives(r, psi, M - 1), ODESENS_ERR_BUFFER_TOO_SMALL);
  /* The zero-copy views hold the same numbers. */
  const double* view = NULL;
  CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_GRADIENT_X0, &view, &len));
  CHECK(len == NX * M && view && memcmp(view, gradient_x0, sizeof gradient_x0) == 0);
  CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_OBJECTIVES, &view, &len));
  CHECK(len == M && view && memcmp(view, psi, sizeof psi) == 0);
  CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_GRADIENT, &view, &len));
  CHECK(len == NP * M && view && memcmp(view, gradient, sizeof gradient) == 0);
  CHECK(isfinite(psi[0]) && isfinite(psi[1]) && psi[1] > 0.0);

  /* d psi_m / d p_j by central differences of whole solves. */
  double reference[NP * M];
  for (int j = 0; j < NP; ++j) {
    double p[NP], plus[M], minus[M];
    const double delta = 1e-5 * fabs(nominal_p[j]);
    memcpy(p, nominal_p, sizeof p);
    p[j] = nominal_p[j] + delta;
    objectives_at(m, p, NULL, plus);
    p[j] = nominal_p[j] - delta;
    objectives_at(m, p, NULL, minus);
    for (int k = 0; k < M; ++k) reference[j + k * NP] = (plus[k] - minus[k]) / (2 * delta);
  }
  CHECK_CLOSE(gradient, reference, NP * M, 1e-7);

  /* d psi_m / d x_i(t0), with the initial state given (the same values as
   * x0(p) at the nominal parameters). */
  const double x0[NX] = {1.0, 0.5 * nominal_p[0]};
  double reference_x0[NX * M];
  for (int i = 0; i < NX; ++i) {
    double x[NX], plus[M], minus[M];
    const double delta = 1e-5;
    memcpy(x, x0, sizeof x);
    x[i] = x0[i] + delta;
    objectives_at(m, nominal_p, x, plus);
    x[i] = x0[i] - delta;
    objectives_at(m, nominal_p, x, minus);
    for (int k = 0; k < M; ++k) reference_x0[i + k * NX] = (plus[k] - minus[k]) / (2 * delta);
  }
  CHECK_CLOSE(gradient_x0, reference_x0, NX * M, 1e-7);
  double psi_given_x0[M];
  objectives_at(m, nominal_p, x0, psi_given_x0);
  CHECK_CLOSE(psi_given_x0, psi, M, 1e-14);

  /* The integral alone (psi_1) is what one objective of that running cost
   * gives: without weights they default to zero. */
  odesens_solver* single = NULL;
  CHECK_OK(odesens_solver_create(m, "erk_adjoint", &single));
  CHECK_OK(odesens_solver_set_output_times(single, times, NT));
  CHECK_OK(odesens_solver_set_option_double(single, "h_fixed", 0.01));
  const char* const energy[1] = {"energy"};
  CHECK_OK(odesens_solver_set_integrand_observables(single, energy, 1));
  odesens_result* r1 = NULL;
  CHECK_OK(odesens_solve(single, &r1));
  double psi1 = NAN, gradient1[NP];
  CHECK_OK(odesens_result_objectives(r1, &psi1, 1));
  CHECK_OK(odesens_result_gradient(r1, gradient1, NP));
  CHECK_CLOSE(&psi1, psi + 1, 1, 1e-13);
  CHECK_CLOSE(gradient1, gradient + NP, NP, 1e-12);
  odesens_result_free(r1);
  odesens_solver_free(single);

  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* Without objectives set, erk_adjoint differentiates G = sum_i x_i(t_final)
 * and reports its value; forward methods report no objectives. */
static void test_default_objective_and_methods_without_objectives(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(cost_model, &m));
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "erk_adjoint", &s));
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  int64_t n_objectives = -1, ng = -1;
  CHECK_OK(odesens_result_n_objectives(r, &n_objectives));
  CHECK_OK(odesens_result_sizes(r, NULL, NULL, NULL, NULL, &ng));
  CHECK(n_objectives == 1 && ng == NP);
  double x[NX * NT], g = NAN, gx0[NX];
  CHECK_OK(odesens_result_x(r, x, NX * NT));
  CHECK_OK(odesens_result_objectives(r, &g, 1));
  CHECK_OK(odesens_result_gradient_x0(r, gx0, NX));
  CHECK(fabs(g - (x[NX * (NT - 1)] + x[NX * (NT - 1) + 1])) <= 1e-14 * fabs(g));
  odesens_result_free(r);
  odesens_solver_free(s);

  /* A forward method and cvodes_asa: the default objective sum_i x_i(T),
   * its value and gradient (through S, through the adjoint), no dpsi/dx0. */
  const char* const others[] = {"cvodes_fsa", "cvodes_asa"};
  for (int o = 0; o < 2; ++o) {
    CHECK_OK(odesens_solver_create(m, others[o], &s));
    CHECK_OK(odesens_solver_set_output_times(s, times, NT));
    CHECK_OK(odesens_solve(s, &r));
    CHECK_OK(odesens_result_n_objectives(r, &n_objectives));
    CHECK(n_objectives == 1);
    CHECK_STATUS(odesens_result_gradient_x0(r, gx0, NX), ODESENS_ERR_UNSUPPORTED);
    CHECK_MESSAGE(odesens_errmsg(r), "computed no result array 'gradient_x0'");
    CHECK_OK(odesens_result_x(r, x, NX * NT));
    CHECK_OK(odesens_result_objectives(r, &g, 1));
    CHECK(fabs(g - (x[NX * (NT - 1)] + x[NX * (NT - 1) + 1])) <= 1e-12 * fabs(g));
    odesens_result_free(r);
    odesens_solver_free(s);
  }
  odesens_model_free(m);
}

static void test_objective_errors(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(cost_model, &m));
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "erk_adjoint", &s));
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));

  /* The number of objectives. */
  CHECK_STATUS(odesens_solver_set_objectives(s, 0), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s),
                "odesens_solver_set_objectives: n_objectives must be from 1 to 1000000 (got 0)");
  CHECK_STATUS(odesens_solver_set_objectives(s, -2), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_objectives(s, 1000001), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_solver_set_objectives(NULL, 2), ODESENS_ERR_NULL_HANDLE);

  /* Unknown names are named; nothing changes. */
  const char* const unknown[2] = {"cost", "nosuch"};
  CHECK_STATUS(odesens_solver_set_integrand_observables(s, unknown, 2),
               ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "no observable 'nosuch'");
  CHECK_STATUS(odesens_solver_set_integrand_observables(s, NULL, 1), ODESENS_ERR_NULL_HANDLE);

  /* Weights against the number of objectives, when set and at solve. */
  CHECK_OK(odesens_solver_set_objectives(s, M));
  double w[NX * NT * M];
  objective_weights(w);
  CHECK_STATUS(odesens_solver_set_adjoint_weights(s, w, NX * NT), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s),
                "adjoint weights: 6 given, expected nx x n_times x n_objectives = 2 x 3 x 2 = 12");

  /* A running cost per objective, checked at solve. */
  const char* const one[1] = {"cost"};
  CHECK_OK(odesens_solver_set_integrand_observables(s, one, 1));
  odesens_result* r = (odesens_result*)&r;
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK(r == NULL);
  CHECK_MESSAGE(odesens_errmsg(s), "the integrand has 1 running costs, expected one per objective");
  /* Weights of one objective left from before M changed: said at solve. */
  const char* const two[2] = {"cost", "energy"};
  CHECK_OK(odesens_solver_set_integrand_observables(s, two, 2));
  CHECK_OK(odesens_solver_set_objectives(s, 1));
  CHECK_OK(odesens_solver_set_adjoint_weights(s, w, NX * NT));
  CHECK_OK(odesens_solver_set_objectives(s, M));
  CHECK_STATUS(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s),
                "adjoint weights has 6 entries, expected 12 (nx x n_times x n_objectives = "
                "2 x 3 x 2)");
  CHECK_OK(odesens_solver_set_adjoint_weights(s, NULL, 0));
  CHECK_OK(odesens_solve(s, &r));
  odesens_result_free(r);
  /* Count 0 removes the running costs: back to objectives of weights only,
   * here all zero. */
  CHECK_OK(odesens_solver_set_integrand_observables(s, NULL, 0));
  CHECK_OK(odesens_solve(s, &r));
  double psi[M] = {NAN, NAN};
  CHECK_OK(odesens_result_objectives(r, psi, M));
  CHECK(psi[0] == 0.0 && psi[1] == 0.0);
  odesens_result_free(r);
  odesens_solver_free(s);

  /* Methods that differentiate one objective refuse several, and running
   * costs, with the library's message. */
  CHECK_OK(odesens_solver_create(m, "cvodes_asa", &s));
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  CHECK_STATUS(odesens_solver_set_objectives(s, 2), ODESENS_ERR_UNSUPPORTED);
  CHECK_MESSAGE(odesens_errmsg(s), "method 'cvodes_asa' differentiates one objective");
  CHECK_MESSAGE(odesens_errmsg(s), "(erk_adjoint does)");
  CHECK_STATUS(odesens_solver_set_integrand_observables(s, one, 1), ODESENS_ERR_UNSUPPORTED);
  CHECK_OK(odesens_solver_set_objectives(s, 1));
  CHECK_OK(odesens_solve(s, &r));
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

int main(void) {
  test_gradients_match_differences_of_the_objectives();
  test_default_objective_and_methods_without_objectives();
  test_objective_errors();
  return check_exit_status("test_capi_objectives");
}
