/* Peer benchmark: PETSc's discrete adjoint of an explicit Runge-Kutta method
 * (TSRK + TSAdjoint) on odesens's builtin:glv:N, the generalized
 * Lotka-Volterra model of ../../../shared/design/BUILTIN_MODELS.md:
 *
 *   dx_i/dt = x_i (r_i + sum_j A_ij x_j),  r_i = 0.1,  x_i(0) = 0.1,  t in [0, 10],
 *
 * parameters p = (r_1..r_N, A row-major), N + N^2 of them. It computes
 * S(T) = dx(T)/dp with N cost gradients (lambda_i(T) = e_i, mu_i(T) = 0), the
 * counterpart of odesens's erk_adjoint (src/methods/erk_adjoint/), and prints
 * one JSON line: N, tolerances, steps, function and Jacobian evaluations and
 * the median wall time of forward + adjoint over --repeats runs (also the
 * fastest and the first; the first solve in a process also initialises
 * PETSc's packages).
 *
 * Method: Dormand-Prince 5(4) (J. R. Dormand, P. J. Prince, "A family of
 * embedded Runge-Kutta formulae", J. Comput. Appl. Math. 6 (1980) 19-26; the
 * tableau below is theirs), registered with TSRKRegister as "dp5own", steps
 * chosen by TSADAPTBASIC from the embedded 4th-order solution, rtol from the
 * command line and atol = rtol * 1e-2 (as benchmarks/bench_erk_adjoint.cpp).
 * The first step is the starting-step algorithm of Hairer, Norsett & Wanner,
 * Solving ODEs I, section II.4, as odesens uses. The trajectory is kept in
 * memory (TSTRAJECTORYMEMORY, stages included: no recomputation).
 *
 * PETSc before 3.21.4 gets the mu (parameter) part of the adjoint wrong at
 * stages with b_i = 0 (TSAdjointStep_RK rescales the previous stage's
 * contribution instead of computing J_p^T of the stage's lambda), and
 * Dormand-Prince has b_2 = 0. TSRK5DP and any exact registration of the same
 * tableau are hit alike. There, unless --exact-b is given, "dp5own" carries
 * b_2 = a_72 = 2^-600 instead of 0: the step gains h 2^-600 k_2, far below
 * one ulp of any state here; the adjoint takes its b_i != 0 branch, whose
 * arithmetic with the power-of-two b_2 equals the correct b_i = 0 formula up
 * to rounding; a_72 = b_2 keeps the first-same-as-last property, so the
 * forward pass still costs 6 function evaluations per step.
 *
 * Build (CMake, when pkg-config finds PETSc and CMake finds MPI for C):
 *   cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
 *   cmake --build build --target petsc_glv_adjoint
 * or by hand:
 *   cc -O3 benchmarks/peers/petsc_glv_adjoint.c $(pkg-config --cflags --libs PETSc mpi-c) -lm
 *
 * Run (one process, no mpirun needed):
 *   build/bin/petsc_glv_adjoint N rtol [--repeats R] [--out FILE] [--exact-b] [-ts_... PETSc options]
 *
 *   --repeats R  timed runs, the median is reported (default 5)
 *   --out FILE   S(T) of the first run, N x (N + N^2) column-major like
 *                odesens (S[i + j*N] = dx_i(T)/dp_j): raw little-endian
 *                float64 values, or CSV (one row per state) if FILE ends in .csv
 *   --exact-b    register the tableau with b_2 = 0 exactly (see above)
 *   -ts_*, ...   PETSc options, after all of the above: applied over the
 *                defaults by TSSetFromOptions
 *
 * At start the interaction matrix is checked against the checksums table of
 * BUILTIN_MODELS.md (for the N listed there); a mismatch aborts.
 * benchmarks/peers/compare_petsc.py runs this next to odesens and compares.
 */
#include <petscts.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* glv:N, generated as BUILTIN_MODELS.md prescribes                          */

/* splitmix64: one draw advances the 64-bit state by the golden-ratio constant
 * and mixes it. */
