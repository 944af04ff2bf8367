/*
 * odesens.h: the C ABI of odesens, parameter sensitivities of ODE systems
 * dx/dt = f(t, x, p), x(t0) = x0(p).
 *
 * Five opaque handles, each created and freed by the library:
 *
 *   odesens_model   the ODE system: user callbacks, a compiled built-in, or
 *                   a model from .ode or SBML text
 *   odesens_solver  a model plus a method ("cvodes_fsa", ...) and everything
 *                   the solve needs: parameters, t0, output times,
 *                   tolerances, adjoint objectives, method options
 *   odesens_result  what one solve computed: times, X, S, gradients,
 *                   objective values, stats
 *   odesens_ensemble  the results of one solver's problem for many
 *                   parameter vectors (odesens_solver_solve_ensemble)
 *   odesens_petab   a PEtab problem (SBML model, conditions, measurements,
 *                   observables, parameters): its negative log-likelihood,
 *                   gradient and Fisher information (odesens_petab_load)
 *   odesens_fit_options  settings of parameter estimation: optimizer,
 *                   starts, seed, threads, stopping rules, simulations
 *   odesens_fit_result  a multi-start fit of a PEtab problem
 *                   (odesens_petab_fit)
 *   odesens_profile_result  profile likelihoods and confidence intervals
 *                   (odesens_petab_profile)
 *
 *   odesens_model* m;  odesens_solver* s;  odesens_result* r;
 *   odesens_model_from_builtin("chua", &m);
 *   odesens_solver_create(m, "cvodes_fsa", &s);
 *   odesens_solver_set_output_times(s, times, n_times);
 *   if (odesens_solve(s, &r) != ODESENS_OK) puts(odesens_errmsg(s));
 *   odesens_result_s(r, S, len);
 *   odesens_result_free(r); odesens_solver_free(s); odesens_model_free(m);
 *
 * Errors. Every function that can fail returns an int status: ODESENS_OK (0)
 * or one of the negative codes of odesens_status. Nothing else signals an
 * error, and no C++ exception ever leaves the library. The message of the
 * last failed call on a handle is odesens_errmsg(handle); the message of the
 * last failed call on the calling thread, whatever the handle (including
 * the create functions, which have no handle yet), is odesens_errmsg(NULL).
 * Outputs of a failed call are left untouched, except that a failed create
 * or solve sets its output handle to NULL.
 *
 * Ownership. Handles are owned by the caller from creation until the
 * matching _free; freeing NULL does nothing. A solver keeps its own
 * reference to the model it was created from, and a result owns its data,
 * so a model may be freed before its solvers and a solver before its
 * results. Strings and arrays returned by pointer (names, odesens_errmsg,
 * odesens_result_data) belong to the handle: they stay valid until the
 * handle is freed (for odesens_errmsg: until the next failed call on it;
 * for model names: until the model is next changed). Output buffers belong
 * to the caller, who passes their length; a buffer shorter than the data is
 * refused with ODESENS_ERR_BUFFER_TOO_SMALL and nothing is written.
 *
 * Threading. A handle is used by one thread at a time; distinct handles may
 * be used concurrently, so N solvers run in N threads. A model may back
 * solvers in several threads at once: the solvers only read it. User
 * callbacks are then called from those threads concurrently and must allow
 * it (for example, no unsynchronised writes through `user`).
 *
 * Callback models are built up step by step: odesens_model_create with the
 * right-hand side, then setters for what else is known. Everything not given
 * is derived: Jacobians and products by finite differences (columns grouped
 * by the sparsity pattern when one is set), x0 = the values set by
 * odesens_model_set_x0 (zeros by default), dx0/dp by differences of the x0
 * callback (zero without one). A solver takes a snapshot of its model when
 * it is created; changing the model afterwards affects only solvers created
 * later.
 *
 * Conventions. Sizes and indices are int64_t; indices are 0-based. Dense
 * matrices are column-major: J_x is nx x nx, J_p and S are nx x np with
 * S[i + j*nx] = dx_i/dp_j; a trajectory is a sequence of such blocks, time
 * slowest. Strings are NUL-terminated UTF-8. Only int64_t, double, pointers
 * and strings cross the boundary, so Fortran bind(C) and Julia ccall map
 * every function one to one (see odesens.f90 and ODESens.jl).
 *
 * User callbacks return int: 0 for success; anything else aborts the solve,
 * which returns ODESENS_ERR_CALLBACK_FAILED with a message naming the
 * callback ("f", "jac_x", ...), its return value and the time.
 */
#ifndef ODESENS_H
#define ODESENS_H

#include <stdint.h>

#define ODESENS_VERSION_MAJOR 0
#define ODESENS_VERSION_MINOR 1
#define ODESENS_VERSION_PATCH 0
/* Changes when an existing function changes signature or meaning; adding
 * functions does not change it. Compare with odesens_abi_version(). */
#define ODESENS_ABI_VERSION 1

#if defined(__GNUC__) || defined(__clang__)
#define ODESENS_API __attribute__((visibility("default")))
#else
#define ODESENS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct odesens_model odesens_model;
typedef struct odesens_solver odesens_solver;
typedef struct odesens_result odesens_result;
typedef struct odesens_ensemble odesens_ensemble;
typedef struct odesens_petab odesens_petab;
typedef struct odesens_fit_options odesens_fit_options;
typedef struct odesens_fit_result odesens_fit_result;
typedef struct odesens_profile_result odesens_profile_result;

/* Status codes; the values are part of the ABI and never change meaning. */
typedef enum odesens_status {
  ODESENS_OK = 0,
  ODESENS_ERR_INVALID_ARGUMENT = -1, /* a size, value or name given by the caller is wrong */
  ODESENS_ERR_UNKNOWN_METHOD = -2,   /* no method with that id */
  ODESENS_ERR_UNKNOWN_OPTION = -3,   /* an option key the method does not define */
  ODESENS_ERR_OPTION_TYPE = -4,      /* an option given with the wrong type or value */
  ODESENS_ERR_CALLBACK_FAILED = -5,  /* a user callback returned non-zero */
  ODESENS_ERR_TOO_MUCH_WORK = -6,    /* max_steps reached before an output time */
  ODESENS_ERR_SOLVER_FAILED = -7,    /* the integrator could not continue */
  ODESENS_ERR_NOT_FINITE = -8,       /* NaN or Inf in input or produced during the solve */
  ODESENS_ERR_UNKNOWN_MODEL = -9,    /* a model name or file that cannot be resolved */
  ODESENS_ERR_PARSE = -10,           /* malformed model text */
  ODESENS_ERR_UNSUPPORTED = -11,     /* valid input that cannot be handled (or was not computed) */
  ODESENS_ERR_BUFFER_TOO_SMALL = -12, /* a caller's output buffer is too short */
  ODESENS_ERR_NULL_HANDLE = -13,     /* NULL (or wrong kind of) handle or pointer */
  ODESENS_ERR_IO = -14,              /* a file could not be read or written */
  ODESENS_ERR_OUT_OF_MEMORY = -15,   /* an allocation failed: more memory needed than there is */
  ODESENS_ERR_UNBOUNDED = -16,       /* a set-valued method cannot enclose an operation over the box */
  ODESENS_ERR_STIFF = -17,           /* an explicit method found the problem stiff: use an implicit one */
  ODESENS_ERR_INTERRUPTED = -18,     /* stopped by its caller before it finished */
  ODESENS_ERR_INTERNAL = -99         /* a bug: please report it with the message */
} odesens_status;

