#include "test_models.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

test_user test_user_make(void) {
  test_user u;
  memset(&u, 0, sizeof u);
  u.fail = -1;
  u.fail_after = -INFINITY;
  return u;
}

/* Counts the call; non-zero when this callback is told to fail now. */
static int enter(void* user, enum test_callback which, double t) {
  test_user* u = (test_user*)user;
  if (!u) return 0;
  ++u->calls[which];
  return u->fail == (int)which && t > u->fail_after;
}

static int nan_now(void* user, double t) {
  const test_user* u = (const test_user*)user;
  return u && u->nan_in_f && t > u->fail_after;
}

/* ---- Chua, as in src/model/builtin/chua.cpp ---- */

static double chua_g(double x1) { return -8.0 / 7.0 * x1 + 4.0 / 63.0 * x1 * x1 * x1; }

int chua_rhs(double t, const double* x, const double* p, double* f, void* user) {
  if (enter(user, CB_F, t)) return 3;
  f[0] = p[0] * (x[1] - x[0] - chua_g(x[0]));
  f[1] = x[0] - x[1] + x[2];
  f[2] = -p[1] * x[1];
  if (nan_now(user, t)) f[1] = NAN;
  return 0;
}

int chua_jac_x(double t, const double* x, const double* p, double* J, void* user) {
  if (enter(user, CB_JAC_X, t)) return 3;
  const double dg = -8.0 / 7.0 + 12.0 / 63.0 * x[0] * x[0];
  J[0] = -p[0] * (1.0 + dg); J[1] = 1.0;  J[2] = 0.0;
  J[3] = p[0];               J[4] = -1.0; J[5] = -p[1];
  J[6] = 0.0;                J[7] = 1.0;  J[8] = 0.0;
  return 0;
}

int chua_jac_p(double t, const double* x, const double* p, double* Jp, void* user) {
  (void)p;
  if (enter(user, CB_JAC_P, t)) return 3;
  Jp[0] = x[1] - x[0] - chua_g(x[0]); Jp[1] = 0.0; Jp[2] = 0.0;
  Jp[3] = 0.0;                        Jp[4] = 0.0; Jp[5] = -x[1];
  return 0;
}

odesens_model* chua_callback_model(int with_jacobians, test_user* user) {
  const double p[2] = {7.0, 15.0};
  const double x0[3] = {0.0, 0.0, -0.1};
  odesens_model* m = NULL;
  if (odesens_model_create(3, 2, chua_rhs, user, &m) != ODESENS_OK) return NULL;
  int status = odesens_model_set_nominal_params(m, p, 2);
  if (status == ODESENS_OK) status = odesens_model_set_x0(m, x0, 3);
  if (status == ODESENS_OK && with_jacobians) status = odesens_model_set_jac_x(m, chua_jac_x);
  if (status == ODESENS_OK && with_jacobians) status = odesens_model_set_jac_p(m, chua_jac_p);
  if (status != ODESENS_OK) {
    odesens_model_free(m);
    return NULL;
  }
  return m;
}

/* ---- decay ---- */

int decay_rhs(double t, const double* x, const double* p, double* f, void* user) {
  if (enter(user, CB_F, t)) return 3;
  f[0] = -p[0] * x[0];
  f[1] = -p[1] * x[1];
  if (nan_now(user, t)) f[0] = NAN;
  return 0;
}

int decay_jac_x(double t, const double* x, const double* p, double* J, void* user) {
  (void)x;
  if (enter(user, CB_JAC_X, t)) return 3;
  J[0] = -p[0]; J[1] = 0.0;
  J[2] = 0.0;   J[3] = -p[1];
  return 0;
}

/* diagonal pattern: col_ptr {0, 1, 2}, row_idx {0, 1} */
int decay_jac_values(double t, const double* x, const double* p, double* values, void* user) {
  (void)x;
  if (enter(user, CB_JAC_SPARSE, t)) return 3;
  values[0] = -p[0];
  values[1] = -p[1];
  return 0;
}

int decay_jac_p(double t, const double* x, const double* p, double* Jp, void* user) {
  (void)p;
  if (enter(user, CB_JAC_P, t)) return 3;
  Jp[0] = -x[0]; Jp[1] = 0.0;
  Jp[2] = 0.0;   Jp[3] = -x[1];
  Jp[4] = 0.0;   Jp[5] = 0.0;
  return 0;
}

int decay_jvp(double t, const double* x, const double* p, int64_t nv, const double* V,
              double* out, void* user) {
  (void)x;
  if (enter(user, CB_JVP, t)) return 3;
  for (int64_t k = 0; k < nv; ++k) {
    out[0 + 2 * k] = -p[0] * V[0 + 2 * k];
    out[1 + 2 * k] = -p[1] * V[1 + 2 * k];
  }
  return 0;
}

int decay_vjp(double t, const double* x, const double* p, int64_t nw, const double* W,
              double* out_x, double* out_p, void* user) {
  if (enter(user, CB_VJP, t)) return 3;
  for (int64_t k = 0; k < nw; ++k) {
    const double w0 = W[0 + 2 * k], w1 = W[1 + 2 * k];
    if (out_x) {
      out_x[0 + 2 * k] = -p[0] * w0;
      out_x[1 + 2 * k] = -p[1] * w1;
    }
    if (out_p) {
      out_p[0 + 3 * k] = -x[0] * w0;
      out_p[1 + 3 * k] = -x[1] * w1;
      out_p[2 + 3 * k] = 0.0;
    }
  }
  return 0;
}

int decay_x0(const double* p, double* x0, void* user) {
  if (enter(user, CB_X0, INFINITY)) return 3;
  x0[0] = p[2];
  x0[1] = 2.0 * p[2];
  return 0;
}

int decay_dx0dp(const double* p, double* dx0_dp, void* user) {
  (void)p;
  if (enter(user, CB_DX0, INFINITY)) return 3;
  for (int i = 0; i < 6; ++i) dx0_dp[i] = 0.0;
  dx0_dp[4] = 1.0;
  dx0_dp[5] = 2.0;
  return 0;
}

void decay_exact(const double* p, double t, double* x, double* s) {
  const double e1 = exp(-p[0] * t), e2 = exp(-p[1] * t);
  x[0] = p[2] * e1;
  x[1] = 2.0 * p[2] * e2;
  s[0] = -t * x[0]; s[1] = 0.0;       /* d/dp1 */
  s[2] = 0.0;       s[3] = -t * x[1]; /* d/dp2 */
  s[4] = e1;        s[5] = 2.0 * e2;  /* d/dp3 */
}