static uint64_t splitmix64_next(uint64_t *state)
{
  uint64_t z;
  *state += 0x9E3779B97F4A7C15ULL;
  z = *state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* A uniform on (0, 1): the top 53 bits, centred in their interval. */
static double splitmix64_uniform(uint64_t *state)
{
  return ((double)(splitmix64_next(state) >> 11) + 0.5) * ldexp(1.0, -53);
}

/* A = -I + sigma G, G_ij = g with probability C (connectance 0.5), g standard
 * normal by Box-Muller; three uniforms per entry, row-major order. */
static void glv_interaction_matrix(int n, uint64_t seed, double *a)
{
  const double connectance = 0.5;
  const double sigma = 0.5 / sqrt((double)n * connectance);
  const double pi = 3.14159265358979323846;
  uint64_t state = seed;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const double uc = splitmix64_uniform(&state);
      const double u1 = splitmix64_uniform(&state);
      const double u2 = splitmix64_uniform(&state);
      const double g = sqrt(-2.0 * log(u1)) * cos(2.0 * pi * u2);
      const double gij = uc < connectance ? g : 0.0;
      a[(size_t)i * n + j] = (i == j ? -1.0 : 0.0) + sigma * gij;
    }
  }
}

/* The checksums table of BUILTIN_MODELS.md (seed 42). */
struct GlvChecksum {
  int n;
  double sum, abs_sum;
  long nonzeros;
  double a01, a_last;
};

static const struct GlvChecksum glv_checksums[] = {
  {3, -3.3030248680670629, 5.3948786798174009, 8, 0.70610342134855897, -1.0329260105531248},
  {10, -9.8040703661511159, 16.663988542019318, 50, 0.38674877180418055, -0.86945615171469426},
  {55, -56.75623080771058, 164.13981289997864, 1525, 0.16491023039660763, -1.0621977140789804},
  {100, -94.411614991724022, 375.25793684692286, 5051, 0.12230070011739186, -0.93881626184653799},
  {200, -194.27826018342196, 997.64006138747277, 20155, 0.086479654396870179, -0.96813174853802852},
};

/* 1: the matrix matches the table, 0: it does not (the message says how),
 * -1: the table has no row for n. Sums to 1e-12 relative, the rest exactly. */
static int glv_check_checksums(int n, const double *a)
{
  const struct GlvChecksum *c = NULL;
  double sum = 0.0, abs_sum = 0.0;
  long nonzeros = 0;
  int ok = 1;
  for (size_t k = 0; k < sizeof glv_checksums / sizeof glv_checksums[0]; ++k)
    if (glv_checksums[k].n == n) c = &glv_checksums[k];
  if (!c) return -1;
  for (size_t k = 0; k < (size_t)n * n; ++k) {
    sum += a[k];
    abs_sum += fabs(a[k]);
    nonzeros += a[k] != 0.0;
  }
  if (!(fabs(sum - c->sum) <= 1e-12 * fabs(c->sum))) {
    fprintf(stderr, "glv:%d checksum: sum of A is %.17g, expected %.17g\n", n, sum, c->sum);
    ok = 0;
  }
  if (!(fabs(abs_sum - c->abs_sum) <= 1e-12 * c->abs_sum)) {
    fprintf(stderr, "glv:%d checksum: sum of |A| is %.17g, expected %.17g\n", n, abs_sum, c->abs_sum);
    ok = 0;
  }
  if (nonzeros != c->nonzeros) {
    fprintf(stderr, "glv:%d checksum: %ld non-zeros, expected %ld\n", n, nonzeros, c->nonzeros);
    ok = 0;
  }
  if (a[1] != c->a01) {
    fprintf(stderr, "glv:%d checksum: A_0,1 is %.17g, expected %.17g\n", n, a[1], c->a01);
    ok = 0;
  }
  if (a[(size_t)n * n - 1] != c->a_last) {
    fprintf(stderr, "glv:%d checksum: A_N-1,N-1 is %.17g, expected %.17g\n", n, a[(size_t)n * n - 1], c->a_last);
    ok = 0;
  }
  return ok;
}

typedef struct {
  int     n;
  double *r; /* n growth rates */
  double *a; /* n x n, row-major: a[i*n + j] = A_ij */
  double *g; /* scratch: g = r + A x */
  /* evaluation counters, reset per run */
  long rhs_evals, jac_evals, jacp_evals;
} Glv;