/* Arrays of a result, for odesens_result_data. */
typedef enum odesens_result_array {
  ODESENS_ARRAY_TIMES = 0,       /* n_times output times */
  ODESENS_ARRAY_X = 1,           /* nx x n_times states */
  ODESENS_ARRAY_S_TIMES = 2,     /* n_s_times times at which S is given */
  ODESENS_ARRAY_S = 3,           /* nx x np x n_s_times sensitivities */
  ODESENS_ARRAY_GRADIENT = 4,    /* n_gradient (np x n_objectives, or 0) entries of dpsi/dp */
  ODESENS_ARRAY_GRADIENT_X0 = 5, /* nx x n_objectives entries of dpsi/dx(t0) */
  ODESENS_ARRAY_OBJECTIVES = 6,  /* n_objectives values psi_m of the objectives */
  ODESENS_ARRAY_SR = 7,          /* nx x n_directions x n_times products S(t_k) r_j */
  /* Set-valued methods (bounds_fsa, bounds_asa; see odesens_result_bounds_info): models
   * of n_monomials coefficients, remainders and hulls as (lower, upper)
   * pairs, model m's coefficients at [c + m*n_monomials], its pair at
   * [2m], [2m + 1]. */
  ODESENS_ARRAY_X_COEF = 8,         /* n_monomials x nx x n_times: models of x */
  ODESENS_ARRAY_X_REM = 9,          /* 2 x nx x n_times: their remainders */
  ODESENS_ARRAY_X_HULL = 10,        /* 2 x nx x n_times: enclosures of x over the box */
  ODESENS_ARRAY_X_SHAPE = 11,       /* nx x nx x n_times: shape matrices (remainder=ellipsoid) */
  ODESENS_ARRAY_S_COEF = 12,        /* n_monomials x nx x np x n_times: models of S (empty: bounds_asa) */
  ODESENS_ARRAY_S_REM = 13,         /* 2 x nx x np x n_times */
  ODESENS_ARRAY_S_HULL = 14,        /* 2 x nx x np x n_times: enclosures of S */
  ODESENS_ARRAY_GRADIENT_COEF = 15, /* n_monomials x np: models of the objective's gradient */
  ODESENS_ARRAY_GRADIENT_REM = 16,  /* 2 x np */
  ODESENS_ARRAY_GRADIENT_HULL = 17, /* 2 x np: enclosures of the gradient */
  ODESENS_ARRAY_BOX_MID = 18,       /* np centres: p_j = mid_j + rad_j xi_j, xi_j in [-1, 1] */
  ODESENS_ARRAY_BOX_RAD = 19,       /* np radii (0 for a parameter held fixed) */
  ODESENS_ARRAY_BOX_LOWER = 20,     /* np lower bounds of the box as given */
  ODESENS_ARRAY_BOX_UPPER = 21      /* np upper bounds of the box as given */
} odesens_result_array;

/* Order of the statistics written by odesens_result_stats. */
typedef enum odesens_stat {
  ODESENS_STAT_STEPS = 0,               /* internal steps (forward + backward) */
  ODESENS_STAT_RHS_EVALS = 1,           /* evaluations of f */
  ODESENS_STAT_JAC_EVALS = 2,           /* evaluations of J_x */
  ODESENS_STAT_LINEAR_SETUPS = 3,       /* factorizations of the Newton matrix */
  ODESENS_STAT_ERROR_TEST_FAILURES = 4, /* rejected steps */
  ODESENS_STAT_WALL_SECONDS = 5,        /* wall-clock time of the solve */
  ODESENS_STAT_COUNT = 6
} odesens_stat;

/* How a side of a profile ended (odesens_profile_result_interval). */
typedef enum odesens_profile_end {
  ODESENS_PROFILE_CROSSED = 0,    /* nlpost crossed the threshold: the interval ends there */
  ODESENS_PROFILE_BOUND = 1,      /* the parameter's bound, below the threshold: open */
  ODESENS_PROFILE_MAX_POINTS = 2, /* the most points a side may have, below it: open */
  ODESENS_PROFILE_FAILED = 3,     /* a re-optimization failed even at the smallest step: open */
  ODESENS_PROFILE_STOPPED = 4     /* stopped before the side ended: open */
} odesens_profile_end;

/* Types of method options, as reported by odesens_method_option. */
typedef enum odesens_option_type {
  ODESENS_OPTION_DOUBLE = 0,
  ODESENS_OPTION_INT = 1,
  ODESENS_OPTION_STRING = 2
} odesens_option_type;

/* ---- user callbacks (the same signatures as the C++ CallbackModel) ---- */

/* xdot (nx) = f(t, x, p) */
typedef int (*odesens_rhs_fn)(double t, const double* x, const double* p, double* xdot,
                              void* user);
/* J (nx x nx) = df/dx, or Jp (nx x np) = df/dp; dense, column-major */
typedef int (*odesens_dense_jac_fn)(double t, const double* x, const double* p, double* J,
                                    void* user);
/* values (nnz) of df/dx in the order of the sparsity pattern */
typedef int (*odesens_sparse_jac_fn)(double t, const double* x, const double* p, double* values,
                                     void* user);
/* out (nx x nv) = J_x V for V (nx x nv) */
typedef int (*odesens_jvp_fn)(double t, const double* x, const double* p, int64_t nv,
                              const double* V, double* out, void* user);
/* out_x (nx x nw) = J_x^T W and out_p (np x nw) = J_p^T W for W (nx x nw);
 * either output may be NULL, and is then not wanted */
typedef int (*odesens_vjp_fn)(double t, const double* x, const double* p, int64_t nw,
                              const double* W, double* out_x, double* out_p, void* user);
/* x0 (nx) = x0(p) */
typedef int (*odesens_x0_fn)(const double* p, double* x0, void* user);
/* dx0_dp (nx x np) = dx0/dp */
typedef int (*odesens_dx0dp_fn)(const double* p, double* dx0_dp, void* user);

/* ---- library ---- */

/* "MAJOR.MINOR.PATCH" of the library actually loaded. */
ODESENS_API const char* odesens_version(void);
/* ODESENS_ABI_VERSION of the library actually loaded. */
ODESENS_API int odesens_abi_version(void);
/* Short fixed text for a status code ("invalid argument", ...); never NULL. */
ODESENS_API const char* odesens_status_string(int code);
/* Message of the last failed call on `handle` (a model, solver, result,
 * ensemble, PEtab problem, fit options, fit result or profile result),
 * or, for NULL, of the last failed call on this thread; "" if none. */
ODESENS_API const char* odesens_errmsg(const void* handle);

/* ---- methods and their options (strings are static) ---- */

ODESENS_API int odesens_method_count(int64_t* count);
ODESENS_API int odesens_method_id(int64_t index, const char** id);
ODESENS_API int odesens_method_option_count(const char* method, int64_t* count);
/* key, type (odesens_option_type) and one-line documentation of option
 * `index` of `method`; any output may be NULL. */
ODESENS_API int odesens_method_option(const char* method, int64_t index, const char** key,
                                      int64_t* type, const char** doc);
/* The allowed closed range [min, max] of a real or integer option (-inf and
 * +inf where unbounded; both NaN for a string option); a value outside it
 * is ODESENS_ERR_OPTION_TYPE when set. A few options also have a rule
 * within it, which their documentation states and their setters check
 * (lanes: 0, 1, 4 or 8). Either output may be NULL. */
ODESENS_API int odesens_method_option_bounds(const char* method, int64_t index, double* min,
                                             double* max);

/* ---- models ---- */

/* A callback model with 1 <= nx <= 100000000 states and
 * 0 <= np <= 100000000 parameters; `user` is passed to every callback. Defaults: names x1.., p1.., nominal parameters
 * and x0 zero. */
ODESENS_API int odesens_model_create(int64_t nx, int64_t np, odesens_rhs_fn f, void* user,
                                     odesens_model** out);
/* A compiled built-in: "chua", "vanderpol", "glv:N", "linear:N", "heat2d:Np"
 * (the "builtin:" prefix is optional). Built-ins cannot be changed. */
ODESENS_API int odesens_model_from_builtin(const char* name, odesens_model** out);
/* A model from text, or from a file, whatever its name: SBML when the
 * content is XML (its first character after white space is '<'), the .ode
 * format (see docs: MODEL_FORMAT) otherwise. Malformed text:
 * ODESENS_ERR_PARSE with "file:line:column: message" (.ode) or
 * "file:line: message" (SBML), "<text>" as the file name for
 * odesens_model_from_text; SBML features not supported (algebraic
 * rules, delays, fast reactions, packages...):
 * ODESENS_ERR_UNSUPPORTED naming the element and its id; a missing file:
 * ODESENS_ERR_UNKNOWN_MODEL. Such models have exact derivatives and cannot
 * be changed by the setters. SBML models take as sensitivity parameters
 * every global parameter with a finite value that no rule, initial
 * assignment or event sets (declared constant or not).
 * Limits (odesens/model_loader.hpp and odesens/sbml_model.hpp): a file that
 * is not a regular file (directory, FIFO, device) or is larger than 64 MiB
 * (environment variable ODESENS_MAX_MODEL_FILE_SIZE, e.g. "256M") is
 * ODESENS_ERR_IO; text in UTF-16 or UTF-32 (a UTF-8 byte-order mark is
 * fine), SBML nested deeper than 256 elements, math nested deeper than 500
 * levels, function definitions calling one another deeper than 64 levels
 * or inlined into more than 1,000,000 nodes are ODESENS_ERR_UNSUPPORTED.
 * Loading needs under 0.5 MB of stack (in an optimized build), so a thread
 * with 1 MB is enough. */
