/* Models written as C callbacks for the ABI tests.
 *
 * Chua's circuit is the built-in "chua" written again by hand, term for
 * term in the same order, so that a callback model and the built-in give
 * the same numbers. The decay model x1' = -p1 x1, x2' = -p2 x2,
 * x0 = (p3, 2 p3) has a closed-form S and exercises every optional
 * callback (sparse Jacobian, products, x0(p), dx0/dp).
 *
 * Every callback accepts a test_user (or NULL) that counts calls and can be
 * told to fail or to return NaN. */
#ifndef ODESENS_TEST_MODELS_H
#define ODESENS_TEST_MODELS_H

#include <stdint.h>

#include "odesens.h"

enum test_callback {
  CB_F, CB_JAC_X, CB_JAC_SPARSE, CB_JAC_P, CB_JVP, CB_VJP, CB_X0, CB_DX0, CB_COUNT
};

typedef struct test_user {
  int fail;          /* a test_callback that returns 3 instead of 0, or -1 */
  double fail_after; /* ... once t exceeds this (x0 callbacks: always) */
  int nan_in_f;      /* f returns NaN once t > fail_after */
  long calls[CB_COUNT];
} test_user;

test_user test_user_make(void);

/* Chua: nx = 3, np = 2, p = (7, 15), x0 = (0, 0, -0.1). */
int chua_rhs(double t, const double* x, const double* p, double* xdot, void* user);
int chua_jac_x(double t, const double* x, const double* p, double* J, void* user);
int chua_jac_p(double t, const double* x, const double* p, double* Jp, void* user);
/* A callback model of Chua with the built-in's data; with or without the
 * analytic Jacobians. */
odesens_model* chua_callback_model(int with_jacobians, test_user* user);

/* Decay: nx = 2, np = 3. */
int decay_rhs(double t, const double* x, const double* p, double* xdot, void* user);
int decay_jac_x(double t, const double* x, const double* p, double* J, void* user);
int decay_jac_values(double t, const double* x, const double* p, double* values, void* user);
int decay_jac_p(double t, const double* x, const double* p, double* Jp, void* user);
int decay_jvp(double t, const double* x, const double* p, int64_t nv, const double* V,
              double* out, void* user);
int decay_vjp(double t, const double* x, const double* p, int64_t nw, const double* W,
              double* out_x, double* out_p, void* user);
int decay_x0(const double* p, double* x0, void* user);
int decay_dx0dp(const double* p, double* dx0_dp, void* user);
/* Exact x (2) and S (2 x 3, column-major) at time t. */
void decay_exact(const double* p, double t, double* x, double* s);

#endif