/* g = r + A x */
static void glv_growth(const Glv *m, const double *x, double *g)
{
  const int n = m->n;
  for (int i = 0; i < n; ++i) {
    const double *row = m->a + (size_t)i * n;
    double        s   = m->r[i];
    for (int j = 0; j < n; ++j) s += row[j] * x[j];
    g[i] = s;
  }
}

/* f_i = x_i g_i */
static void glv_rhs_array(Glv *m, const double *x, double *f)
{
  glv_growth(m, x, m->g);
  for (int i = 0; i < m->n; ++i) f[i] = x[i] * m->g[i];
  ++m->rhs_evals;
}

/* ------------------------------------------------------------------------ */
/* PETSc callbacks                                                           */

static PetscErrorCode glv_rhs(TS ts, PetscReal t, Vec X, Vec F, void *ctx)
{
  Glv               *m = (Glv *)ctx;
  const PetscScalar *x;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  (void)ts;
  (void)t;
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayWrite(F, &f));
  glv_rhs_array(m, x, f);
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscFunctionReturn(0);
}

/* J_ij = delta_ij g_i + x_i A_ij, into a dense (column-major) matrix. */
static PetscErrorCode glv_jacobian(TS ts, PetscReal t, Vec X, Mat J, Mat P, void *ctx)
{
  Glv               *m = (Glv *)ctx;
  const int          n = m->n;
  const PetscScalar *x;
  PetscScalar       *v;
  PetscInt           lda;

  PetscFunctionBeginUser;
  (void)ts;
  (void)t;
  PetscCall(VecGetArrayRead(X, &x));
  glv_growth(m, x, m->g);
  PetscCall(MatDenseGetLDA(P, &lda));
  PetscCall(MatDenseGetArrayWrite(P, &v));
  for (int j = 0; j < n; ++j) {
    PetscScalar *col = v + (size_t)j * lda;
    for (int i = 0; i < n; ++i) col[i] = x[i] * m->a[(size_t)i * n + j];
  }
  for (int i = 0; i < n; ++i) v[(size_t)i * lda + i] += m->g[i];
  PetscCall(MatDenseRestoreArrayWrite(P, &v));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  ++m->jac_evals;
  PetscFunctionReturn(0);
}

/* df/dp, N x (N + N^2) AIJ: row i holds x_i in column r_i = i and x_i x_j in
 * column A_ij = N + i N + j. */