ODESENS_API int odesens_model_from_text(const char* text, odesens_model** out);
ODESENS_API int odesens_model_from_file(const char* path, odesens_model** out);
/* An SBML file with chosen sensitivity parameters: `sens_params` lists
 * their SBML ids separated by commas ("k1,k2,V"; global parameters or
 * compartments, constant and set by no rule or initial assignment), "" for
 * none, NULL for the default set. A wrong id: ODESENS_ERR_INVALID_ARGUMENT. */
ODESENS_API int odesens_model_from_sbml_file(const char* path, const char* sens_params,
                                             odesens_model** out);
ODESENS_API void odesens_model_free(odesens_model* model);

/* Setters of callback models; NULL clears a callback. */
ODESENS_API int odesens_model_set_jac_x(odesens_model* model, odesens_dense_jac_fn jac_x);
/* CSC sparsity pattern of J_x: col_ptr has nx + 1 entries (col_ptr[0] = 0,
 * col_ptr[nx] = nnz <= nx * nx), row_idx has nnz entries, sorted within
 * each column.
 * col_ptr == NULL removes the pattern (and the sparse Jacobian). */
ODESENS_API int odesens_model_set_sparsity(odesens_model* model, int64_t nnz,
                                           const int64_t* col_ptr, const int64_t* row_idx);
/* Needs the sparsity pattern set first. */
ODESENS_API int odesens_model_set_jac_x_sparse(odesens_model* model,
                                               odesens_sparse_jac_fn jac_x_values);
ODESENS_API int odesens_model_set_jac_p(odesens_model* model, odesens_dense_jac_fn jac_p);
ODESENS_API int odesens_model_set_jvp(odesens_model* model, odesens_jvp_fn jvp);
ODESENS_API int odesens_model_set_vjp(odesens_model* model, odesens_vjp_fn vjp);
ODESENS_API int odesens_model_set_x0_fn(odesens_model* model, odesens_x0_fn x0);
ODESENS_API int odesens_model_set_dx0dp_fn(odesens_model* model, odesens_dx0dp_fn dx0dp);
/* Initial state used when there is no x0 callback; len must be nx. */
ODESENS_API int odesens_model_set_x0(odesens_model* model, const double* x0, int64_t len);
/* Parameters used when a solver is given none; len must be np. */
ODESENS_API int odesens_model_set_nominal_params(odesens_model* model, const double* p,
                                                 int64_t len);
ODESENS_API int odesens_model_set_name(odesens_model* model, const char* name);
/* A state's or parameter's name: not empty and without control characters
 * (ODESENS_ERR_INVALID_ARGUMENT); commas and quotes are quoted in CSV. */
ODESENS_API int odesens_model_set_state_name(odesens_model* model, int64_t index,
                                             const char* name);
ODESENS_API int odesens_model_set_param_name(odesens_model* model, int64_t index,
                                             const char* name);

/* Getters; either size output may be NULL. */
ODESENS_API int odesens_model_sizes(const odesens_model* model, int64_t* nx, int64_t* np);
ODESENS_API int odesens_model_nominal_params(const odesens_model* model, double* out,
                                             int64_t len);
ODESENS_API int odesens_model_state_name(const odesens_model* model, int64_t index,
                                         const char** name);
ODESENS_API int odesens_model_param_name(const odesens_model* model, int64_t index,
                                         const char** name);

/* ---- solvers ---- */

/* The method id that chooses a method for the problem when it solves:
 * from what is asked, the model and a cheap stiffness probe
 * (docs/methods/auto.md). Its own options: goal,
 * probe_steps, fallback (odesens_method_option("auto", ...)); why it chose
 * what it chose: odesens_result_method_choice. */
#define ODESENS_METHOD_AUTO "auto"

/* A solver for `model` with method `method` (see odesens_method_id, or
 * ODESENS_METHOD_AUTO).
 * Defaults: the model's nominal parameters, its x0(p), its default t0, the
 * method's tolerances (1e-8 / 1e-10 for the CVODES methods), max_steps
 * 100000, one objective G = sum_i x_i(t_final); no output times (they must
 * be set). */
ODESENS_API int odesens_solver_create(const odesens_model* model, const char* method,
                                      odesens_solver** out);
ODESENS_API void odesens_solver_free(odesens_solver* solver);

/* len must be np. */
ODESENS_API int odesens_solver_set_params(odesens_solver* solver, const double* p, int64_t len);
/* Overrides x0(p) (then dx0/dp = 0); len must be nx, or 0 to remove it. */
ODESENS_API int odesens_solver_set_initial_state(odesens_solver* solver, const double* x0,
                                                 int64_t len);
ODESENS_API int odesens_solver_set_t0(odesens_solver* solver, double t0);
/* Strictly increasing, all >= t0, the last after t0 and at most 1e300
 * after it (checked at solve: t0 may be set later), from 1 to 100000000 of
 * them. */
ODESENS_API int odesens_solver_set_output_times(odesens_solver* solver, const double* times,
                                                int64_t len);
/* rtol in [2.2e-16 (the machine epsilon), 1) and one atol >= 0 for all
 * states. */
ODESENS_API int odesens_solver_set_tolerances(odesens_solver* solver, double rtol, double atol);
/* One atol per state (len nx), or one for all (len 1); keeps rtol. */
ODESENS_API int odesens_solver_set_atol_vector(odesens_solver* solver, const double* atol,
                                               int64_t len);
ODESENS_API int odesens_solver_set_max_steps(odesens_solver* solver, int64_t max_steps);
/* Objectives of the adjoint methods. One objective (the default) is
 * G = sum_k w_k^T x(t_k); with n_objectives = M, objective m is
 *   psi_m = sum_k w_{k,m}^T x(t_k) + integral from t0 to t_final of R_m dt
 * with the running cost R_m of odesens_solver_set_integrand_observables
 * (none: 0). Several objectives and running costs need a method that
 * differentiates them (erk_adjoint); the others refuse M > 1 and running
 * costs with ODESENS_ERR_UNSUPPORTED when they are set. */

/* M, from 1 (the default) to 1000000; ODESENS_ERR_INVALID_ARGUMENT naming
 * the range otherwise. Set it before the weights: the weights and the
 * running costs are checked against it at solve. */
ODESENS_API int odesens_solver_set_objectives(odesens_solver* solver, int64_t n_objectives);
/* The weights: n_objectives x n_times blocks of nx, time then objective
 * slowest (w[i + k*nx + m*nx*n_times]); len 0 restores the default, which
 * is G = sum_i x_i(t_final) for one objective without running cost and
 * all zero otherwise (psi_m is then the integral of R_m alone). With output
 * times set, len must be nx * n_times * n_objectives
 * (ODESENS_ERR_INVALID_ARGUMENT naming the lengths otherwise); set before
 * the output times, a whole number of blocks of nx, checked against the
 * times at solve. */
ODESENS_API int odesens_solver_set_adjoint_weights(odesens_solver* solver, const double* w,
                                                   int64_t len);
/* Running costs that are observables of the model: R_m = names[m], any
 * name odesens_solver_add_observable accepts (a state; an .ode let or
 * output; an SBML id with a value), with exact derivatives. count must be
 * n_objectives at solve; count 0 removes the running costs (names may then
 * be NULL). An unknown name: ODESENS_ERR_INVALID_ARGUMENT naming it; a
 * method without running costs: ODESENS_ERR_UNSUPPORTED. */
ODESENS_API int odesens_solver_set_integrand_observables(odesens_solver* solver,
                                                         const char* const* names,
                                                         int64_t count);
/* Sensitivity directions R of the methods that compute S·R (dopri8s,
 * grk4as): an (nx + np) x n_directions column-major matrix,
 * len = (nx + np) * n_directions. Rows 0..nx-1 of column j perturb x(t0),
 * rows nx..nx+np-1 perturb p, and the result holds S(t) r_j =
 * dx(t)/d(x0, p) r_j (odesens_result_sr). They override the method's
 * `directions` option; len 0 removes them (r may then be NULL). A length
 * that is not a whole number of columns: ODESENS_ERR_INVALID_ARGUMENT
 * naming nx + np; a NaN or Inf entry: ODESENS_ERR_NOT_FINITE; a method
 * that computes S = dx/dp alone: ODESENS_ERR_UNSUPPORTED. */
ODESENS_API int odesens_solver_set_sens_directions(odesens_solver* solver, const double* r,
                                                   int64_t len);
/* The parameter box of the set-valued methods (bounds_fsa, bounds_asa): lower and
 * upper bounds, np each; a parameter with lower = upper is held fixed.
 * Results then enclose x, S and the gradient for every p in the box
 * (odesens_result_bounds_info). np must be the model's
 * (ODESENS_ERR_INVALID_ARGUMENT naming it otherwise), as must
 * lower <= upper; a NaN or Inf bound: ODESENS_ERR_NOT_FINITE; np 0 removes
 * the box (lower and upper may then be NULL); a method without box:
 * ODESENS_ERR_UNSUPPORTED. The set-valued methods refuse to solve without one
 * (ODESENS_ERR_INVALID_ARGUMENT). */
ODESENS_API int odesens_solver_set_param_box(odesens_solver* solver, const double* lower,
                                             const double* upper, int64_t np);
/* Least-squares objective of the set-valued methods: F = sum over output
 * times k and states i of (data[i + k*nx] - x_i(t_k))^2, n = n_times x nx
 * values, time slowest, NaN where a state is not observed; the result's
 * gradient encloses dF/dp. n must be a whole number of blocks of nx
 * (checked against the output times at solve); Inf:
 * ODESENS_ERR_NOT_FINITE; n 0 removes the data (then the objective is
 * that of the adjoint weights); a method without bounds:
 * ODESENS_ERR_UNSUPPORTED. */
ODESENS_API int odesens_solver_set_objective_data(odesens_solver* solver, const double* data,
                                                  int64_t n);
/* Method options, checked when set: an unknown key is
 * ODESENS_ERR_UNKNOWN_OPTION, a value of the wrong type, outside the
 * allowed range (odesens_method_option_bounds) or its rule, or outside the
 * allowed choices ODESENS_ERR_OPTION_TYPE; the message names the key and
 * what is allowed. An int is accepted for a double option. */
ODESENS_API int odesens_solver_set_option_double(odesens_solver* solver, const char* key,
                                                 double value);
ODESENS_API int odesens_solver_set_option_int(odesens_solver* solver, const char* key,
                                              int64_t value);
ODESENS_API int odesens_solver_set_option_string(odesens_solver* solver, const char* key,
                                                 const char* value);
/* The same three under their first names, without the solver_ prefix of
 * the other solver setters: aliases kept for existing callers, with the
 * same behaviour (a failure's message names the function called). */
ODESENS_API int odesens_set_option_double(odesens_solver* solver, const char* key, double value);
ODESENS_API int odesens_set_option_int(odesens_solver* solver, const char* key, int64_t value);
ODESENS_API int odesens_set_option_string(odesens_solver* solver, const char* key,
                                          const char* value);

/* Observables: named values of the model evaluated at the output times
 * after each solve (odesens_result_observable). A name is a state; for
 * models from text or files also an .ode let or output, or any SBML id with
 * a value (species, parameter, compartment, rule variable...), a species as
 * the model declares it unless the name ends in ":amount" or
 * ":concentration". An unknown name: ODESENS_ERR_INVALID_ARGUMENT. */
ODESENS_API int odesens_solver_add_observable(odesens_solver* solver, const char* name);
ODESENS_API int odesens_solver_clear_observables(odesens_solver* solver);

/* Runs the method; on success *result is a new result owned by the caller.
 * A solver can be solved again (after changing its settings or not). While
 * it solves, a model callback that calls odesens_solve or a setter on the
 * same solver gets ODESENS_ERR_INVALID_ARGUMENT (use another solver for a
 * nested solve), and must not free it. */
ODESENS_API int odesens_solve(odesens_solver* solver, odesens_result** result);

/* ---- ensembles: one problem, many parameter vectors ---- */

/* Solves the solver's problem (method, settings, observables) once per
 * parameter vector, on `threads` threads (0: one per hardware thread; at
 * most n_members are used) that share the model read-only. params holds
 * n_members x np values owned by the caller, member-major:
 * params[j + k*np] = p_j of member k. Each member's numbers are, bit for
 * bit, those of odesens_solve with odesens_solver_set_params(params + k*np),
 * whatever the number of threads. One failed member (a NaN parameter, too
 * much work, a callback failure) never loses the others: the call returns
 * ODESENS_OK with the failure in its member, and `statuses` (NULL, or
 * n_members values owned by the caller) receives every member's status
 * (ODESENS_OK or the odesens_status of its failure). *ensemble is a new
 * handle owned by the caller (odesens_ensemble_free). n_members from 1 to
 * 100000000, threads from 0 to 4096: ODESENS_ERR_INVALID_ARGUMENT otherwise.
 * A solver of bounds_fsa or bounds_asa (or auto with a box) is
 * ODESENS_ERR_UNSUPPORTED: it encloses one box, whatever each member's
 * parameters.
 * Callbacks of a callback model are then called from several threads at
 * once: they must be safe for that (C callbacks without shared mutable
 * state are). */
ODESENS_API int odesens_solver_solve_ensemble(odesens_solver* solver, const double* params,
                                              int64_t n_members, int64_t threads,
                                              int64_t* statuses, odesens_ensemble** ensemble);
ODESENS_API void odesens_ensemble_free(odesens_ensemble* ensemble);
/* The number of members and of failed members; either output may be NULL. */
ODESENS_API int odesens_ensemble_sizes(const odesens_ensemble* ensemble, int64_t* n_members,
                                       int64_t* n_failed);
/* Member `member`'s status (ODESENS_OK, or the status its solve ended in)
 * and message ("" for a member that succeeded; valid until the ensemble is
 * freed). */
ODESENS_API int odesens_ensemble_status(const odesens_ensemble* ensemble, int64_t member,
                                        int64_t* status);
ODESENS_API int odesens_ensemble_message(const odesens_ensemble* ensemble, int64_t member,
                                         const char** message);
/* Member `member`'s result as a new result handle, owned by the caller
 * (odesens_result_free) and independent of the ensemble, readable by every
 * odesens_result_* function. A failed member has none: its status is
 * returned, with its message as the ensemble's error message. */
ODESENS_API int odesens_ensemble_result(const odesens_ensemble* ensemble, int64_t member,
                                        odesens_result** result);

/* ---- results ---- */

ODESENS_API void odesens_result_free(odesens_result* result);
/* Sizes; any output may be NULL. n_s_times is n_times for forward methods,
 * 1 (the final time) or 0 for adjoint methods; n_gradient is np x
 * n_objectives for gradient methods (np with one objective) and 0
 * otherwise. */
ODESENS_API int odesens_result_sizes(const odesens_result* result, int64_t* n_times, int64_t* nx,
                                     int64_t* np, int64_t* n_s_times, int64_t* n_gradient);
/* The method id that produced the result (the one chosen by "auto"). */
ODESENS_API int odesens_result_method(const odesens_result* result, const char** method);
/* Why "auto" chose that method, in a few sentences; "" when the method was
 * named. Valid while the result lives. */
ODESENS_API int odesens_result_method_choice(const odesens_result* result, const char** reason);
/* The number of objectives M differentiated (odesens_solver_set_objectives)
 * for gradient methods, 0 for the others. */
ODESENS_API int odesens_result_n_objectives(const odesens_result* result, int64_t* m);