static PetscErrorCode glv_jacobian_p(TS ts, PetscReal t, Vec X, Mat Jp, void *ctx)
{
  Glv               *m = (Glv *)ctx;
  const PetscInt     n = m->n;
  const PetscScalar *x;
  PetscInt          *cols;
  PetscScalar       *vals;

  PetscFunctionBeginUser;
  (void)ts;
  (void)t;
  PetscCall(PetscMalloc2(n + 1, &cols, n + 1, &vals));
  PetscCall(VecGetArrayRead(X, &x));
  for (PetscInt i = 0; i < n; ++i) {
    cols[0] = i;
    vals[0] = x[i];
    for (PetscInt j = 0; j < n; ++j) {
      cols[1 + j] = n + i * n + j;
      vals[1 + j] = x[i] * x[j];
    }
    PetscCall(MatSetValues(Jp, 1, &i, n + 1, cols, vals, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(PetscFree2(cols, vals));
  PetscCall(MatAssemblyBegin(Jp, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Jp, MAT_FINAL_ASSEMBLY));
  ++m->jacp_evals;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------ */
/* Dormand-Prince 5(4)                                                       */

/* Registers the Dormand-Prince 5(4) pair (J. Comput. Appl. Math. 6 (1980))
 * under `name`, with b_2 = a_72 = b2 (0 in the published tableau). */
static PetscErrorCode register_dopri5(const char *name, PetscReal b2)
{
  const PetscReal A[7][7] = {
    {0, 0, 0, 0, 0, 0, 0},
    {1.0 / 5.0, 0, 0, 0, 0, 0, 0},
    {3.0 / 40.0, 9.0 / 40.0, 0, 0, 0, 0, 0},
    {44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0, 0, 0, 0},
    {19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0, 0, 0, 0},
    {9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0, 0, 0},
    {35.0 / 384.0, b2, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0, 0},
  };
  const PetscReal b[7]     = {35.0 / 384.0, b2, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0, 0};
  const PetscReal bhat[7]  = {5179.0 / 57600.0, 0, 7571.0 / 16695.0, 393.0 / 640.0, -92097.0 / 339200.0, 187.0 / 2100.0, 1.0 / 40.0};
  const PetscReal c[7]     = {0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0};

  PetscFunctionBeginUser;
  PetscCall(TSRKRegister(name, 5, 7, &A[0][0], b, c, bhat, 0, NULL));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------ */
/* One forward + adjoint solve                                               */

static double seconds_now(void)
{
  PetscLogDouble t;
  PetscCallAbort(PETSC_COMM_SELF, PetscTime(&t));
  return (double)t;
}

/* sqrt(mean_i (v_i w_i)^2) */
static double weighted_rms(int n, const double *v, const double *w)
{
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (v[i] * w[i]) * (v[i] * w[i]);
  return sqrt(s / n);
}

/* Starting step of Hairer, Norsett & Wanner I, section II.4 (a)-(f), for a
 * method of order `order`; two evaluations of f. */
static double starting_step(Glv *m, const double *x0, double rtol, double atol, double t_span, int order)
{
  const int n  = m->n;
  double   *w  = malloc(4 * (size_t)n * sizeof *w);
  double   *f0 = w + n, *x1 = w + 2 * n, *f1 = w + 3 * n;
  double    d0, d1, d2, h0, h1, h;

  for (int i = 0; i < n; ++i) w[i] = 1.0 / (atol + rtol * fabs(x0[i]));
  glv_rhs_array(m, x0, f0);
  d0 = weighted_rms(n, x0, w);
  d1 = weighted_rms(n, f0, w);
  h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
  for (int i = 0; i < n; ++i) x1[i] = x0[i] + h0 * f0[i];
  glv_rhs_array(m, x1, f1);
  for (int i = 0; i < n; ++i) f1[i] -= f0[i];
  d2 = weighted_rms(n, f1, w) / h0;
  if (d2 < d1) d2 = d1;
  h1 = d2 <= 1e-15 ? fmax(1e-6, h0 * 1e-3) : pow(0.01 / d2, 1.0 / (order + 1));
  h  = fmin(fmin(100 * h0, h1), t_span);
  free(w);
  return h;
}

typedef struct {
  PetscInt steps, rejected;
  long     rhs_forward, rhs_adjoint, jac_evals, jacp_evals;
  double   seconds;
} RunStats;

/* Solves glv:N forward and backward once; S (if not NULL) receives S(T),
 * column-major N x (N + N^2). The time covers everything from the initial
 * state to the freed solver, except copying S out. */
static PetscErrorCode solve_once(Glv *m, const char *tableau, double rtol, double atol, double *S, RunStats *stats)
{
  const PetscInt n = m->n, np = n + n * n;
  const double   t_end = 10.0;
  double         start, stop, free_start, h0;
  PetscReal      t_reached;
  TS             ts;
  TSAdapt        adapt;
  TSTrajectory   tj;
  TSConvergedReason reason;
  Vec            x, *lambda, *mu;
  Mat            J, Jp;
  PetscScalar   *xv;

  PetscFunctionBeginUser;
  m->rhs_evals = m->jac_evals = m->jacp_evals = 0;
  start = seconds_now();

  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &x));
  PetscCall(VecSet(x, 0.1));
  PetscCall(VecGetArray(x, &xv));
  h0 = starting_step(m, xv, rtol, atol, t_end, 5);
  PetscCall(VecRestoreArray(x, &xv));

  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetProblemType(ts, TS_NONLINEAR));
  PetscCall(TSSetType(ts, TSRK));
  PetscCall(TSRKSetType(ts, tableau));
  PetscCall(TSSetRHSFunction(ts, NULL, glv_rhs, m));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &J));
  PetscCall(TSSetRHSJacobian(ts, J, J, glv_jacobian, m));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, np, n + 1, NULL, &Jp));
  PetscCall(TSSetRHSJacobianP(ts, Jp, glv_jacobian_p, m));
  PetscCall(TSSetTime(ts, 0.0));
  PetscCall(TSSetMaxTime(ts, t_end));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  /* The memory trajectory allocates (and clears) one slot per allowed step up
   * front: a bound far above the steps these tolerances need, not a huge one. */
  PetscCall(TSSetMaxSteps(ts, 100000));
  PetscCall(TSSetTimeStep(ts, h0));
  PetscCall(TSSetTolerances(ts, atol, NULL, rtol, NULL));
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTBASIC));
  PetscCall(TSSetSaveTrajectory(ts));
  PetscCall(TSGetTrajectory(ts, &tj));
  PetscCall(TSTrajectorySetType(tj, ts, TSTRAJECTORYMEMORY));
  PetscCall(TSSetFromOptions(ts));

  /* lambda_i(T) = e_i, mu_i(T) = 0: after the adjoint, lambda_i = dx_i(T)/dx0
   * and mu_i = dx_i(T)/dp, row i of S. */
  PetscCall(VecDuplicateVecs(x, n, &lambda));
  {
    Vec proto; /* length N + N^2 */
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, np, &proto));
    PetscCall(VecDuplicateVecs(proto, n, &mu));
    PetscCall(VecDestroy(&proto));
  }
  for (PetscInt i = 0; i < n; ++i) {
    PetscCall(VecSet(lambda[i], 0.0));
    PetscCall(VecSetValue(lambda[i], i, 1.0, INSERT_VALUES));
    PetscCall(VecAssemblyBegin(lambda[i]));
    PetscCall(VecAssemblyEnd(lambda[i]));
    PetscCall(VecSet(mu[i], 0.0));
  }
  PetscCall(TSSetCostGradients(ts, n, lambda, mu));

  PetscCall(TSSolve(ts, x));
  PetscCall(TSGetConvergedReason(ts, &reason));
  PetscCall(TSGetSolveTime(ts, &t_reached));
  PetscCheck(reason > 0 && t_reached == t_end, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "TSSolve stopped at t = %g, not %g: %s", (double)t_reached, t_end, TSConvergedReasons[reason]);
  PetscCall(TSGetStepNumber(ts, &stats->steps));
  PetscCall(TSGetStepRejections(ts, &stats->rejected));
  stats->rhs_forward = m->rhs_evals;
  PetscCall(TSAdjointSolve(ts));
  stats->rhs_adjoint = m->rhs_evals - stats->rhs_forward;
  stats->jac_evals   = m->jac_evals;
  stats->jacp_evals  = m->jacp_evals;
  stop = seconds_now();

  if (S) {
    for (PetscInt i = 0; i < n; ++i) {
      const PetscScalar *row;
      PetscCall(VecGetArrayRead(mu[i], &row));
      for (PetscInt j = 0; j < np; ++j) S[i + (size_t)j * n] = row[j];
      PetscCall(VecRestoreArrayRead(mu[i], &row));
    }
  }

  free_start = seconds_now();
  PetscCall(VecDestroyVecs(n, &mu));
  PetscCall(VecDestroyVecs(n, &lambda));
  PetscCall(MatDestroy(&Jp));
  PetscCall(MatDestroy(&J));
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&x));
  stats->seconds = (stop - start) + (seconds_now() - free_start);
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------ */