/* Copies into the caller's buffer of `len` doubles. S, the gradient, the
 * gradient with respect to x(t0) and the objective values of a method that
 * did not compute them are ODESENS_ERR_UNSUPPORTED. */
ODESENS_API int odesens_result_times(const odesens_result* result, double* out, int64_t len);
ODESENS_API int odesens_result_x(const odesens_result* result, double* out, int64_t len);
ODESENS_API int odesens_result_s_times(const odesens_result* result, double* out, int64_t len);
ODESENS_API int odesens_result_s(const odesens_result* result, double* out, int64_t len);
/* The gradient dpsi/dp, np x n_objectives column-major:
 * out[j + m*np] = dpsi_m/dp_j (dG/dp, np values, for one objective). */
ODESENS_API int odesens_result_gradient(const odesens_result* result, double* out, int64_t len);
/* dpsi/dx(t0), nx x n_objectives column-major: out[i + m*nx] =
 * dpsi_m/dx_i(t0), the gradient with respect to the initial state whatever
 * its source (erk_adjoint). */
ODESENS_API int odesens_result_gradient_x0(const odesens_result* result, double* out,
                                           int64_t len);
/* The n_objectives values psi_m of the objectives (erk_adjoint). */
ODESENS_API int odesens_result_objectives(const odesens_result* result, double* out,
                                          int64_t len);
/* The number of sensitivity directions n_directions whose products S·R
 * the result holds: the columns of odesens_solver_set_sens_directions, or
 * those of the option `directions` (`states`: nx, `all`: nx + np) of
 * dopri8s and grk4as; 0 for the other methods and for directions=params,
 * whose S·R is S itself (odesens_result_s). */
ODESENS_API int odesens_result_n_directions(const odesens_result* result, int64_t* n);
/* S·R, nx x n_directions x n_times column-major: out[i + j*nx +
 * k*nx*n_directions] = (S(t_k) r_j)_i = (dx(t_k)/d(x0, p) r_j)_i. A result
 * without directions: ODESENS_ERR_UNSUPPORTED. */
ODESENS_API int odesens_result_sr(const odesens_result* result, double* out, int64_t len);
/* The enclosures of a set-valued method (bounds_fsa; bounds_asa: no S), valid for every p in
 * the box: polynomial models in the scaled parameters xi_j = (p_j -
 * mid_j) / rad_j in [-1, 1] (ODESENS_ARRAY_BOX_MID, _BOX_RAD), each
 * sum_c coef[c] B_c(xi) + [rem lower, rem upper] over the basis functions
 * B_c(xi) = prod_j T_{e_cj}(xi_j) (Chebyshev polynomials, basis
 * "chebyshev") or prod_j xi_j^{e_cj} ("taylor"), with the hull of its range.
 * The order q, the number of coefficients of each model, the basis and the
 * remainder ("interval" or "ellipsoid"; strings belong to the result); any
 * output may be NULL. A result without bounds: ODESENS_ERR_UNSUPPORTED.
 * The arrays: odesens_result_data with ODESENS_ARRAY_X_COEF and after. */
ODESENS_API int odesens_result_bounds_info(const odesens_result* result, int64_t* order,
                                           int64_t* n_monomials, const char** basis,
                                           const char** remainder);
/* The exponents e_cj of the basis functions, n = n_monomials x np:
 * out[j + c*np] = e_cj (0 for a parameter held fixed). A result without
 * bounds: ODESENS_ERR_UNSUPPORTED. */
ODESENS_API int odesens_result_bounds_exponents(const odesens_result* result, int64_t* out,
                                                int64_t n);
/* The ODESENS_STAT_COUNT statistics in the order of odesens_stat. */
ODESENS_API int odesens_result_stats(const odesens_result* result, double* out, int64_t len);

/* Every statistic by name: "steps", "rhs_evals", "jac_evals",
 * "linear_setups", "error_test_failures", "wall_seconds", then the
 * method's own ("sens_rhs_evals", "checkpoints", ...). */
ODESENS_API int odesens_result_stat_count(const odesens_result* result, int64_t* count);
ODESENS_API int odesens_result_stat_name(const odesens_result* result, int64_t index,
                                         const char** name);
ODESENS_API int odesens_result_stat(const odesens_result* result, const char* name,
                                    double* value);

/* The observables the solver had when it solved, in the order added: their
 * number, the name of observable `index`, and its n_times values. */
ODESENS_API int odesens_result_observable_count(const odesens_result* result, int64_t* count);
ODESENS_API int odesens_result_observable_name(const odesens_result* result, int64_t index,
                                               const char** name);
ODESENS_API int odesens_result_observable(const odesens_result* result, int64_t index,
                                          double* out, int64_t len);

/* Warnings: what the method has reason to distrust in this result (for
 * example an S it could not compute near the tolerances), one sentence
 * each; 0 warnings when nothing is suspect. Check them before using S. */
ODESENS_API int odesens_result_warning_count(const odesens_result* result, int64_t* count);
ODESENS_API int odesens_result_warning(const odesens_result* result, int64_t index,
                                       const char** text);

/* Zero-copy, read-only view of one array (odesens_result_array), valid
 * until the result is freed. */
ODESENS_API int odesens_result_data(const odesens_result* result, int64_t array,
                                    const double** data, int64_t* len);

/* The arrays as a table: what every front end iterates, so that it writes
 * an output added to the library without being changed. Array indices are
 * the values of odesens_result_array (0 .. count - 1); the data of array k:
 * odesens_result_data(result, k, ...).
 * - odesens_result_array_count: the number of arrays (the same for every
 *   result; an array a method did not compute has length 0 and
 *   odesens_result_data refuses it with ODESENS_ERR_UNSUPPORTED, naming the
 *   methods that compute it).
 * - odesens_result_array_index: the index of the array `name` ("times",
 *   "x", "S_times", "S", "gradient", "gradient_x0", "objectives", "SR",
 *   "x_coef", ...); an unknown name: ODESENS_ERR_INVALID_ARGUMENT listing
 *   the names.
 * - odesens_result_array_name: its name and one line saying what it holds
 *   (either may be NULL; the strings belong to the library and live as long
 *   as it is loaded).
 * - odesens_result_array_dims: its number of axes and, when `extents` is not
 *   NULL, their extents in this result, fastest first: the data are
 *   column-major over them (x: n_x, n_times). An array that was not
 *   computed has extent 0 along its slowest axis.
 * - odesens_result_array_axis: the name of axis `axis` (fastest first):
 *   "time", "s_time", "state", "parameter", "direction", "objective",
 *   "monomial" or "bound" (2: lower, upper). */
ODESENS_API int odesens_result_array_count(const odesens_result* result, int64_t* count);
ODESENS_API int odesens_result_array_index(const odesens_result* result, const char* name,
                                           int64_t* index);
ODESENS_API int odesens_result_array_name(const odesens_result* result, int64_t array,
                                          const char** name, const char** doc);
ODESENS_API int odesens_result_array_dims(const odesens_result* result, int64_t array,
                                          int64_t* ndim, int64_t* extents, int64_t len);
ODESENS_API int odesens_result_array_axis(const odesens_result* result, int64_t array,
                                          int64_t axis, const char** name);

/* Writes the result to the file `path` as one of the documents of the
 * command-line tool: format "json" (the document of `odesens run`), "csv"
 * (`--format csv`) or "h5" (the HDF5 layout of docs/hdf5-output.md with one
 * member); NULL or "" tells the format from the extension of `path`
 * (.json, .csv, .h5 or .hdf5). Every document names the states and
 * parameters of the model and gives the solve's parameter vector (HDF5) or
 * its observables (JSON, CSV). The file is replaced whole or not at all: it
 * is written beside `path` under another name (HDF5: `path`.partial) and
 * renamed over it once complete, so a failure leaves an existing file as it
 * was. An unknown format or extension, an empty path and, for "h5", a path
 * that exists and is neither a regular file nor a directory are
 * ODESENS_ERR_INVALID_ARGUMENT; a folder that does not exist or cannot be
 * written, or a directory as the path (any format), ODESENS_ERR_IO; "h5" for a result with
 * enclosures (bounds_fsa, bounds_asa), which the layout cannot hold,
 * ODESENS_ERR_UNSUPPORTED. */
ODESENS_API int odesens_result_write(const odesens_result* result, const char* path,
                                     const char* format);

/* ---- PEtab problems ---- */

/* A PEtab (v1) problem: the YAML file at yaml_path and every file it names
 * (one SBML model, condition, measurement, observable and parameter
 * tables; docs/petab.md). yaml_path may name a directory holding the
 * problem file: its NAME.yaml where NAME is the directory's name, else its
 * only .yaml or .yml file, else the one of several with a format_version or
 * problems key (several that cannot be told apart:
 * ODESENS_ERR_INVALID_ARGUMENT). *out is a new handle owned by the caller
 * (odesens_petab_free). A missing file or a directory without a problem
 * file: ODESENS_ERR_UNKNOWN_MODEL; a file
 * that is not a regular file, or larger than 256 MiB: ODESENS_ERR_IO;
 * malformed or inconsistent tables: ODESENS_ERR_PARSE naming the file, row,
 * column and the rule broken; what PEtab allows but odesens does not handle
 * yet: ODESENS_ERR_UNSUPPORTED naming it. */
ODESENS_API int odesens_petab_load(const char* yaml_path, odesens_petab** out);
ODESENS_API void odesens_petab_free(odesens_petab* petab);
/* The number of estimated parameters (the length of x and of the gradient),
 * of measurements (rows of the measurement table) and of experiments
 * (pairs of a pre-equilibration and a simulation condition, each solved
 * once per evaluation); any output may be NULL. */
ODESENS_API int odesens_petab_sizes(const odesens_petab* petab, int64_t* n_parameters,
                                    int64_t* n_measurements, int64_t* n_experiments);
/* Estimated parameter `index`'s id, and its scale: "lin", "log" or "log10"
 * (strings belong to the handle). */
ODESENS_API int odesens_petab_parameter_id(const odesens_petab* petab, int64_t index,
                                           const char** id);
ODESENS_API int odesens_petab_parameter_scale(const odesens_petab* petab, int64_t index,
                                              const char** scale);
/* Whether estimated parameter `index` is an inner parameter of a
 * hierarchical fit (odesens_fit_options_set_hierarchical): *inner = 1 when
 * it is, 0 when not. */
ODESENS_API int odesens_petab_inner_parameter(const odesens_petab* petab, int64_t index,
                                              int64_t* inner);
/* The bounds and nominal values of the estimated parameters on their
 * scales (log10(value) for "log10", ...; a nominal value of 0 on a log
 * scale is -inf), n_parameters values each into buffers of `len`; any of
 * lower, upper and nominal may be NULL, and is then not written. */
ODESENS_API int odesens_petab_parameter_bounds(const odesens_petab* petab, double* lower,
                                               double* upper, double* nominal, int64_t len);
/* Evaluates the problem at x, the n = n_parameters estimated parameters on
 * their scales (parameter_id order; -inf is allowed on a log scale, any
 * other NaN or Inf is ODESENS_ERR_NOT_FINITE), solving every experiment
 * on `threads` threads (0: one per core; at most 4096).
 *   method  NULL or "" for "auto" (odesd where the model has second
 *           derivatives and S at most 10 000 entries; else cvodes_fsa, or
 *           cvodes_asa for a gradient without FIM when at least 8
 *           estimated parameters act on the dynamics and outnumber the
 *           measurement times per experiment),
 *           a method with S at every output time (cvodes_fsa,
 *           odesd, pbsr, exp, dopri8s, grk4as) or an adjoint method
 *           (cvodes_asa, erk_adjoint: the gradient by the adjoint); an
 *           unknown id: ODESENS_ERR_UNKNOWN_METHOD
 *   rtol, atol  the integrator's tolerances; <= 0 for the defaults, 1e-8
 *           relative and 1e-12 absolute (docs/petab.md, "Tolerances";
 *           rtol must be below 1; NaN or Inf: ODESENS_ERR_NOT_FINITE)
 * Outputs, each NULL when not wanted:
 *   nllh    the negative log-likelihood
 *   nlpost  the negative log-posterior, nllh minus the priors'
 *           log-densities (objectivePriorType); nllh without priors
 *   chi2    the sum of the squared residuals ((y - h)/sigma)^2
 *   gradient  n values: d nlpost / dx (= d nllh / dx without priors); only
 *           computed when not NULL
 *   fim     n x n values, row-major (symmetric): the expected Fisher
 *           information (plus the priors' Hessians); only computed when not
 *           NULL, and then by forward sensitivities
 *   simulations  the simulated observable at every measurement, in the
 *           measurement table's order (the PEtab simulation table), into a
 *           buffer of len >= n_measurements (len is ignored when it is NULL)
 * A failed simulation is the solve's status, its message naming the
 * condition. Warnings of the evaluation (a non-positive sigma, the log of a
 * non-positive simulation, a method's own) replace those of the previous
 * one (odesens_petab_warning_count); a failed evaluation writes nothing
 * and leaves them as they were. The handle is used by one thread at a
 * time, as every handle: load the problem once per thread to evaluate it
 * in several at once (or use `threads`). */
ODESENS_API int odesens_petab_evaluate(odesens_petab* petab, const double* x, int64_t n,
                                       const char* method, double rtol, double atol,
                                       int64_t threads, double* nllh, double* nlpost,
                                       double* chi2, double* gradient, double* fim,
                                       double* simulations, int64_t len);
/* The warnings of the last successful evaluation, one sentence each
 * (strings belong to the handle until its next successful evaluation);
 * 0 before any. */
ODESENS_API int odesens_petab_warning_count(const odesens_petab* petab, int64_t* count);
ODESENS_API int odesens_petab_warning(const odesens_petab* petab, int64_t index,
                                      const char** text);

/* ---- parameter estimation: options ---- */

/* Settings of odesens_petab_fit and odesens_petab_profile (docs/fit.md),
 * checked when set: a wrong value is refused by its setter, with a message
 * naming it and what is allowed, and leaves the setting as it was. *out is
 * a new handle owned by the caller (odesens_fit_options_free), with the
 * defaults of the command-line tool: optimizer "auto", 10 starts drawn with
 * seed 0, 1 thread, at most 1000 iterations and no time limit per start,
 * method "auto" with the default tolerances (1e-8 relative, 1e-12
 * absolute), profiles of at most 50
 * points a side. One options handle may serve any number of fits and
 * profiles, of any problem. */
ODESENS_API int odesens_fit_options_create(odesens_fit_options** out);
ODESENS_API void odesens_fit_options_free(odesens_fit_options* options);
/* The local optimizer: "auto" (ceres_lm_lbfgs when the problem has the
 * least-squares form and its gradient is not the adjoint's, nlopt_lbfgs
 * otherwise: docs/fit.md), "ceres_lm" (Ceres'
 * Levenberg-Marquardt on the residuals; a problem without least-squares
 * form, e.g. Laplace noise, is then ODESENS_ERR_UNSUPPORTED when fitted),
 * "ceres_lm_lbfgs" (ceres_lm, then nlopt_lbfgs from where it stopped short
 * of a stationary point; the same refusal), "nlopt_lbfgs" (NLopt's L-BFGS
 * on nlpost) or "lbfgsb" (L-BFGS-B on nlpost); NULL or "" is "auto".
 * Another name: ODESENS_ERR_INVALID_ARGUMENT naming the five. */
ODESENS_API int odesens_fit_options_set_optimizer(odesens_fit_options* options,
                                                  const char* optimizer);
/* The number of starts drawn (a Latin hypercube in the box of the
 * estimated parameters on their scales, the same points for the same seed
 * on every platform and thread count), from 1 to 1000000; and the seed, from
 * 0 to INT64_MAX. Ignored while start points are set. */
ODESENS_API int odesens_fit_options_set_starts(odesens_fit_options* options, int64_t starts);
ODESENS_API int odesens_fit_options_set_seed(odesens_fit_options* options, int64_t seed);
/* A start whose point cannot be simulated runs from a point drawn uniformly
 * in the box of the scaled parameters instead, up to `tries` times (0, the
 * default: it fails there), from 0 to 1000. The draws depend on the seed
 * and the start's index alone; the start's point in the result is the one
 * it ran from. Applies to drawn and given starts. */