static int compare_doubles(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int ends_with(const char *s, const char *suffix)
{
  const size_t ls = strlen(s), lx = strlen(suffix);
  return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static int write_sensitivities(const char *path, int n, long np, const double *S)
{
  FILE *f = fopen(path, "wb");
  int   ok;
  if (!f) return 0;
  if (ends_with(path, ".csv")) {
    for (int i = 0; i < n; ++i)
      for (long j = 0; j < np; ++j) fprintf(f, "%.17g%s", S[i + (size_t)j * n], j + 1 < np ? "," : "\n");
  } else {
    fwrite(S, sizeof *S, (size_t)n * np, f);
  }
  ok = !ferror(f);
  return fclose(f) == 0 && ok;
}

static void usage(const char *program)
{
  fprintf(stderr, "usage: %s N rtol [--repeats R] [--out FILE] [--exact-b] [PETSc options...]\n", program);
}

int main(int argc, char **argv)
{
  /* Our arguments first; whatever starts with a single '-' goes to PETSc. */
  char      **petsc_argv = calloc((size_t)argc + 1, sizeof *petsc_argv);
  int         petsc_argc = 0, positional = 0, n = 0, repeats = 5, exact_b = 0;
  double      rtol = 0, atol, *S = NULL, *times;
  const char *out = NULL;
  const char *tableau = "dp5own";
  PetscReal   b2;
  Glv         model;
  RunStats    stats = {0}, first = {0};

  petsc_argv[petsc_argc++] = argv[0];
  for (int k = 1; k < argc; ++k) {
    if (!strcmp(argv[k], "--repeats") && k + 1 < argc) repeats = atoi(argv[++k]);
    else if (!strcmp(argv[k], "--out") && k + 1 < argc) out = argv[++k];
    else if (!strcmp(argv[k], "--exact-b")) exact_b = 1;
    else if (argv[k][0] == '-' && argv[k][1] == '-') {
      usage(argv[0]);
      return 2;
    } else if (argv[k][0] == '-') {
      while (k < argc) petsc_argv[petsc_argc++] = argv[k++]; /* PETSc options, last */
    } else if (positional == 0) {
      n = atoi(argv[k]);
      ++positional;
    } else if (positional == 1) {
      rtol = strtod(argv[k], NULL);
      ++positional;
    } else {
      usage(argv[0]);
      return 2;
    }
  }
  if (positional != 2 || n < 1 || !(rtol > 0) || repeats < 1) {
    usage(argv[0]);
    return 2;
  }
  atol = rtol * 1e-2;

  model.n = n;
  model.r = malloc(((size_t)n * n + 2 * (size_t)n) * sizeof(double));
  model.a = model.r + n;
  model.g = model.a + (size_t)n * n;
  for (int i = 0; i < n; ++i) model.r[i] = 0.1;
  glv_interaction_matrix(n, 42, model.a);
  switch (glv_check_checksums(n, model.a)) {
  case 0:
    fprintf(stderr, "glv:%d does not match the checksums of BUILTIN_MODELS.md: aborting\n", n);
    return 1;
  case -1:
    fprintf(stderr, "note: BUILTIN_MODELS.md has no checksums for glv:%d; not checked\n", n);
    break;
  default:
    break;
  }

  PetscCall(PetscInitialize(&petsc_argc, &petsc_argv, NULL, NULL));
#if PETSC_VERSION_LT(3, 21, 4)
  b2 = exact_b ? 0.0 : ldexp(1.0, -600); /* see the header comment */
#else
  b2 = 0.0;
#endif
  PetscCall(register_dopri5(tableau, b2));

  if (out) S = malloc((size_t)n * ((size_t)n + (size_t)n * n) * sizeof *S);
  times = malloc((size_t)repeats * sizeof *times);
  for (int k = 0; k < repeats; ++k) {
    PetscCall(solve_once(&model, tableau, rtol, atol, k == 0 ? S : NULL, &stats));
    if (k == 0) first = stats;
    times[k] = stats.seconds;
  }
  qsort(times, (size_t)repeats, sizeof *times, compare_doubles);

  if (out && !write_sensitivities(out, n, (long)n + (long)n * n, S)) {
    fprintf(stderr, "cannot write %s\n", out);
    PetscCall(PetscFinalize());
    return 1;
  }
  printf("{\"program\": \"petsc_glv_adjoint\", \"petsc\": \"%d.%d.%d\", \"model\": \"builtin:glv:%d\", \"N\": %d, "
         "\"np\": %ld, \"rtol\": %.3g, \"atol\": %.3g, \"tableau\": \"%s\", \"b2\": %.17g, \"steps\": %d, "
         "\"rejected\": %d, \"rhs_evals_forward\": %ld, \"rhs_evals_adjoint\": %ld, \"jac_evals\": %ld, "
         "\"jacp_evals\": %ld, \"repeats\": %d, \"wall_seconds\": %.6g, \"wall_seconds_min\": %.6g, "
         "\"wall_seconds_first\": %.6g}\n",
         PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR, n, n, (long)n + (long)n * n, rtol, atol, tableau,
         (double)b2, (int)first.steps, (int)first.rejected, first.rhs_forward, first.rhs_adjoint, first.jac_evals,
         first.jacp_evals, repeats, times[repeats / 2], times[0], first.seconds);

  free(times);
  free(S);
  free(model.r);
  PetscCall(PetscFinalize());
  free(petsc_argv);
  return 0;
}