ODESENS_API int odesens_fit_options_set_resample_failed(odesens_fit_options* options,
                                                       int64_t tries);
/* Hops (docs/fit.md, "Hops"): after the starts, `rounds` rounds (0, the
 * default: none; at most 10000) of `starts` starts each (from 1 to 1e9),
 * drawn around the best end point so far from a normal distribution on the
 * parameters' scales with standard deviation `sigma` (from 1e-6 to 100;
 * doubled after a round that finds no nlpost lower by more than 0.1, up to
 * 4 * sigma, and sigma again after one that does), clipped to the box. The
 * draws depend on the seed and the round alone. Their starts follow the
 * others in the result (odesens_fit_result_start_round). */
ODESENS_API int odesens_fit_options_set_hops(odesens_fit_options* options, int64_t rounds,
                                            int64_t starts, double sigma);
/* In hop rounds, a parameter whose gradient of nlpost is exactly 0 at the
 * round's center (nothing computed depends on it there, as on a switch time
 * past its experiment's last measurement) is drawn from its whole range as
 * a start is: from_box 1 (the default). 0: around the center as the others.
 * Other values: ODESENS_ERR_INVALID_ARGUMENT. */
ODESENS_API int odesens_fit_options_set_hop_flat(odesens_fit_options* options, int from_box);
/* In hop rounds, where some parameters are read by some experiments only
 * (a switch time or scaling per condition: "blocks", grouped by the
 * experiments that read them), every second point redraws one block from
 * its range and holds the other parameters at the center, the worst fitted
 * block first (by the mean square of its experiments' residuals there):
 * on 1 (the default). 0: every point around the center. Other values:
 * ODESENS_ERR_INVALID_ARGUMENT. */
ODESENS_API int odesens_fit_options_set_hop_blocks(odesens_fit_options* options, int on);
/* Starts given by the caller instead of drawn: n_starts points of
 * n_parameters values on the parameters' scales, start-major
 * (points[i + k*n_parameters] = parameter i of start k), copied. NaN or
 * Inf: ODESENS_ERR_NOT_FINITE. n_starts 0 removes them (points may then be
 * NULL). n_parameters must be the problem's, and every point inside its
 * box, when it is fitted (ODESENS_ERR_INVALID_ARGUMENT otherwise). */
ODESENS_API int odesens_fit_options_set_start_points(odesens_fit_options* options,
                                                     const double* points, int64_t n_parameters,
                                                     int64_t n_starts);
/* Starts (fit) or profile sides (profile) run at once: from 0 (one per
 * hardware thread) to 4096. The numbers do not depend on it. */
ODESENS_API int odesens_fit_options_set_threads(odesens_fit_options* options, int64_t threads);
/* The stopping rules of one local optimization (a start, or a point of a
 * profile): iterations from 1 to INT64_MAX (ceres_lm: its steps; nlopt_lbfgs,
 * lbfgsb: their evaluations; ceres_lm_lbfgs: L-BFGS has what LM left), and wall-clock seconds of one start, finite and >= 0
 * (0: no limit; NaN or Inf: ODESENS_ERR_NOT_FINITE). */
ODESENS_API int odesens_fit_options_set_max_iterations(odesens_fit_options* options,
                                                       int64_t max_iterations);
ODESENS_API int odesens_fit_options_set_max_seconds(odesens_fit_options* options,
                                                    double max_seconds);
/* The simulations, as in odesens_petab_evaluate: a method id (NULL or ""
 * for "auto"; an unknown id: ODESENS_ERR_UNKNOWN_METHOD) and tolerances
 * (<= 0 for the defaults, 1e-8 relative and 1e-12 absolute; rtol must be
 * below 1; NaN or Inf: ODESENS_ERR_NOT_FINITE). */
ODESENS_API int odesens_fit_options_set_method(odesens_fit_options* options, const char* method);
ODESENS_API int odesens_fit_options_set_tolerances(odesens_fit_options* options, double rtol,
                                                   double atol);
/* Hierarchical optimization (docs/petab.md, "Hierarchical evaluation"):
 * nonzero: the optimizers vary the outer parameters only, and every
 * evaluation sets the inner ones (scalings, offsets and noise parameters
 * whose optimum given the others has a closed form:
 * odesens_petab_inner_parameter) to that optimum; 0 (the default): every
 * estimated parameter is optimized alike. Results hold the inner
 * parameters' values at each end point. */
ODESENS_API int odesens_fit_options_set_hierarchical(odesens_fit_options* options,
                                                     int64_t hierarchical);
/* The most points of each side of a profile, from 1 to 1000000 (50 by
 * default); a side that reaches it below the threshold stays open. */
ODESENS_API int odesens_fit_options_set_profile_max_points(odesens_fit_options* options,
                                                           int64_t max_points);
/* Asks every fit and profile running with `options` to stop: starts (or
 * profile sides) not begun are skipped, running ones end at their next
 * iteration, and the call returns what ended (odesens_fit_result_stopped
 * then says 1; a stopped profile side ends ODESENS_PROFILE_STOPPED). The one
 * call that may come from another thread while the options are in use.
 * The request stays, and stops every later fit or profile at once, until
 * odesens_fit_options_clear_stop. */
ODESENS_API int odesens_fit_options_stop(const odesens_fit_options* options);
ODESENS_API int odesens_fit_options_clear_stop(odesens_fit_options* options);

/* ---- parameter estimation: multi-start fits ---- */

/* Fits `petab` by local optimizations of its negative log-posterior from
 * many starts (`options`, or the defaults for NULL). *out is a new handle
 * owned by the caller (odesens_fit_result_free); it keeps its own
 * reference to the problem, which may be freed first. A simulation that
 * fails inside a start is a rejected step; a start whose first point
 * cannot be simulated fails alone (its status and exit reason say why), so
 * the call succeeds when the starts ran, even if none succeeded. Refused
 * before any start runs: start points of the wrong size or outside the
 * box, or starts to be drawn in a box with an infinite bound
 * (ODESENS_ERR_INVALID_ARGUMENT); ceres_lm or ceres_lm_lbfgs on a problem
 * without the least-squares form (ODESENS_ERR_UNSUPPORTED). The same
 * options give the same numbers, bit for bit, whatever the threads. */
ODESENS_API int odesens_petab_fit(const odesens_petab* petab, const odesens_fit_options* options,
                                  odesens_fit_result** out);
ODESENS_API void odesens_fit_result_free(odesens_fit_result* fit);
/* The number of starts that ran (= planned unless stopped), of estimated
 * parameters (the length of every point) and of starts planned; any output
 * may be NULL. */
ODESENS_API int odesens_fit_result_sizes(const odesens_fit_result* fit, int64_t* n_starts,
                                         int64_t* n_parameters, int64_t* starts_planned);
/* The optimizer that ran ("auto" resolved; the string belongs to the
 * result), the starts whose final nlpost is within 0.1 of the best one's
 * (the best included; 0 when none succeeded: how often the best was
 * found), and 1 if the fit was stopped before every start ran, else 0. */
ODESENS_API int odesens_fit_result_optimizer(const odesens_fit_result* fit,
                                             const char** optimizer);
ODESENS_API int odesens_fit_result_starts_at_best(const odesens_fit_result* fit, int64_t* count);
ODESENS_API int odesens_fit_result_stopped(const odesens_fit_result* fit, int64_t* stopped);
/* Start `rank` of the waterfall: the starts sorted by final nlpost, failed
 * ones last, rank 0 the best. Its final nlpost and nllh (NaN for a failed
 * start), the largest component of the projected gradient there, its wall
 * time, its index among the starts given or drawn, the local optimizer's
 * iterations and objective evaluations, and its status (ODESENS_OK, or the
 * odesens_status of the failure of its first point); any output may be
 * NULL. A rank outside [0, n_starts): ODESENS_ERR_INVALID_ARGUMENT. */
ODESENS_API int odesens_fit_result_start(const odesens_fit_result* fit, int64_t rank,
                                         double* nlpost, double* nllh, double* gradient_norm,
                                         double* seconds, int64_t* index, int64_t* iterations,
                                         int64_t* evaluations, int64_t* status);
/* The round of start `rank`: 0 for a start given or drawn, r for one of
 * hop round r (odesens_fit_options_set_hops). */
ODESENS_API int odesens_fit_result_start_round(const odesens_fit_result* fit, int64_t rank,
                                               int64_t* round);
/* *redrawn = 1 where start `rank` is a hop point that redrew parameter
 * `parameter` (0 to n_parameters - 1) from its range as one of the blocks
 * (odesens_fit_options_set_hop_blocks; the block's other parameters too,
 * every other parameter held at the round's center but for those without
 * effect there, drawn from their range: odesens_fit_options_set_hop_flat);
 * 0 otherwise, and for every parameter of any other start. */
ODESENS_API int odesens_fit_result_start_redrawn(const odesens_fit_result* fit, int64_t rank,
                                                 int64_t parameter, int64_t* redrawn);
/* *flat = 1 where nlpost does not depend on parameter `parameter` (0 to
 * n_parameters - 1) at the best end point: its gradient there is exactly
 * 0, so the data do not determine it there (a switch time past its
 * experiment's data); 0 otherwise, and for every parameter when no start
 * succeeded or the best start's gradient was not evaluated at its end (its
 * time limit or a stop ended it). */
ODESENS_API int odesens_fit_result_parameter_flat(const odesens_fit_result* fit,
                                                  int64_t parameter, int64_t* flat);
/* The blocks of the problem's parameters for the hops to redraw one at a
 * time (odesens_fit_options_set_hop_blocks): 0 without hops, with hop blocks
 * off, with one hop start a round, or where every experiment reads every
 * parameter. */
ODESENS_API int odesens_fit_result_hop_blocks(const odesens_fit_result* fit,
                                              int64_t* block_count);
/* The stopping rule the start met, or its failure, in words (the string
 * belongs to the result). */
ODESENS_API int odesens_fit_result_exit_reason(const odesens_fit_result* fit, int64_t rank,
                                               const char** reason);
/* The point start `rank` began at and the one it ended on, n_parameters
 * values on the parameters' scales (odesens_petab_parameter_id order) into
 * a buffer of `len`. */
ODESENS_API int odesens_fit_result_start_point(const odesens_fit_result* fit, int64_t rank,
                                               double* out, int64_t len);
ODESENS_API int odesens_fit_result_end_point(const odesens_fit_result* fit, int64_t rank,
                                             double* out, int64_t len);
/* The best point found: the end point of rank 0, and its nlpost (may be
 * NULL). A fit in which no start succeeded has none:
 * ODESENS_ERR_UNSUPPORTED. */
ODESENS_API int odesens_fit_result_best(const odesens_fit_result* fit, double* out, int64_t len,
                                        double* nlpost);
/* Writes the fit as the HDF5 document of `odesens fit --out`
 * (docs/fit.md: one row per start in the waterfall's order), whole or not
 * at all (PATH.partial renamed over `path`). A path that is empty, or that
 * exists and is neither a regular file nor a directory (a FIFO, a device):
 * ODESENS_ERR_INVALID_ARGUMENT; a directory, or a file that cannot be
 * written: ODESENS_ERR_IO. */
ODESENS_API int odesens_fit_result_write_h5(const odesens_fit_result* fit, const char* path);
/* Writes the best point as a PEtab parameter table (the problem's table
 * with nominalValue set to the best values, as `odesens fit --best`),
 * readable as a starting point of profiles and of other tools. No start
 * succeeded: ODESENS_ERR_UNSUPPORTED; a file that cannot be written:
 * ODESENS_ERR_IO. */
ODESENS_API int odesens_fit_result_write_best(const odesens_fit_result* fit, const char* path);
/* Draws waterfall.png and parameters.png into `folder` (created when
 * missing) with gnuplot, as `odesens fit --plot`. gnuplot missing:
 * ODESENS_ERR_UNSUPPORTED naming the package; the folder or a picture
 * that cannot be written: ODESENS_ERR_IO; no start succeeded:
 * ODESENS_ERR_UNSUPPORTED. */
ODESENS_API int odesens_fit_result_plot(const odesens_fit_result* fit, const char* folder);

/* ---- parameter estimation: profile likelihoods ---- */

/* Profiles of the estimated parameters whose indices are listed in
 * `indices` (n_indices values in [0, n), each once; n_indices 0 for all,
 * and indices may then be NULL), traced from x (the n = n_parameters values
 * of the problem on their scales, inside the box; normally a fit's best
 * point) towards both bounds with every other parameter re-optimized,
 * until nlpost rises by the threshold of the `confidence` level (in
 * (0, 1); 0.95: 1.92). `options` (NULL: the defaults) gives the optimizer,
 * its stopping rules, the simulations, the threads (sides traced at once)
 * and the points per side; starts and seed are not used. *out is a new
 * handle owned by the caller (odesens_profile_result_free), keeping its
 * own reference to the problem. A wrong size, index or confidence, or x
 * outside the box: ODESENS_ERR_INVALID_ARGUMENT; NaN or Inf in x or
 * confidence: ODESENS_ERR_NOT_FINITE; ceres_lm or ceres_lm_lbfgs on a
 * problem without the least-squares form: ODESENS_ERR_UNSUPPORTED; x that
 * cannot be
 * simulated: the status of its simulation. The numbers do not depend on
 * the threads. */
ODESENS_API int odesens_petab_profile(const odesens_petab* petab,
                                      const odesens_fit_options* options, const double* x,
                                      int64_t n, const int64_t* indices, int64_t n_indices,
                                      double confidence, odesens_profile_result** out);
ODESENS_API void odesens_profile_result_free(odesens_profile_result* profiles);
/* The number of profiles (in the order of `indices`, or of the
 * estimated parameters), and the confidence level they were traced for;
 * either output may be NULL. */
ODESENS_API int odesens_profile_result_count(const odesens_profile_result* profiles,
                                             int64_t* count, double* confidence);
/* Profile `index`'s confidence interval on the parameter's scale: the
 * parameter's index among the estimated ones, the lower and upper ends,
 * and how each side ended (odesens_profile_end; any but
 * ODESENS_PROFILE_CROSSED leaves that side open at the last value reached,
 * the bound when ended by it). Any output may be NULL. */
ODESENS_API int odesens_profile_result_interval(const odesens_profile_result* profiles,
                                                int64_t index, int64_t* parameter,
                                                double* lower, double* upper, int64_t* lower_end,
                                                int64_t* upper_end);
/* Why profile `index`'s sides ended failed (ODESENS_PROFILE_FAILED): the
 * value tried and the reason the others could not be re-optimized there;
 * "" for a side that did not fail (the strings belong to the result).
 * Either output may be NULL. */
ODESENS_API int odesens_profile_result_failures(const odesens_profile_result* profiles,
                                                int64_t index, const char** lower,
                                                const char** upper);
/* Profile `index`'s starting value of the parameter, the nlpost there, the
 * nlpost rise of the confidence level, its number of points (the starting
 * point among them), and 1 when a point of the profile has a lower nlpost
 * than the start by more than the optimizer's noise (the start was not a
 * local optimum: fit again from there), else 0. Any output may be NULL. */
ODESENS_API int odesens_profile_result_info(const odesens_profile_result* profiles,
                                            int64_t index, double* start, double* best_nlpost,
                                            double* threshold, int64_t* n_points,
                                            int64_t* found_better);
/* Profile `index`'s n_points points sorted by value: the parameter's
 * values (on its scale) and the nlpost with the others re-optimized, into
 * buffers of `len` each; either may be NULL. */
ODESENS_API int odesens_profile_result_points(const odesens_profile_result* profiles,
                                              int64_t index, double* values, double* nlpost,
                                              int64_t len);
/* Point `point` of profile `index` as a whole: the n_parameters values of
 * the problem on their scales (the others re-optimized). */
ODESENS_API int odesens_profile_result_point(const odesens_profile_result* profiles,
                                             int64_t index, int64_t point, double* out,
                                             int64_t len);
/* Draws profiles_K.png (12 profiles a page) into `folder` with gnuplot, as
 * `odesens profile --plot`; the errors of odesens_fit_result_plot. */
ODESENS_API int odesens_profile_result_plot(const odesens_profile_result* profiles,
                                            const char* folder);

#ifdef __cplusplus
}
#endif

#endif /* ODESENS_H */
