/* Hostile call sequences on the C ABI: NULL, freed and wrong-kind handles,
 * wrong, negative and huge sizes, buffers too small, values that are not
 * finite and calls in the wrong order. One function per case; each checks
 * the status of every call and a fragment of odesens_errmsg, never crashes
 * on purpose, and cleans up after itself (the suite runs under
 * LeakSanitizer).
 *
 *   hostile_capi CASE     runs one case: exit status 0 when its checks hold
 *   hostile_capi --list   prints the case names
 *
 * tests/hostile/run_hostile.py runs each case in a process of its own with
 * a time and a memory limit, and reads the table at the end of this file
 * (name, function, and NULL or the reason the case is pending, as a string
 * or one of the macros below; keep each row on one line of that shape) to
 * know the cases and which are pending; ctest's hostile.capi_table_is_complete
 * checks that it reads them all.
 *
 * Using a handle after it is freed is undefined behaviour that no library
 * can report reliably (AddressSanitizer rightly stops at the read), so the
 * "freed handle" cases are the documented orders of freeing. */
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

/* `call` returns `expected` and odesens_errmsg(handle) contains `fragment`. */
#define EXPECT(call, expected, handle, fragment)      \
  do {                                                \
    CHECK_STATUS(call, expected);                     \
    CHECK_MESSAGE(odesens_errmsg(handle), fragment);  \
  } while (0)

static const char* decay_ode = "param k = 0.5\nstate x = 1\ndx/dt = -k*x\n";
static const char* decay_sbml =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<sbml xmlns=\"http://www.sbml.org/sbml/level3/version2/core\" level=\"3\" version=\"2\">\n"
    "<model id=\"m\"><listOfCompartments><compartment id=\"c\" size=\"1\" constant=\"true\"/>"
    "</listOfCompartments><listOfSpecies><species id=\"S\" compartment=\"c\" initialAmount=\"1\" "
    "hasOnlySubstanceUnits=\"false\" boundaryCondition=\"false\" constant=\"false\"/>"
    "</listOfSpecies><listOfParameters><parameter id=\"k\" value=\"0.5\" constant=\"true\"/>"
    "</listOfParameters><listOfReactions><reaction id=\"R\" reversible=\"false\">"
    "<listOfReactants><speciesReference species=\"S\" stoichiometry=\"1\" constant=\"true\"/>"
    "</listOfReactants><kineticLaw><math xmlns=\"http://www.w3.org/1998/Math/MathML\">"
    "<apply><times/><ci>k</ci><ci>S</ci></apply></math></kineticLaw></reaction>"
    "</listOfReactions>%s</model></sbml>\n";

/* ---- models, solvers and results the cases start from ---- */

static int decay_rhs(double t, const double* x, const double* p, double* xdot, void* user) {
  (void)t;
  (void)user;
  xdot[0] = -p[0] * x[0];
  return 0;
}

static int failing_rhs(double t, const double* x, const double* p, double* xdot, void* user) {
  (void)x;
  (void)p;
  (void)xdot;
  (void)user;
  return t > 0.25 ? 7 : (xdot[0] = 0.0, 0);
}

static int nan_rhs(double t, const double* x, const double* p, double* xdot, void* user) {
  (void)x;
  (void)p;
  (void)user;
  xdot[0] = t > 0.25 ? NAN : 0.0;
  return 0;
}

/* x' = -k x, x(0) = 1, k = 0.5, as a callback model. */
static odesens_model* callback_model(odesens_rhs_fn f) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_create(1, 1, f, NULL, &m));
  const double k = 0.5, x0 = 1.0;
  CHECK_OK(odesens_model_set_nominal_params(m, &k, 1));
  CHECK_OK(odesens_model_set_x0(m, &x0, 1));
  return m;
}

static odesens_model* text_model(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(decay_ode, &m));
  return m;
}

/* A solver of `m` with output times 0.5 and 1. */
static odesens_solver* solver_for(const odesens_model* m, const char* method) {
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, method, &s));
  const double times[2] = {0.5, 1.0};
  CHECK_OK(odesens_solver_set_output_times(s, times, 2));
  return s;
}

static odesens_result* result_of(const char* method) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, method);
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  odesens_solver_free(s);
  odesens_model_free(m);
  return r;
}

/* ---- handles ---- */

static void null_model_handle(void) {
  int64_t nx = -1, np = -1;
  EXPECT(odesens_model_sizes(NULL, &nx, &np), ODESENS_ERR_NULL_HANDLE, NULL,
         "the model handle is NULL");
  CHECK(nx == -1 && np == -1);
  double p[1];
  EXPECT(odesens_model_nominal_params(NULL, p, 1), ODESENS_ERR_NULL_HANDLE, NULL, "NULL");
  const char* name = NULL;
  EXPECT(odesens_model_state_name(NULL, 0, &name), ODESENS_ERR_NULL_HANDLE, NULL, "NULL");
  EXPECT(odesens_model_set_x0(NULL, p, 1), ODESENS_ERR_NULL_HANDLE, NULL, "NULL");
  odesens_solver* s = (odesens_solver*)&s;
  EXPECT(odesens_solver_create(NULL, "cvodes_fsa", &s), ODESENS_ERR_NULL_HANDLE, NULL,
         "the model handle is NULL");
  CHECK(s == NULL);
}

static void null_solver_handle(void) {
  const double v[1] = {1.0};
  EXPECT(odesens_solver_set_params(NULL, v, 1), ODESENS_ERR_NULL_HANDLE, NULL,
         "the solver handle is NULL");
  EXPECT(odesens_solver_set_output_times(NULL, v, 1), ODESENS_ERR_NULL_HANDLE, NULL, "solver");
  EXPECT(odesens_solver_set_tolerances(NULL, 1e-6, 1e-8), ODESENS_ERR_NULL_HANDLE, NULL,
         "solver");
  EXPECT(odesens_solver_set_option_int(NULL, "sensitivities", 0), ODESENS_ERR_NULL_HANDLE, NULL,
         "solver");
  EXPECT(odesens_solver_add_observable(NULL, "x"), ODESENS_ERR_NULL_HANDLE, NULL, "solver");
  odesens_result* r = (odesens_result*)&r;
  EXPECT(odesens_solve(NULL, &r), ODESENS_ERR_NULL_HANDLE, NULL, "solver");
  CHECK(r == NULL);
}

static void null_result_handle(void) {
  int64_t n = -1;
  EXPECT(odesens_result_sizes(NULL, &n, NULL, NULL, NULL, NULL), ODESENS_ERR_NULL_HANDLE, NULL,
         "the result handle is NULL");
  CHECK(n == -1);
  double out[4];
  EXPECT(odesens_result_x(NULL, out, 4), ODESENS_ERR_NULL_HANDLE, NULL, "result");
  const double* data = NULL;
  EXPECT(odesens_result_data(NULL, ODESENS_ARRAY_X, &data, &n), ODESENS_ERR_NULL_HANDLE, NULL,
         "result");
  EXPECT(odesens_result_stat_count(NULL, &n), ODESENS_ERR_NULL_HANDLE, NULL, "result");
}

static void free_null_handles(void) {
  odesens_model_free(NULL);
  odesens_solver_free(NULL);
  odesens_result_free(NULL);
  /* Freeing NULL changed nothing: the library still works. */
  odesens_model* m = text_model();
  int64_t nx = 0;
  CHECK_OK(odesens_model_sizes(m, &nx, NULL));
  CHECK(nx == 1);
  odesens_model_free(m);
}

static void wrong_handle_kinds(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  int64_t n = -1;
  EXPECT(odesens_model_sizes((const odesens_model*)s, &n, NULL), ODESENS_ERR_NULL_HANDLE, NULL,
         "is a solver, not a model");
  EXPECT(odesens_solver_set_max_steps((odesens_solver*)r, 5), ODESENS_ERR_NULL_HANDLE, NULL,
         "is a result, not a solver");
  EXPECT(odesens_result_sizes((const odesens_result*)m, &n, NULL, NULL, NULL, NULL),
         ODESENS_ERR_NULL_HANDLE, NULL, "is a model, not a result");
  /* Freeing through the wrong function does nothing; the handles stay usable. */
  odesens_model_free((odesens_model*)s);
  odesens_solver_free((odesens_solver*)r);
  odesens_result_free((odesens_result*)m);
  CHECK_OK(odesens_model_sizes(m, &n, NULL));
  CHECK_OK(odesens_solver_set_max_steps(s, 100));
  CHECK_OK(odesens_result_sizes(r, &n, NULL, NULL, NULL, NULL));
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void not_a_handle(void) {
  /* Zeroed memory as large as any handle's header. */
  static const uint64_t zeros[16] = {0};
  int64_t n = -1;
  EXPECT(odesens_model_sizes((const odesens_model*)zeros, &n, NULL), ODESENS_ERR_NULL_HANDLE,
         NULL, "the model handle is not an odesens handle");
  CHECK(n == -1);
  CHECK_MESSAGE(odesens_errmsg(zeros), "not an odesens handle");
}

static void model_freed_before_solver(void) {
  odesens_model* m = callback_model(decay_rhs);
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  odesens_model_free(m);
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  double x[2] = {0.0, 0.0};
  CHECK_OK(odesens_result_x(r, x, 2));
  CHECK(fabs(x[1] - exp(-0.5)) < 1e-6);
  odesens_result_free(r);
  odesens_solver_free(s);
}

static void solver_freed_before_result(void) {
  odesens_result* r = result_of("cvodes_fsa");
  double s[2] = {0.0, 0.0};
  CHECK_OK(odesens_result_s(r, s, 2));
  CHECK(fabs(s[1] + exp(-0.5)) < 1e-5); /* dx/dk = -t e^{-kt} at t = 1 */
  const char* method = NULL;
  CHECK_OK(odesens_result_method(r, &method));
  CHECK(method && strcmp(method, "cvodes_fsa") == 0);
  odesens_result_free(r);
}

static void messages_stay_with_their_handle(void) {
  odesens_model* m = text_model();
  odesens_solver* a = solver_for(m, "cvodes_fsa");
  odesens_solver* b = solver_for(m, "cvodes_fsa");
  CHECK_STATUS(odesens_solver_set_max_steps(a, -3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_OK(odesens_solver_set_max_steps(b, 3));
  CHECK_MESSAGE(odesens_errmsg(a), "odesens_solver_set_max_steps: max_steps must be positive");
  CHECK(odesens_errmsg(b)[0] == '\0');
  CHECK_STATUS(odesens_solver_set_t0(b, NAN), ODESENS_ERR_NOT_FINITE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "t0 is NaN or Inf");
  CHECK_MESSAGE(odesens_errmsg(a), "max_steps");
  odesens_solver_free(a);
  odesens_solver_free(b);
  odesens_model_free(m);
}

static void status_strings_of_unknown_codes(void) {
  const int codes[] = {1, -15, -98, 12345, INT_MIN, INT_MAX};
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i) {
    const char* s = odesens_status_string(codes[i]);
    CHECK(s != NULL && s[0] != '\0');
  }
  CHECK_MESSAGE(odesens_status_string(ODESENS_ERR_BUFFER_TOO_SMALL), "buffer");
}

/* ---- models from text, files and built-ins ---- */

static void text_null_arguments(void) {
  odesens_model* m = (odesens_model*)&m;
  EXPECT(odesens_model_from_text(NULL, &m), ODESENS_ERR_NULL_HANDLE, NULL, "text is NULL");
  CHECK(m == NULL);
  EXPECT(odesens_model_from_text(decay_ode, NULL), ODESENS_ERR_NULL_HANDLE, NULL,
         "out is NULL");
}

static void text_empty(void) {
  odesens_model* m = (odesens_model*)&m;
  EXPECT(odesens_model_from_text("", &m), ODESENS_ERR_PARSE, NULL,
         "<text>:1:1: the model declares no state");
  CHECK(m == NULL);
  EXPECT(odesens_model_from_text("   \n\t\n", &m), ODESENS_ERR_PARSE, NULL, "<text>:");
}

static void text_malformed_ode(void) {
  odesens_model* m = NULL;
  EXPECT(odesens_model_from_text("state x = 1\ndx/dt = (x\n", &m), ODESENS_ERR_PARSE, NULL,
         "<text>:2:9: unbalanced parenthesis");
  EXPECT(odesens_model_from_text("state x = 1\ndx/dt = k*x\n", &m), ODESENS_ERR_PARSE, NULL,
         "unknown name 'k'");
  EXPECT(odesens_model_from_text("param k = 1\xff\nstate x = 1\ndx/dt = -x\n", &m),
         ODESENS_ERR_PARSE, NULL, "<text>:1:");
  CHECK(m == NULL);
}

static void text_malformed_sbml(void) {
  odesens_model* m = NULL;
  EXPECT(odesens_model_from_text("<sbml", &m), ODESENS_ERR_PARSE, NULL, "<text>");
  EXPECT(odesens_model_from_text("  <?xml version=\"1.0\"?><sbml/>", &m), ODESENS_ERR_PARSE,
         NULL, "<text>");
  CHECK(m == NULL);
}

static void text_sbml_event(void) {
  char text[4096];
  snprintf(text, sizeof text, decay_sbml,
           "<listOfEvents><event id=\"e\" useValuesFromTriggerTime=\"true\"><trigger "
           "initialValue=\"true\" persistent=\"true\"><math "
           "xmlns=\"http://www.w3.org/1998/Math/MathML\"><true/></math></trigger></event>"
           "</listOfEvents>");
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(text, &m));  /* an event without assignments */
  odesens_model_free(m);
  m = NULL;
  snprintf(text, sizeof text, decay_sbml,
           "<listOfEvents><event id=\"e\" useValuesFromTriggerTime=\"true\"><trigger "
           "initialValue=\"true\" persistent=\"true\"><math "
           "xmlns=\"http://www.w3.org/1998/Math/MathML\"><true/></math></trigger>"
           "<listOfEventAssignments><eventAssignment variable=\"k\"><math "
           "xmlns=\"http://www.w3.org/1998/Math/MathML\"><cn>1</cn></math></eventAssignment>"
           "</listOfEventAssignments></event></listOfEvents>");
  EXPECT(odesens_model_from_text(text, &m), ODESENS_ERR_PARSE, NULL, "is declared constant");
  CHECK(m == NULL);
  snprintf(text, sizeof text, decay_sbml, "");
  CHECK_OK(odesens_model_from_text(text, &m));
  odesens_model_free(m);
}

static void text_with_bom(void) {
  char text[256];
  snprintf(text, sizeof text, "\xEF\xBB\xBF%s", decay_ode);
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(text, &m));
  odesens_model_free(m);
}

static void text_huge_expression(void) {
  /* dx/dt = -x - x - ... (100000 terms): loads, and the sum is exact. */
  const int terms = 100000;
  char* text = malloc(32 + (size_t)terms * 4);
  CHECK(text != NULL);
  if (!text) return;
  char* end = text + sprintf(text, "state x = 1\ndx/dt = 0");
  for (int i = 0; i < terms; ++i) end += sprintf(end, "-x");
  strcpy(end, "\n");
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(text, &m));
  free(text);
  int64_t nx = 0, np = -1;
  CHECK_OK(odesens_model_sizes(m, &nx, &np));
  CHECK(nx == 1 && np == 0);
  odesens_model_free(m);
}

static void file_null_and_missing(void) {
  odesens_model* m = (odesens_model*)&m;
  EXPECT(odesens_model_from_file(NULL, &m), ODESENS_ERR_NULL_HANDLE, NULL, "path is NULL");
  CHECK(m == NULL);
  EXPECT(odesens_model_from_file("/nonexistent/odesens/model.ode", &m), ODESENS_ERR_UNKNOWN_MODEL,
         NULL, "No such file or directory");
  EXPECT(odesens_model_from_file("", &m), ODESENS_ERR_UNKNOWN_MODEL, NULL, "''");
  EXPECT(odesens_model_from_sbml_file(NULL, NULL, &m), ODESENS_ERR_NULL_HANDLE, NULL, "path");
}

static void file_is_directory(void) {
  odesens_model* m = NULL;
  EXPECT(odesens_model_from_file("/", &m), ODESENS_ERR_IO, NULL, "directory");
  EXPECT(odesens_model_from_sbml_file("/tmp", NULL, &m), ODESENS_ERR_IO, NULL, "directory");
}

static void file_is_endless_device(void) {
  odesens_model* m = NULL;
  EXPECT(odesens_model_from_file("/dev/zero", &m), ODESENS_ERR_IO, NULL, "not a regular file");
}

/* A file of `text` in the temporary directory; its path in `path`. */
static int write_temporary(char* path, size_t size, const char* text) {
  const char* dir = getenv("TMPDIR");
  snprintf(path, size, "%s/odesens_hostile_capi_%ld.xml", dir && *dir ? dir : "/tmp",
           (long)rand());
  FILE* f = fopen(path, "w");
  if (!f) return 0;
  fputs(text, f);
  fclose(f);
  return 1;
}

static void sbml_file_bad_sensitivity_ids(void) {
  char text[4096], path[512];
  snprintf(text, sizeof text, decay_sbml, "");
  CHECK(write_temporary(path, sizeof path, text));
  odesens_model* m = NULL;
  EXPECT(odesens_model_from_sbml_file(path, "k,,c", &m), ODESENS_ERR_INVALID_ARGUMENT, NULL,
         "empty id");
  EXPECT(odesens_model_from_sbml_file(path, ",", &m), ODESENS_ERR_INVALID_ARGUMENT, NULL,
         "empty id");
  EXPECT(odesens_model_from_sbml_file(path, "nosuch", &m), ODESENS_ERR_INVALID_ARGUMENT, NULL,
         "sensitivity parameter 'nosuch': the model has no such id");
  EXPECT(odesens_model_from_sbml_file(path, "k,k", &m), ODESENS_ERR_INVALID_ARGUMENT, NULL,
         "listed twice");
  EXPECT(odesens_model_from_sbml_file(path, "S", &m), ODESENS_ERR_INVALID_ARGUMENT, NULL,
         "'S' cannot be a sensitivity parameter");
  CHECK(m == NULL);
  CHECK_OK(odesens_model_from_sbml_file(path, "", &m));
  int64_t np = -1;
  CHECK_OK(odesens_model_sizes(m, NULL, &np));
  CHECK(np == 0);
  odesens_model_free(m);
  remove(path);
}

static void builtin_bad_names(void) {
  odesens_model* m = (odesens_model*)&m;
  EXPECT(odesens_model_from_builtin(NULL, &m), ODESENS_ERR_NULL_HANDLE, NULL, "name is NULL");
  CHECK(m == NULL);
  EXPECT(odesens_model_from_builtin("nosuch", &m), ODESENS_ERR_UNKNOWN_MODEL, NULL,
         "unknown built-in model 'nosuch'");
  EXPECT(odesens_model_from_builtin("", &m), ODESENS_ERR_UNKNOWN_MODEL, NULL,
         "unknown built-in model ''");
  EXPECT(odesens_model_from_builtin("builtin:", &m), ODESENS_ERR_UNKNOWN_MODEL, NULL, "''");
  EXPECT(odesens_model_from_builtin("chua", NULL), ODESENS_ERR_NULL_HANDLE, NULL, "out");
}

static void builtin_bad_sizes(void) {
  odesens_model* m = NULL;
  EXPECT(odesens_model_from_builtin("glv:0", &m), ODESENS_ERR_UNKNOWN_MODEL, NULL,
         "size must be in [1, 1000]");
  EXPECT(odesens_model_from_builtin("glv:-1", &m), ODESENS_ERR_UNKNOWN_MODEL, NULL,
         "is not a positive integer");
  EXPECT(odesens_model_from_builtin("glv:", &m), ODESENS_ERR_UNKNOWN_MODEL, NULL,
         "size '' is not a positive integer");
  EXPECT(odesens_model_from_builtin("heat2d:100000", &m), ODESENS_ERR_UNKNOWN_MODEL, NULL,
         "size must be in [3, 1000]");
  EXPECT(odesens_model_from_builtin("linear:99999999999999999999", &m),
         ODESENS_ERR_UNKNOWN_MODEL, NULL, "size must be in [1, 5000]");
  EXPECT(odesens_model_from_builtin("network:1e6", &m), ODESENS_ERR_UNKNOWN_MODEL, NULL,
         "is not a positive integer");
  CHECK(m == NULL);
}

/* ---- callback models ---- */

static void create_bad_sizes(void) {
  odesens_model* m = (odesens_model*)&m;
  EXPECT(odesens_model_create(0, 1, decay_rhs, NULL, &m), ODESENS_ERR_INVALID_ARGUMENT, NULL,
         "nx must be");
  CHECK(m == NULL);
  EXPECT(odesens_model_create(-1, 1, decay_rhs, NULL, &m), ODESENS_ERR_INVALID_ARGUMENT, NULL,
         "nx must be");
  EXPECT(odesens_model_create(INT64_MIN, 1, decay_rhs, NULL, &m), ODESENS_ERR_INVALID_ARGUMENT,
         NULL, "nx must be");
  EXPECT(odesens_model_create(1, -1, decay_rhs, NULL, &m), ODESENS_ERR_INVALID_ARGUMENT, NULL,
         "np must");
  EXPECT(odesens_model_create(1, 1, NULL, NULL, &m), ODESENS_ERR_NULL_HANDLE, NULL,
         "the right-hand side f is NULL");
  EXPECT(odesens_model_create(1, 1, decay_rhs, NULL, NULL), ODESENS_ERR_NULL_HANDLE, NULL,
         "out is NULL");
}

static void create_nx_int64_max(void) {
  odesens_model* m = NULL;
  EXPECT(odesens_model_create(INT64_MAX, 0, decay_rhs, NULL, &m), ODESENS_ERR_INVALID_ARGUMENT,
         NULL, "nx must be from 1 to");
  odesens_model_free(m);
}

static void create_np_int64_max(void) {
  odesens_model* m = NULL;
  EXPECT(odesens_model_create(1, INT64_MAX, decay_rhs, NULL, &m), ODESENS_ERR_INVALID_ARGUMENT,
         NULL, "np must be from 0 to");
  odesens_model_free(m);
}

static void names_out_of_range(void) {
  odesens_model* m = callback_model(decay_rhs);
  const char* name = NULL;
  const int64_t bad[] = {-1, 1, 2, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    EXPECT(odesens_model_state_name(m, bad[i], &name), ODESENS_ERR_INVALID_ARGUMENT, m,
           "is out of range [0, 1)");
    EXPECT(odesens_model_param_name(m, bad[i], &name), ODESENS_ERR_INVALID_ARGUMENT, m,
           "is out of range [0, 1)");
    EXPECT(odesens_model_set_state_name(m, bad[i], "y"), ODESENS_ERR_INVALID_ARGUMENT, m,
           "state index");
  }
  CHECK(name == NULL);
  EXPECT(odesens_model_state_name(m, 0, NULL), ODESENS_ERR_NULL_HANDLE, m, "name is NULL");
  EXPECT(odesens_model_set_state_name(m, 0, NULL), ODESENS_ERR_NULL_HANDLE, m, "name is NULL");
  EXPECT(odesens_model_set_name(m, NULL), ODESENS_ERR_NULL_HANDLE, m, "name is NULL");
  odesens_model_free(m);
}

static void names_of_model_without_parameters(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text("state x = 1\ndx/dt = -x\n", &m));
  const char* name = NULL;
  EXPECT(odesens_model_param_name(m, 0, &name), ODESENS_ERR_INVALID_ARGUMENT, m,
         "out of range [0, 0)");
  double p[1] = {42.0};
  CHECK_OK(odesens_model_nominal_params(m, p, 0));
  CHECK_OK(odesens_model_nominal_params(m, NULL, 0));
  CHECK(p[0] == 42.0);
  odesens_model_free(m);
}

static void nominal_params_buffers(void) {
  odesens_model* m = text_model();
  double p[2] = {-1.0, -1.0};
  EXPECT(odesens_model_nominal_params(m, p, 0), ODESENS_ERR_BUFFER_TOO_SMALL, m,
         "out has room for 0 values, 1 needed");
  CHECK(p[0] == -1.0);
  EXPECT(odesens_model_nominal_params(m, p, -1), ODESENS_ERR_INVALID_ARGUMENT, m,
         "length of out is negative (-1)");
  EXPECT(odesens_model_nominal_params(m, p, INT64_MIN), ODESENS_ERR_INVALID_ARGUMENT, m,
         "negative");
  EXPECT(odesens_model_nominal_params(m, NULL, 1), ODESENS_ERR_NULL_HANDLE, m, "out is NULL");
  /* A length larger than the data: only the data is written. */
  CHECK_OK(odesens_model_nominal_params(m, p, INT64_MAX));
  CHECK(p[0] == 0.5 && p[1] == -1.0);
  odesens_model_free(m);
}

static void callback_setters_bad_vectors(void) {
  odesens_model* m = callback_model(decay_rhs);
  const double two[2] = {1.0, 2.0}, bad[1] = {NAN}, inf[1] = {INFINITY};
  EXPECT(odesens_model_set_x0(m, two, 2), ODESENS_ERR_INVALID_ARGUMENT, m,
         "x0 has 2 entries, expected 1");
  EXPECT(odesens_model_set_x0(m, two, INT64_MAX), ODESENS_ERR_INVALID_ARGUMENT, m,
         "expected 1");
  EXPECT(odesens_model_set_x0(m, two, -2), ODESENS_ERR_INVALID_ARGUMENT, m, "negative");
  EXPECT(odesens_model_set_x0(m, NULL, 1), ODESENS_ERR_NULL_HANDLE, m, "x0 is NULL");
  EXPECT(odesens_model_set_x0(m, bad, 1), ODESENS_ERR_NOT_FINITE, m, "x0[0] is NaN or Inf");
  EXPECT(odesens_model_set_nominal_params(m, inf, 1), ODESENS_ERR_NOT_FINITE, m,
         "p[0] is NaN or Inf");
  EXPECT(odesens_model_set_nominal_params(m, two, 2), ODESENS_ERR_INVALID_ARGUMENT, m,
         "nominal parameter vector has 2 entries, expected 1");
  double p[1] = {0.0};
  CHECK_OK(odesens_model_nominal_params(m, p, 1));
  CHECK(p[0] == 0.5);
  odesens_model_free(m);
}

static void setters_on_models_that_cannot_change(void) {
  odesens_model* t = text_model();
  odesens_model* b = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &b));
  const double x0[3] = {1.0, 2.0, 3.0};
  EXPECT(odesens_model_set_x0(t, x0, 1), ODESENS_ERR_UNSUPPORTED, t,
         "only callback models can be changed");
  EXPECT(odesens_model_set_x0(b, x0, 3), ODESENS_ERR_UNSUPPORTED, b,
         "only callback models can be changed");
  EXPECT(odesens_model_set_name(t, "renamed"), ODESENS_ERR_UNSUPPORTED, t, "<text>");
  EXPECT(odesens_model_set_jac_x(b, NULL), ODESENS_ERR_UNSUPPORTED, b, "builtin:chua");
  odesens_model_free(b);
  odesens_model_free(t);
}

static void sparsity_patterns_that_are_wrong(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_create(2, 0, decay_rhs, NULL, &m));
  const int64_t col_ptr[3] = {0, 1, 2}, rows[3] = {0, 1, 1};
  const int64_t decreasing[3] = {0, 2, 1}, bad_rows[2] = {0, 5}, unsorted[3] = {0, 2, 2},
                swapped[2] = {1, 0};
  /* nnz = 3 entries of row_idx given, but col_ptr[nx] = 2. */
  EXPECT(odesens_model_set_sparsity(m, 3, col_ptr, rows), ODESENS_ERR_INVALID_ARGUMENT, m,
         "differs from nnz = 3");
  EXPECT(odesens_model_set_sparsity(m, -1, col_ptr, rows), ODESENS_ERR_INVALID_ARGUMENT, m,
         "nnz must be from 0 to 4 (got -1)");
  EXPECT(odesens_model_set_sparsity(m, 1, decreasing, rows), ODESENS_ERR_INVALID_ARGUMENT, m,
         "sparsity pattern: col_ptr decreases at column 1");
  EXPECT(odesens_model_set_sparsity(m, 2, col_ptr, bad_rows), ODESENS_ERR_INVALID_ARGUMENT, m,
         "row index 5 out of range in column 1");
  EXPECT(odesens_model_set_sparsity(m, 2, unsorted, swapped), ODESENS_ERR_INVALID_ARGUMENT, m,
         "row indices not strictly increasing in column 0");
  EXPECT(odesens_model_set_sparsity(m, 2, col_ptr, NULL), ODESENS_ERR_NULL_HANDLE, m,
         "row_idx is NULL");
  CHECK_OK(odesens_model_set_jac_x_sparse(m, NULL));
  CHECK_OK(odesens_model_set_sparsity(m, 2, col_ptr, rows));
  CHECK_OK(odesens_model_set_sparsity(m, 0, NULL, NULL));
  odesens_model_free(m);
}

static int sparse_jac(double t, const double* x, const double* p, double* values, void* user) {
  (void)t;
  (void)x;
  (void)p;
  (void)user;
  values[0] = -1.0;
  return 0;
}

static void sparse_jacobian_before_pattern(void) {
  odesens_model* m = callback_model(decay_rhs);
  EXPECT(odesens_model_set_jac_x_sparse(m, sparse_jac), ODESENS_ERR_INVALID_ARGUMENT, m,
         "call odesens_model_set_sparsity first");
  odesens_model_free(m);
}

static void sparsity_nnz_int64_max(void) {
  odesens_model* m = callback_model(decay_rhs);
  const int64_t col_ptr[2] = {0, 1}, rows[1] = {0};
  EXPECT(odesens_model_set_sparsity(m, INT64_MAX, col_ptr, rows), ODESENS_ERR_INVALID_ARGUMENT, m,
         "nnz must be from 0 to 1");
  odesens_model_free(m);
}

/* ---- solvers ---- */

static void solver_create_bad_arguments(void) {
  odesens_model* m = text_model();
  odesens_solver* s = (odesens_solver*)&s;
  EXPECT(odesens_solver_create(m, NULL, &s), ODESENS_ERR_NULL_HANDLE, NULL, "method is NULL");
  CHECK(s == NULL);
  EXPECT(odesens_solver_create(m, "nosuch", &s), ODESENS_ERR_UNKNOWN_METHOD, NULL,
         "unknown method 'nosuch' (methods: cvodes_fsa");
  EXPECT(odesens_solver_create(m, "", &s), ODESENS_ERR_UNKNOWN_METHOD, NULL,
         "unknown method ''");
  EXPECT(odesens_solver_create(m, "cvodes_fsa ", &s), ODESENS_ERR_UNKNOWN_METHOD, NULL,
         "unknown method");
  EXPECT(odesens_solver_create(m, "cvodes_fsa", NULL), ODESENS_ERR_NULL_HANDLE, NULL,
         "out is NULL");
  odesens_model_free(m);
}

static void solve_in_wrong_order(void) {
  odesens_model* m = text_model();
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  odesens_result* r = (odesens_result*)&r;
  EXPECT(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT, s, "no output times given");
  CHECK(r == NULL);
  const double times[1] = {1.0};
  CHECK_OK(odesens_solver_set_output_times(s, times, 1));
  EXPECT(odesens_solve(s, NULL), ODESENS_ERR_NULL_HANDLE, s, "result is NULL");
  CHECK_OK(odesens_solver_set_t0(s, 2.0));
  EXPECT(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT, s, "before t0 = 2");
  CHECK(r == NULL);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void output_times_wrong(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  const double decreasing[2] = {1.0, 0.5}, equal[2] = {1.0, 1.0}, nan[2] = {0.0, NAN},
               inf[1] = {INFINITY};
  EXPECT(odesens_solver_set_output_times(s, decreasing, 2), ODESENS_ERR_INVALID_ARGUMENT, s,
         "output times must be strictly increasing");
  EXPECT(odesens_solver_set_output_times(s, equal, 2), ODESENS_ERR_INVALID_ARGUMENT, s,
         "strictly increasing");
  EXPECT(odesens_solver_set_output_times(s, nan, 2), ODESENS_ERR_NOT_FINITE, s,
         "times[1] is NaN or Inf");
  EXPECT(odesens_solver_set_output_times(s, inf, 1), ODESENS_ERR_NOT_FINITE, s, "NaN or Inf");
  EXPECT(odesens_solver_set_output_times(s, decreasing, 0), ODESENS_ERR_INVALID_ARGUMENT, s,
         "output time");
  EXPECT(odesens_solver_set_output_times(s, decreasing, -1), ODESENS_ERR_INVALID_ARGUMENT, s,
         "-1");
  EXPECT(odesens_solver_set_output_times(s, NULL, 2), ODESENS_ERR_NULL_HANDLE, s,
         "times is NULL");
  /* The times set before are still there. */
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  int64_t n = 0;
  CHECK_OK(odesens_result_sizes(r, &n, NULL, NULL, NULL, NULL));
  CHECK(n == 2);
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void output_times_int64_max(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  const double times[2] = {0.5, 1.0};
  EXPECT(odesens_solver_set_output_times(s, times, INT64_MAX), ODESENS_ERR_INVALID_ARGUMENT, s,
         "output times");
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void tolerances_wrong(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  EXPECT(odesens_solver_set_tolerances(s, 0.0, 1e-8), ODESENS_ERR_INVALID_ARGUMENT, s, "rtol");
  EXPECT(odesens_solver_set_tolerances(s, -1e-6, 1e-8), ODESENS_ERR_INVALID_ARGUMENT, s, "rtol");
  EXPECT(odesens_solver_set_tolerances(s, NAN, 1e-8), ODESENS_ERR_NOT_FINITE, s,
         "rtol is NaN or Inf");
  EXPECT(odesens_solver_set_tolerances(s, 1e-6, -1.0), ODESENS_ERR_INVALID_ARGUMENT, s, "atol");
  EXPECT(odesens_solver_set_tolerances(s, 1e-6, INFINITY), ODESENS_ERR_NOT_FINITE, s,
         "atol is NaN or Inf");
  EXPECT(odesens_solver_set_tolerances(s, DBL_TRUE_MIN, 0.0), ODESENS_ERR_INVALID_ARGUMENT, s,
         "below the machine epsilon");
  CHECK_OK(odesens_solver_set_tolerances(s, DBL_EPSILON, 0.0));
  const double two[2] = {1e-8, 1e-8}, negative[1] = {-1e-8};
  EXPECT(odesens_solver_set_atol_vector(s, two, 2), ODESENS_ERR_INVALID_ARGUMENT, s,
         "atol has 2 entries, expected 1 or nx = 1");
  EXPECT(odesens_solver_set_atol_vector(s, two, 0), ODESENS_ERR_INVALID_ARGUMENT, s,
         "atol has 0 entries");
  EXPECT(odesens_solver_set_atol_vector(s, negative, 1), ODESENS_ERR_INVALID_ARGUMENT, s,
         "atol must not be negative, got -1e-08");
  EXPECT(odesens_solver_set_atol_vector(s, NULL, 1), ODESENS_ERR_NULL_HANDLE, s, "atol is NULL");
  EXPECT(odesens_solver_set_atol_vector(s, two, -5), ODESENS_ERR_INVALID_ARGUMENT, s,
         "negative");
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void rtol_one(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  EXPECT(odesens_solver_set_tolerances(s, 1.0, 1e-8), ODESENS_ERR_INVALID_ARGUMENT, s,
         "rtol must be in (0, 1)");
  EXPECT(odesens_solver_set_tolerances(s, 1e300, 1e-8), ODESENS_ERR_INVALID_ARGUMENT, s,
         "rtol must be in (0, 1)");
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void max_steps_wrong(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  const int64_t bad[] = {0, -1, INT64_MIN};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
    EXPECT(odesens_solver_set_max_steps(s, bad[i]), ODESENS_ERR_INVALID_ARGUMENT, s,
           "max_steps must be positive");
  CHECK_OK(odesens_solver_set_max_steps(s, INT64_MAX));
  CHECK_OK(odesens_solver_set_max_steps(s, 1));
  const double times[1] = {100.0};
  CHECK_OK(odesens_solver_set_output_times(s, times, 1));
  odesens_result* r = (odesens_result*)&r;
  EXPECT(odesens_solve(s, &r), ODESENS_ERR_TOO_MUCH_WORK, s, "");
  CHECK(r == NULL);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void parameters_and_state_wrong(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  const double two[2] = {1.0, 2.0}, nan[1] = {NAN};
  EXPECT(odesens_solver_set_params(s, two, 2), ODESENS_ERR_INVALID_ARGUMENT, s,
         "parameter vector has 2 entries, expected 1");
  EXPECT(odesens_solver_set_params(s, two, 0), ODESENS_ERR_INVALID_ARGUMENT, s, "expected 1");
  EXPECT(odesens_solver_set_params(s, nan, 1), ODESENS_ERR_NOT_FINITE, s, "p[0] is NaN or Inf");
  EXPECT(odesens_solver_set_params(s, NULL, 1), ODESENS_ERR_NULL_HANDLE, s, "p is NULL");
  EXPECT(odesens_solver_set_initial_state(s, two, 2), ODESENS_ERR_INVALID_ARGUMENT, s,
         "initial state has 2 entries, expected 1");
  EXPECT(odesens_solver_set_initial_state(s, nan, 1), ODESENS_ERR_NOT_FINITE, s, "NaN or Inf");
  EXPECT(odesens_solver_set_initial_state(s, two, INT64_MIN), ODESENS_ERR_INVALID_ARGUMENT, s,
         "negative");
  CHECK_OK(odesens_solver_set_initial_state(s, NULL, 0));
  EXPECT(odesens_solver_set_t0(s, -INFINITY), ODESENS_ERR_NOT_FINITE, s, "t0 is NaN or Inf");
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void adjoint_weights_wrong(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_builtin("chua", &m));
  odesens_solver* s = solver_for(m, "cvodes_asa");
  const double w[7] = {1, 1, 1, 1, 1, 1, 1}, nan[6] = {0, NAN, 0, 0, 0, 0};
  EXPECT(odesens_solver_set_adjoint_weights(s, w, 7), ODESENS_ERR_INVALID_ARGUMENT, s,
         "adjoint weights: 7");
  EXPECT(odesens_solver_set_adjoint_weights(s, w, -3), ODESENS_ERR_INVALID_ARGUMENT, s,
         "negative");
  EXPECT(odesens_solver_set_adjoint_weights(s, nan, 6), ODESENS_ERR_NOT_FINITE, s,
         "w[1] is NaN or Inf");
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void adjoint_weights_against_times(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_asa");
  const double w[3] = {1, 1, 1}, times[3] = {0.5, 1.0, 2.0};
  /* Two output times, one state: two weights, said when they are set. */
  EXPECT(odesens_solver_set_adjoint_weights(s, w, 3), ODESENS_ERR_INVALID_ARGUMENT, s,
         "adjoint weights: 3 given, expected nx x n_times = 1 x 2 = 2");
  /* Set before times that then disagree: said by the solve. */
  odesens_solver* late = NULL;
  CHECK_OK(odesens_solver_create(m, "cvodes_asa", &late));
  CHECK_OK(odesens_solver_set_adjoint_weights(late, w, 2));
  CHECK_OK(odesens_solver_set_output_times(late, times, 3));
  odesens_result* r = (odesens_result*)&r;
  EXPECT(odesens_solve(late, &r), ODESENS_ERR_INVALID_ARGUMENT, late,
         "has 2 entries, expected 3");
  CHECK(r == NULL);
  odesens_solver_free(late);
  CHECK_OK(odesens_solver_set_adjoint_weights(s, NULL, 0));
  CHECK_OK(odesens_solve(s, &r));
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void objectives_wrong(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "erk_adjoint");
  const int64_t bad[] = {0, -1, 1000001, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
    EXPECT(odesens_solver_set_objectives(s, bad[i]), ODESENS_ERR_INVALID_ARGUMENT, s,
           "n_objectives must be from 1 to 1000000");
  /* Two objectives, one state, two times: four weights, said when set. */
  CHECK_OK(odesens_solver_set_objectives(s, 2));
  const double w[5] = {1, 0, 0, 1, 1};
  EXPECT(odesens_solver_set_adjoint_weights(s, w, 2), ODESENS_ERR_INVALID_ARGUMENT, s,
         "adjoint weights: 2 given, expected nx x n_times x n_objectives = 1 x 2 x 2 = 4");
  EXPECT(odesens_solver_set_adjoint_weights(s, w, 5), ODESENS_ERR_INVALID_ARGUMENT, s,
         "5 given");
  CHECK_OK(odesens_solver_set_adjoint_weights(s, w, 4));
  /* The count of weights follows a later change of n_objectives at solve. */
  CHECK_OK(odesens_solver_set_objectives(s, 3));
  odesens_result* r = (odesens_result*)&r;
  EXPECT(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT, s,
         "adjoint weights has 4 entries, expected 6 (nx x n_times x n_objectives = 1 x 2 x 3)");
  CHECK(r == NULL);
  CHECK_OK(odesens_solver_set_objectives(s, 2));
  CHECK_OK(odesens_solve(s, &r));
  int64_t count = -1;
  CHECK_OK(odesens_result_n_objectives(r, &count));
  CHECK(count == 2);
  double out[4];
  EXPECT(odesens_result_gradient(r, out, 1), ODESENS_ERR_BUFFER_TOO_SMALL, r, "2 needed");
  EXPECT(odesens_result_gradient_x0(r, out, 1), ODESENS_ERR_BUFFER_TOO_SMALL, r, "2 needed");
  EXPECT(odesens_result_objectives(r, NULL, 2), ODESENS_ERR_NULL_HANDLE, r, "out is NULL");
  EXPECT(odesens_result_n_objectives(r, NULL), ODESENS_ERR_NULL_HANDLE, r, "m is NULL");
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void integrand_wrong(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "erk_adjoint");
  const char* names[3] = {"x", NULL, "nosuch"};
  EXPECT(odesens_solver_set_integrand_observables(s, NULL, 1), ODESENS_ERR_NULL_HANDLE, s,
         "names is NULL");
  EXPECT(odesens_solver_set_integrand_observables(s, names, 2), ODESENS_ERR_NULL_HANDLE, s,
         "names[1] is NULL");
  EXPECT(odesens_solver_set_integrand_observables(s, names, -1), ODESENS_ERR_INVALID_ARGUMENT, s,
         "the number of names must be from 0 to 1000000 (got -1)");
  EXPECT(odesens_solver_set_integrand_observables(s, names, INT64_MAX),
         ODESENS_ERR_INVALID_ARGUMENT, s, "the number of names");
  const char* unknown[2] = {"x", "nosuch"};
  EXPECT(odesens_solver_set_integrand_observables(s, unknown, 2), ODESENS_ERR_INVALID_ARGUMENT, s,
         "no observable 'nosuch'");
  const char* empty[1] = {""};
  EXPECT(odesens_solver_set_integrand_observables(s, empty, 1), ODESENS_ERR_INVALID_ARGUMENT, s,
         "observable");
  /* One running cost for two objectives: said at solve. */
  CHECK_OK(odesens_solver_set_integrand_observables(s, names, 1));
  CHECK_OK(odesens_solver_set_objectives(s, 2));
  odesens_result* r = (odesens_result*)&r;
  EXPECT(odesens_solve(s, &r), ODESENS_ERR_INVALID_ARGUMENT, s,
         "the integrand has 1 running costs, expected one per objective (n_objectives = 2)");
  CHECK(r == NULL);
  CHECK_OK(odesens_solver_set_integrand_observables(s, NULL, 0));
  CHECK_OK(odesens_solve(s, &r));
  odesens_result_free(r);
  odesens_solver_free(s);
  /* Methods without running costs refuse them, and several objectives, when
   * they are set. */
  odesens_solver* a = solver_for(m, "cvodes_asa");
  EXPECT(odesens_solver_set_objectives(a, 2), ODESENS_ERR_UNSUPPORTED, a,
         "takes neither several objectives nor integrands (erk_adjoint does)");
  EXPECT(odesens_solver_set_integrand_observables(a, names, 1), ODESENS_ERR_UNSUPPORTED, a,
         "(erk_adjoint does)");
  CHECK_OK(odesens_solver_set_objectives(a, 1));
  CHECK_OK(odesens_solver_set_integrand_observables(a, NULL, 0));
  odesens_solver_free(a);
  odesens_model_free(m);
}

static void options_wrong(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  EXPECT(odesens_solver_set_option_int(s, "nosuch", 1), ODESENS_ERR_UNKNOWN_OPTION, s,
         "method 'cvodes_fsa' has no option 'nosuch'");
  EXPECT(odesens_solver_set_option_double(s, "eps_tol", 1e-3), ODESENS_ERR_UNKNOWN_OPTION, s,
         "has no option 'eps_tol'");
  EXPECT(odesens_solver_set_option_int(s, NULL, 1), ODESENS_ERR_NULL_HANDLE, s, "key is NULL");
  EXPECT(odesens_solver_set_option_string(s, "lmm", NULL), ODESENS_ERR_NULL_HANDLE, s,
         "value is NULL");
  EXPECT(odesens_solver_set_option_string(s, "lmm", "rk4"), ODESENS_ERR_OPTION_TYPE, s,
         "must be one of: bdf, adams (got 'rk4')");
  EXPECT(odesens_solver_set_option_string(s, "lmm", ""), ODESENS_ERR_OPTION_TYPE, s, "(got '')");
  EXPECT(odesens_solver_set_option_int(s, "lmm", 1), ODESENS_ERR_OPTION_TYPE, s,
         "must be a string");
  EXPECT(odesens_solver_set_option_string(s, "sens_error_control", "1"), ODESENS_ERR_OPTION_TYPE, s,
         "sens_error_control");
  EXPECT(odesens_solver_set_option_int(s, "sens_error_control", 2), ODESENS_ERR_OPTION_TYPE, s,
         "must be 0 or 1");
  EXPECT(odesens_solver_set_option_int(s, "sens_error_control", INT64_MIN),
         ODESENS_ERR_OPTION_TYPE, s, "must be 0 or 1");
  EXPECT(odesens_solver_set_option_double(s, "sparse_threshold", 1.5), ODESENS_ERR_OPTION_TYPE, s,
         "sparse_threshold");
  odesens_solver* a = solver_for(m, "cvodes_asa");
  EXPECT(odesens_solver_set_option_double(a, "rtol_adjoint", NAN), ODESENS_ERR_OPTION_TYPE, a,
         "must be finite");
  EXPECT(odesens_solver_set_option_double(a, "rtol_adjoint", INFINITY), ODESENS_ERR_OPTION_TYPE, a,
         "rtol_adjoint");
  /* The refused options left the solvers as they were. */
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  odesens_result_free(r);
  odesens_solver_free(a);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void observables_wrong(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  EXPECT(odesens_solver_add_observable(s, NULL), ODESENS_ERR_NULL_HANDLE, s, "name is NULL");
  EXPECT(odesens_solver_add_observable(s, "nosuch"), ODESENS_ERR_INVALID_ARGUMENT, s,
         "has no observable 'nosuch'");
  EXPECT(odesens_solver_add_observable(s, ""), ODESENS_ERR_INVALID_ARGUMENT, s, "observable");
  CHECK_OK(odesens_solver_add_observable(s, "x"));
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  int64_t count = -1;
  CHECK_OK(odesens_result_observable_count(r, &count));
  CHECK(count == 1);
  double v[2];
  EXPECT(odesens_result_observable(r, 1, v, 2), ODESENS_ERR_INVALID_ARGUMENT, r, "out of range");
  EXPECT(odesens_result_observable(r, -1, v, 2), ODESENS_ERR_INVALID_ARGUMENT, r, "out of range");
  EXPECT(odesens_result_observable(r, 0, v, 1), ODESENS_ERR_BUFFER_TOO_SMALL, r,
         "room for 1 values, 2 needed");
  const char* name = NULL;
  EXPECT(odesens_result_observable_name(r, 5, &name), ODESENS_ERR_INVALID_ARGUMENT, r,
         "out of range");
  CHECK_OK(odesens_solver_clear_observables(s));
  odesens_result_free(r);
  CHECK_OK(odesens_solve(s, &r));
  CHECK_OK(odesens_result_observable_count(r, &count));
  CHECK(count == 0);
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void callback_fails_during_solve(void) {
  odesens_model* m = callback_model(failing_rhs);
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  odesens_result* r = (odesens_result*)&r;
  EXPECT(odesens_solve(s, &r), ODESENS_ERR_CALLBACK_FAILED, s, "f");
  CHECK_MESSAGE(odesens_errmsg(s), "7");
  CHECK(r == NULL);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void callback_returns_nan(void) {
  odesens_model* m = callback_model(nan_rhs);
  odesens_solver* s = solver_for(m, "cvodes_fsa");
  odesens_result* r = (odesens_result*)&r;
  CHECK(odesens_solve(s, &r) != ODESENS_OK);
  CHECK(odesens_errmsg(s)[0] != '\0');
  CHECK(r == NULL);
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* ---- results ---- */

static void result_buffers(void) {
  odesens_result* r = result_of("cvodes_fsa");
  double out[8];
  EXPECT(odesens_result_x(r, out, 1), ODESENS_ERR_BUFFER_TOO_SMALL, r,
         "out has room for 1 values, 2 needed");
  EXPECT(odesens_result_times(r, out, -1), ODESENS_ERR_INVALID_ARGUMENT, r, "negative");
  EXPECT(odesens_result_s(r, NULL, 2), ODESENS_ERR_NULL_HANDLE, r, "out is NULL");
  EXPECT(odesens_result_s(r, out, 0), ODESENS_ERR_BUFFER_TOO_SMALL, r, "0 values");
  /* A forward method gives the default objective's gradient (through S). */
  CHECK_OK(odesens_result_gradient(r, out, 8));
  EXPECT(odesens_result_gradient(r, out, 0), ODESENS_ERR_BUFFER_TOO_SMALL, r, "0 values");
  EXPECT(odesens_result_stats(r, out, ODESENS_STAT_COUNT - 1), ODESENS_ERR_BUFFER_TOO_SMALL, r,
         "needed");
  CHECK_OK(odesens_result_x(r, out, INT64_MAX));
  int64_t n = -1, nx = -1, np = -1, ns = -1, ng = -1;
  CHECK_OK(odesens_result_sizes(r, NULL, NULL, NULL, NULL, NULL));
  CHECK_OK(odesens_result_sizes(r, &n, &nx, &np, &ns, &ng));
  CHECK(n == 2 && nx == 1 && np == 1 && ns == 2 && ng == 1);
  odesens_result_free(r);
}

static void result_of_adjoint_method(void) {
  odesens_result* r = result_of("cvodes_asa");
  double out[4];
  CHECK_OK(odesens_result_gradient(r, out, 1));
  EXPECT(odesens_result_gradient(r, out, 0), ODESENS_ERR_BUFFER_TOO_SMALL, r, "1 needed");
  int64_t ns = -1;
  CHECK_OK(odesens_result_sizes(r, NULL, NULL, NULL, &ns, NULL));
  CHECK(ns == 1);
  odesens_result_free(r);
}

static void result_data_and_stats(void) {
  odesens_result* r = result_of("cvodes_fsa");
  const double* data = NULL;
  int64_t len = -1;
  const int64_t bad[] = {-1, 22, 99, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
    EXPECT(odesens_result_data(r, bad[i], &data, &len), ODESENS_ERR_INVALID_ARGUMENT, r,
           "unknown result array");
  CHECK(data == NULL && len == -1);
  EXPECT(odesens_result_data(r, ODESENS_ARRAY_GRADIENT_X0, &data, &len), ODESENS_ERR_UNSUPPORTED,
         r, "computed no result array 'gradient_x0'");
  CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_OBJECTIVES, &data, &len));
  CHECK(data != NULL && len == 1);
  data = NULL;
  len = -1;
  EXPECT(odesens_result_data(r, ODESENS_ARRAY_SR, &data, &len), ODESENS_ERR_UNSUPPORTED, r,
         "computed no result array 'SR'");
  EXPECT(odesens_result_data(r, ODESENS_ARRAY_X_HULL, &data, &len), ODESENS_ERR_UNSUPPORTED, r,
         "computed no result array 'x_hull'");
  EXPECT(odesens_result_data(r, ODESENS_ARRAY_BOX_UPPER, &data, &len), ODESENS_ERR_UNSUPPORTED, r,
         "computed no result array 'box_upper'");
  CHECK(data == NULL && len == -1);
  EXPECT(odesens_result_data(r, ODESENS_ARRAY_X, NULL, &len), ODESENS_ERR_NULL_HANDLE, r,
         "data is NULL");
  EXPECT(odesens_result_data(r, ODESENS_ARRAY_X, &data, NULL), ODESENS_ERR_NULL_HANDLE, r,
         "len is NULL");
  CHECK(data == NULL && len == -1);
  CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_GRADIENT, &data, &len));
  CHECK(data != NULL && len == 1);
  CHECK_OK(odesens_result_data(r, ODESENS_ARRAY_S, &data, &len));
  CHECK(data != NULL && len == 2);
  double v = -1.0;
  EXPECT(odesens_result_stat(r, "nosuch", &v), ODESENS_ERR_INVALID_ARGUMENT, r,
         "no statistic 'nosuch'");
  EXPECT(odesens_result_stat(r, NULL, &v), ODESENS_ERR_NULL_HANDLE, r, "name is NULL");
  EXPECT(odesens_result_stat(r, "steps", NULL), ODESENS_ERR_NULL_HANDLE, r, "value is NULL");
  const char* name = NULL;
  int64_t count = 0;
  CHECK_OK(odesens_result_stat_count(r, &count));
  EXPECT(odesens_result_stat_name(r, count, &name), ODESENS_ERR_INVALID_ARGUMENT, r,
         "statistic index");
  EXPECT(odesens_result_stat_name(r, 0, NULL), ODESENS_ERR_NULL_HANDLE, r, "name is NULL");
  EXPECT(odesens_result_method(r, NULL), ODESENS_ERR_NULL_HANDLE, r, "method is NULL");
  EXPECT(odesens_result_stat_count(r, NULL), ODESENS_ERR_NULL_HANDLE, r, "count is NULL");
  odesens_result_free(r);
}

static void solve_twice_and_free_in_any_order(void) {
  odesens_model* m = text_model();
  odesens_solver* s = solver_for(m, "exp");
  odesens_result *a = NULL, *b = NULL;
  CHECK_OK(odesens_solve(s, &a));
  const double k = 1.0;
  CHECK_OK(odesens_solver_set_params(s, &k, 1));
  CHECK_OK(odesens_solve(s, &b));
  odesens_model_free(m);
  odesens_solver_free(s);
  double xa[2], xb[2];
  CHECK_OK(odesens_result_x(a, xa, 2));
  CHECK_OK(odesens_result_x(b, xb, 2));
  CHECK(xb[1] < xa[1]);
  odesens_result_free(b);
  odesens_result_free(a);
}

/* ---- methods ---- */

static void method_queries_out_of_range(void) {
  int64_t count = 0;
  CHECK_OK(odesens_method_count(&count));
  EXPECT(odesens_method_count(NULL), ODESENS_ERR_NULL_HANDLE, NULL, "count is NULL");
  const char* id = NULL;
  const int64_t bad[] = {-1, count, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
    EXPECT(odesens_method_id(bad[i], &id), ODESENS_ERR_INVALID_ARGUMENT, NULL, "out of range");
  CHECK(id == NULL);
  EXPECT(odesens_method_id(0, NULL), ODESENS_ERR_NULL_HANDLE, NULL, "id is NULL");
  EXPECT(odesens_method_option_count("nosuch", &count), ODESENS_ERR_UNKNOWN_METHOD, NULL,
         "unknown method 'nosuch'");
  EXPECT(odesens_method_option_count(NULL, &count), ODESENS_ERR_NULL_HANDLE, NULL,
         "method is NULL");
  CHECK_OK(odesens_method_option_count("cvodes_fsa", &count));
  EXPECT(odesens_method_option("cvodes_fsa", count, NULL, NULL, NULL),
         ODESENS_ERR_INVALID_ARGUMENT, NULL, "out of range");
  EXPECT(odesens_method_option("nosuch", 0, NULL, NULL, NULL), ODESENS_ERR_UNKNOWN_METHOD, NULL,
         "nosuch");
  CHECK_OK(odesens_method_option("cvodes_fsa", 0, NULL, NULL, NULL));
  double lo = 0.0, hi = 0.0;
  EXPECT(odesens_method_option_bounds("cvodes_fsa", -1, &lo, &hi), ODESENS_ERR_INVALID_ARGUMENT,
         NULL, "out of range");
  CHECK_OK(odesens_method_option_bounds("cvodes_fsa", 0, NULL, NULL));
}

/* ---- PEtab problems ---- */

static void write_file(const char* path, const char* text) {
  FILE* f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* A small PEtab problem in the working folder (the runner's temporary
 * one): decay of S at rate k, k estimated on a log10 scale, one
 * measurement. Returns its YAML file. */
static const char* write_petab_problem(void) {
  char model[4096];
  snprintf(model, sizeof model, decay_sbml, "");
  write_file("model.xml", model);
  write_file("conditions.tsv", "conditionId\nc0\n");
  write_file("observables.tsv", "observableId\tobservableFormula\tnoiseFormula\nobs\tS\t1\n");
  write_file("measurements.tsv",
             "observableId\tsimulationConditionId\ttime\tmeasurement\nobs\tc0\t1\t0.6\n");
  write_file("parameters.tsv",
             "parameterId\tparameterScale\tlowerBound\tupperBound\tnominalValue\testimate\n"
             "k\tlog10\t0.01\t10\t0.5\t1\n");
  write_file("problem.yaml",
             "format_version: 1\nparameter_file: parameters.tsv\nproblems:\n"
             "- condition_files: [conditions.tsv]\n  measurement_files: [measurements.tsv]\n"
             "  observable_files: [observables.tsv]\n  sbml_files: [model.xml]\n");
  return "problem.yaml";
}

static void petab_null_and_wrong_handles(void) {
  int64_t n = -1;
  const char* text = NULL;
  double v[1] = {0.0}, nllh = -1.0;
  EXPECT(odesens_petab_sizes(NULL, &n, &n, &n), ODESENS_ERR_NULL_HANDLE, NULL,
         "the PEtab problem handle is NULL");
  EXPECT(odesens_petab_parameter_id(NULL, 0, &text), ODESENS_ERR_NULL_HANDLE, NULL, "PEtab");
  EXPECT(odesens_petab_parameter_scale(NULL, 0, &text), ODESENS_ERR_NULL_HANDLE, NULL, "PEtab");
  EXPECT(odesens_petab_parameter_bounds(NULL, v, v, v, 1), ODESENS_ERR_NULL_HANDLE, NULL, "PEtab");
  EXPECT(odesens_petab_evaluate(NULL, v, 1, NULL, 0, 0, 1, &nllh, NULL, NULL, NULL, NULL, NULL, 0),
         ODESENS_ERR_NULL_HANDLE, NULL, "PEtab");
  EXPECT(odesens_petab_warning_count(NULL, &n), ODESENS_ERR_NULL_HANDLE, NULL, "PEtab");
  EXPECT(odesens_petab_warning(NULL, 0, &text), ODESENS_ERR_NULL_HANDLE, NULL, "PEtab");
  CHECK(n == -1 && text == NULL && nllh == -1.0);
  /* Handles of other kinds, both ways round. */
  odesens_model* m = text_model();
  odesens_result* r = result_of("cvodes_fsa");
  EXPECT(odesens_petab_sizes((const odesens_petab*)(const void*)m, &n, NULL, NULL),
         ODESENS_ERR_NULL_HANDLE, NULL, "is a model, not a PEtab problem");
  EXPECT(odesens_petab_evaluate((odesens_petab*)(void*)r, v, 1, NULL, 0, 0, 1, &nllh, NULL, NULL,
                                NULL, NULL, NULL, 0),
         ODESENS_ERR_NULL_HANDLE, NULL, "is a result, not a PEtab problem");
  odesens_petab* p = NULL;
  CHECK_OK(odesens_petab_load(write_petab_problem(), &p));
  EXPECT(odesens_model_sizes((const odesens_model*)(const void*)p, &n, &n),
         ODESENS_ERR_NULL_HANDLE, NULL, "is a PEtab problem, not a model");
  odesens_petab_free((odesens_petab*)(void*)m); /* other kinds are not freed */
  odesens_result_free((odesens_result*)(void*)p);
  odesens_petab_free(NULL);
  odesens_petab_free(p);
  odesens_result_free(r);
  odesens_model_free(m);
}

static void petab_load_hostile_files(void) {
  odesens_petab* p = (odesens_petab*)&p;
  EXPECT(odesens_petab_load(NULL, &p), ODESENS_ERR_NULL_HANDLE, NULL, "yaml_path is NULL");
  CHECK(p == NULL);
  EXPECT(odesens_petab_load("problem.yaml", NULL), ODESENS_ERR_NULL_HANDLE, NULL, "out is NULL");
  EXPECT(odesens_petab_load("", &p), ODESENS_ERR_UNKNOWN_MODEL, NULL, "odesens_petab_load");
  EXPECT(odesens_petab_load("missing.yaml", &p), ODESENS_ERR_UNKNOWN_MODEL, NULL,
         "missing.yaml");
  EXPECT(odesens_petab_load(".", &p), ODESENS_ERR_UNKNOWN_MODEL, NULL, "holds no problem file");
  EXPECT(odesens_petab_load("/dev/zero", &p), ODESENS_ERR_IO, NULL, "not a regular file");
  CHECK(p == NULL);
  write_file("empty.yaml", "");
  CHECK(odesens_petab_load("empty.yaml", &p) < 0 && p == NULL);
  write_file("binary.yaml", "\x01\x02\xff\xfe\x00");
  CHECK(odesens_petab_load("binary.yaml", &p) < 0 && p == NULL);
  write_file("list.yaml", "[1, 2, 3]\n");
  CHECK(odesens_petab_load("list.yaml", &p) < 0 && p == NULL);
  /* A YAML file whose tables are missing. */
  write_file("no_tables.yaml",
             "format_version: 1\nparameter_file: nope.tsv\nproblems:\n"
             "- condition_files: [nope.tsv]\n  measurement_files: [nope.tsv]\n"
             "  observable_files: [nope.tsv]\n  sbml_files: [nope.xml]\n");
  CHECK(odesens_petab_load("no_tables.yaml", &p) < 0 && p == NULL);
  CHECK_MESSAGE(odesens_errmsg(NULL), "nope");
}

static void petab_evaluate_wrong_arguments(void) {
  odesens_petab* p = NULL;
  CHECK_OK(odesens_petab_load(write_petab_problem(), &p));
  if (!p) return;
  double x[1] = {-0.3}, nllh = -1.0, g[1] = {-1.0}, fim[1] = {-1.0}, sim[1] = {-1.0};
  const int64_t bad_n[] = {0, 2, -1, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad_n / sizeof bad_n[0]; ++i)
    CHECK(odesens_petab_evaluate(p, x, bad_n[i], NULL, 0, 0, 1, &nllh, NULL, NULL, g, fim, sim,
                                 1) < 0);
  const double bad_x[] = {NAN, INFINITY, -NAN};
  for (size_t i = 0; i < sizeof bad_x / sizeof bad_x[0]; ++i)
    EXPECT(odesens_petab_evaluate(p, &bad_x[i], 1, NULL, 0, 0, 1, &nllh, NULL, NULL, g, fim, sim,
                                  1),
           ODESENS_ERR_NOT_FINITE, p, "x[0] is NaN or Inf");
  const int64_t bad_threads[] = {-1, 4097, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad_threads / sizeof bad_threads[0]; ++i)
    EXPECT(odesens_petab_evaluate(p, x, 1, NULL, 0, 0, bad_threads[i], &nllh, NULL, NULL, g, fim,
                                  sim, 1),
           ODESENS_ERR_INVALID_ARGUMENT, p, "threads");
  const double bad_tol[] = {NAN, INFINITY, -INFINITY};
  for (size_t i = 0; i < sizeof bad_tol / sizeof bad_tol[0]; ++i) {
    EXPECT(odesens_petab_evaluate(p, x, 1, NULL, bad_tol[i], 0, 1, &nllh, NULL, NULL, g, fim, sim,
                                  1),
           ODESENS_ERR_NOT_FINITE, p, "rtol");
    EXPECT(odesens_petab_evaluate(p, x, 1, NULL, 0, bad_tol[i], 1, &nllh, NULL, NULL, g, fim, sim,
                                  1),
           ODESENS_ERR_NOT_FINITE, p, "atol");
  }
  EXPECT(odesens_petab_evaluate(p, x, 1, NULL, 0, 0, 1, &nllh, NULL, NULL, g, fim, sim, 0),
         ODESENS_ERR_BUFFER_TOO_SMALL, p, "simulations has room for 0 values, 1 needed");
  EXPECT(odesens_petab_evaluate(p, x, 1, NULL, 0, 0, 1, &nllh, NULL, NULL, g, fim, sim, INT64_MIN),
         ODESENS_ERR_INVALID_ARGUMENT, p, "len is negative");
  EXPECT(odesens_petab_evaluate(p, x, 1, "no_such_method", 0, 0, 1, &nllh, NULL, NULL, g, fim, sim,
                                1),
         ODESENS_ERR_UNKNOWN_METHOD, p, "no_such_method");
  CHECK(nllh == -1.0 && g[0] == -1.0 && fim[0] == -1.0 && sim[0] == -1.0);
  /* -inf on the log10 scale is k = 0: allowed, S stays 1. */
  const double zero_k = -INFINITY;
  CHECK_OK(odesens_petab_evaluate(p, &zero_k, 1, NULL, 0, 0, 1, &nllh, NULL, NULL, NULL, NULL, sim,
                                  1));
  CHECK(fabs(sim[0] - 1.0) < 1e-6);
  /* Buffers: bounds too short, indices out of range. */
  double lower[1] = {-1.0};
  EXPECT(odesens_petab_parameter_bounds(p, lower, NULL, NULL, 0), ODESENS_ERR_BUFFER_TOO_SMALL, p,
         "room for 0 values, 1 needed");
  EXPECT(odesens_petab_parameter_bounds(p, NULL, NULL, NULL, INT64_MIN),
         ODESENS_ERR_INVALID_ARGUMENT, p, "len is negative");
  CHECK(lower[0] == -1.0);
  const char* text = NULL;
  const int64_t bad_index[] = {-1, 1, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad_index / sizeof bad_index[0]; ++i) {
    EXPECT(odesens_petab_parameter_id(p, bad_index[i], &text), ODESENS_ERR_INVALID_ARGUMENT, p,
           "out of range");
    EXPECT(odesens_petab_warning(p, bad_index[i], &text), ODESENS_ERR_INVALID_ARGUMENT, p,
           "out of range");
  }
  CHECK(text == NULL);
  odesens_petab_free(p);
}

/* ---- parameter estimation ---- */

static void fit_null_and_wrong_handles(void) {
  odesens_fit_result* fit = (odesens_fit_result*)&fit;
  odesens_profile_result* prof = (odesens_profile_result*)&prof;
  odesens_fit_options* o = (odesens_fit_options*)&o;
  int64_t n = -1;
  double v[1] = {0.0};
  const char* text = NULL;
  EXPECT(odesens_fit_options_create(NULL), ODESENS_ERR_NULL_HANDLE, NULL, "out is NULL");
  EXPECT(odesens_fit_options_set_starts(NULL, 3), ODESENS_ERR_NULL_HANDLE, NULL,
         "the fit options handle is NULL");
  EXPECT(odesens_petab_fit(NULL, NULL, &fit), ODESENS_ERR_NULL_HANDLE, NULL, "PEtab");
  CHECK(fit == NULL);
  EXPECT(odesens_petab_profile(NULL, NULL, v, 1, NULL, 0, 0.95, &prof), ODESENS_ERR_NULL_HANDLE,
         NULL, "PEtab");
  CHECK(prof == NULL);
  EXPECT(odesens_fit_result_sizes(NULL, &n, NULL, NULL), ODESENS_ERR_NULL_HANDLE, NULL,
         "the fit result handle is NULL");
  EXPECT(odesens_fit_result_exit_reason(NULL, 0, &text), ODESENS_ERR_NULL_HANDLE, NULL, "fit");
  EXPECT(odesens_fit_result_write_h5(NULL, "fit.h5"), ODESENS_ERR_NULL_HANDLE, NULL, "fit");
  EXPECT(odesens_profile_result_count(NULL, &n, NULL), ODESENS_ERR_NULL_HANDLE, NULL,
         "the profile result handle is NULL");
  EXPECT(odesens_profile_result_plot(NULL, "pictures"), ODESENS_ERR_NULL_HANDLE, NULL,
         "profile");
  CHECK(n == -1 && text == NULL);
  /* Handles of other kinds, both ways round. */
  odesens_petab* p = NULL;
  CHECK_OK(odesens_petab_load(write_petab_problem(), &p));
  CHECK_OK(odesens_fit_options_create(&o));
  EXPECT(odesens_petab_fit((const odesens_petab*)(const void*)o, NULL, &fit),
         ODESENS_ERR_NULL_HANDLE, NULL, "is fit options, not a PEtab problem");
  EXPECT(odesens_petab_fit(p, (const odesens_fit_options*)(const void*)p, &fit),
         ODESENS_ERR_NULL_HANDLE, p, "is a PEtab problem, not fit options");
  EXPECT(odesens_fit_result_sizes((const odesens_fit_result*)(const void*)o, &n, NULL, NULL),
         ODESENS_ERR_NULL_HANDLE, NULL, "is fit options, not a fit result");
  EXPECT(odesens_petab_sizes((const odesens_petab*)(const void*)o, &n, NULL, NULL),
         ODESENS_ERR_NULL_HANDLE, NULL, "is fit options, not a PEtab problem");
  odesens_fit_options_free((odesens_fit_options*)(void*)p); /* other kinds are not freed */
  odesens_fit_result_free((odesens_fit_result*)(void*)o);
  odesens_profile_result_free((odesens_profile_result*)(void*)o);
  odesens_fit_options_free(NULL);
  odesens_fit_result_free(NULL);
  odesens_profile_result_free(NULL);
  odesens_fit_options_free(o);
  odesens_petab_free(p);
}

static void fit_options_wrong_values(void) {
  odesens_fit_options* o = NULL;
  CHECK_OK(odesens_fit_options_create(&o));
  if (!o) return;
  EXPECT(odesens_fit_options_set_optimizer(o, "no_such_optimizer"), ODESENS_ERR_INVALID_ARGUMENT,
         o, "auto, ceres_lm, ceres_lm_lbfgs, nlopt_lbfgs or lbfgsb");
  CHECK_OK(odesens_fit_options_set_optimizer(o, NULL));
  const int64_t bad_counts[] = {0, -1, INT64_MIN, INT64_MAX};
  for (size_t i = 0; i < sizeof bad_counts / sizeof bad_counts[0]; ++i) {
    EXPECT(odesens_fit_options_set_starts(o, bad_counts[i]), ODESENS_ERR_INVALID_ARGUMENT, o,
           "starts must be from 1");
    EXPECT(odesens_fit_options_set_profile_max_points(o, bad_counts[i]),
           ODESENS_ERR_INVALID_ARGUMENT, o, "max_points");
  }
  EXPECT(odesens_fit_options_set_seed(o, INT64_MIN), ODESENS_ERR_INVALID_ARGUMENT, o, "seed");
  EXPECT(odesens_fit_options_set_threads(o, -1), ODESENS_ERR_INVALID_ARGUMENT, o, "threads");
  EXPECT(odesens_fit_options_set_threads(o, INT64_MAX), ODESENS_ERR_INVALID_ARGUMENT, o,
         "threads");
  EXPECT(odesens_fit_options_set_max_iterations(o, 0), ODESENS_ERR_INVALID_ARGUMENT, o,
         "max_iterations");
  const double not_finite[] = {NAN, INFINITY, -INFINITY};
  for (size_t i = 0; i < sizeof not_finite / sizeof not_finite[0]; ++i) {
    EXPECT(odesens_fit_options_set_max_seconds(o, not_finite[i]), ODESENS_ERR_NOT_FINITE, o,
           "max_seconds");
    EXPECT(odesens_fit_options_set_tolerances(o, not_finite[i], 0), ODESENS_ERR_NOT_FINITE, o,
           "rtol");
    EXPECT(odesens_fit_options_set_tolerances(o, 0, not_finite[i]), ODESENS_ERR_NOT_FINITE, o,
           "atol");
  }
  EXPECT(odesens_fit_options_set_tolerances(o, 2.0, 0), ODESENS_ERR_INVALID_ARGUMENT, o,
         "rtol must be below 1");
  EXPECT(odesens_fit_options_set_method(o, "no_such_method"), ODESENS_ERR_UNKNOWN_METHOD, o,
         "no_such_method");
  /* Start points: sizes before the data, huge products refused. */
  const double x[2] = {0.0, NAN};
  EXPECT(odesens_fit_options_set_start_points(o, x, 2, 1), ODESENS_ERR_NOT_FINITE, o,
         "points[1] is NaN or Inf");
  EXPECT(odesens_fit_options_set_start_points(o, NULL, 1, 1), ODESENS_ERR_NULL_HANDLE, o,
         "points is NULL");
  EXPECT(odesens_fit_options_set_start_points(o, x, INT64_MAX, 1), ODESENS_ERR_INVALID_ARGUMENT,
         o, "n_parameters");
  EXPECT(odesens_fit_options_set_start_points(o, x, 1, INT64_MAX), ODESENS_ERR_INVALID_ARGUMENT,
         o, "n_starts");
  EXPECT(odesens_fit_options_set_start_points(o, x, -1, 1), ODESENS_ERR_INVALID_ARGUMENT, o,
         "n_parameters");
  CHECK_OK(odesens_fit_options_set_start_points(o, NULL, 0, 0));
  /* Start points of the wrong size are refused by the fit. */
  odesens_petab* p = NULL;
  CHECK_OK(odesens_petab_load(write_petab_problem(), &p));
  const double two[2] = {-0.3, -0.3};
  CHECK_OK(odesens_fit_options_set_start_points(o, two, 2, 1));
  odesens_fit_result* fit = NULL;
  EXPECT(odesens_petab_fit(p, o, &fit), ODESENS_ERR_INVALID_ARGUMENT, p, "odesens_petab_fit");
  CHECK(fit == NULL);
  EXPECT(odesens_petab_fit(p, o, NULL), ODESENS_ERR_NULL_HANDLE, p, "out is NULL");
  odesens_petab_free(p);
  odesens_fit_options_free(o);
}

static void fit_result_buffers_and_profile_arguments(void) {
  odesens_petab* p = NULL;
  odesens_fit_options* o = NULL;
  odesens_fit_result* fit = NULL;
  CHECK_OK(odesens_petab_load(write_petab_problem(), &p));
  CHECK_OK(odesens_fit_options_create(&o));
  CHECK_OK(odesens_fit_options_set_starts(o, 2));
  CHECK_OK(odesens_petab_fit(p, o, &fit));
  if (!fit) {
    odesens_fit_options_free(o);
    odesens_petab_free(p);
    return;
  }
  double x[1] = {-7.0};
  const int64_t bad_rank[] = {-1, 2, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad_rank / sizeof bad_rank[0]; ++i) {
    EXPECT(odesens_fit_result_end_point(fit, bad_rank[i], x, 1), ODESENS_ERR_INVALID_ARGUMENT, fit,
           "rank");
    EXPECT(odesens_fit_result_start(fit, bad_rank[i], x, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
           ODESENS_ERR_INVALID_ARGUMENT, fit, "out of range");
  }
  EXPECT(odesens_fit_result_best(fit, x, 0, NULL), ODESENS_ERR_BUFFER_TOO_SMALL, fit,
         "room for 0 values, 1 needed");
  EXPECT(odesens_fit_result_start_point(fit, 0, x, INT64_MIN), ODESENS_ERR_INVALID_ARGUMENT, fit,
         "negative");
  EXPECT(odesens_fit_result_best(fit, NULL, 1, NULL), ODESENS_ERR_NULL_HANDLE, fit, "out is NULL");
  CHECK(x[0] == -7.0);
  EXPECT(odesens_fit_result_write_h5(fit, ""), ODESENS_ERR_INVALID_ARGUMENT, fit, "path is empty");
  EXPECT(odesens_fit_result_write_h5(fit, "."), ODESENS_ERR_IO, fit, "it is a directory");
  EXPECT(odesens_fit_result_write_best(fit, NULL), ODESENS_ERR_NULL_HANDLE, fit, "path is NULL");
  EXPECT(odesens_fit_result_write_best(fit, "no/such/folder/best.tsv"), ODESENS_ERR_IO, fit, "");

  /* Profiles: wrong sizes, indices, levels and points. */
  CHECK_OK(odesens_fit_result_best(fit, x, 1, NULL));
  odesens_profile_result* prof = NULL;
  const int64_t bad_n[] = {0, 2, -1, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad_n / sizeof bad_n[0]; ++i)
    CHECK(odesens_petab_profile(p, o, x, bad_n[i], NULL, 0, 0.95, &prof) < 0 && prof == NULL);
  const double bad_levels[] = {0.0, 1.0, -0.5, 2.0};
  for (size_t i = 0; i < sizeof bad_levels / sizeof bad_levels[0]; ++i)
    EXPECT(odesens_petab_profile(p, o, x, 1, NULL, 0, bad_levels[i], &prof),
           ODESENS_ERR_INVALID_ARGUMENT, p, "confidence");
  EXPECT(odesens_petab_profile(p, o, x, 1, NULL, 0, NAN, &prof), ODESENS_ERR_NOT_FINITE, p,
         "confidence");
  const int64_t bad_index[] = {-1, 1, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad_index / sizeof bad_index[0]; ++i)
    EXPECT(odesens_petab_profile(p, o, x, 1, &bad_index[i], 1, 0.95, &prof),
           ODESENS_ERR_INVALID_ARGUMENT, p, "out of range");
  EXPECT(odesens_petab_profile(p, o, x, 1, NULL, 1, 0.95, &prof), ODESENS_ERR_NULL_HANDLE, p,
         "indices is NULL");
  EXPECT(odesens_petab_profile(p, o, x, 1, NULL, -1, 0.95, &prof), ODESENS_ERR_INVALID_ARGUMENT,
         p, "negative");
  const double nan_x = NAN, far_x = 5.0;
  EXPECT(odesens_petab_profile(p, o, &nan_x, 1, NULL, 0, 0.95, &prof), ODESENS_ERR_NOT_FINITE, p,
         "x[0] is NaN or Inf");
  EXPECT(odesens_petab_profile(p, o, &far_x, 1, NULL, 0, 0.95, &prof),
         ODESENS_ERR_INVALID_ARGUMENT, p, "outside");
  CHECK(prof == NULL);
  CHECK_OK(odesens_fit_options_set_profile_max_points(o, 3));
  CHECK_OK(odesens_petab_profile(p, o, x, 1, NULL, 0, 0.95, &prof));
  if (prof) {
    int64_t n_points = -1;
    double values[1] = {-7.0};
    CHECK_OK(odesens_profile_result_info(prof, 0, NULL, NULL, NULL, &n_points, NULL));
    CHECK(n_points >= 1);
    EXPECT(odesens_profile_result_points(prof, 0, values, NULL, 0), ODESENS_ERR_BUFFER_TOO_SMALL,
           prof, "needed");
    EXPECT(odesens_profile_result_points(prof, 0, NULL, NULL, -1), ODESENS_ERR_INVALID_ARGUMENT,
           prof, "negative");
    EXPECT(odesens_profile_result_interval(prof, 1, NULL, NULL, NULL, NULL, NULL),
           ODESENS_ERR_INVALID_ARGUMENT, prof, "profile index");
    EXPECT(odesens_profile_result_point(prof, 0, n_points, values, 1),
           ODESENS_ERR_INVALID_ARGUMENT, prof, "point index");
    EXPECT(odesens_profile_result_plot(prof, ""), ODESENS_ERR_INVALID_ARGUMENT, prof,
           "folder is empty");
    CHECK(values[0] == -7.0);
  }
  odesens_profile_result_free(prof);
  odesens_fit_result_free(fit);
  odesens_fit_options_free(o);
  odesens_petab_free(p);
}

/* ---- the table ---- */

struct hostile_case {
  const char* name;
  void (*run)(void);
  const char* pending; /* why the expectation is not met yet, or NULL */
};

static const struct hostile_case cases[] = {
    {"null_model_handle", null_model_handle, NULL},
    {"null_solver_handle", null_solver_handle, NULL},
    {"null_result_handle", null_result_handle, NULL},
    {"free_null_handles", free_null_handles, NULL},
    {"wrong_handle_kinds", wrong_handle_kinds, NULL},
    {"not_a_handle", not_a_handle, NULL},
    {"model_freed_before_solver", model_freed_before_solver, NULL},
    {"solver_freed_before_result", solver_freed_before_result, NULL},
    {"messages_stay_with_their_handle", messages_stay_with_their_handle, NULL},
    {"status_strings_of_unknown_codes", status_strings_of_unknown_codes, NULL},
    {"text_null_arguments", text_null_arguments, NULL},
    {"text_empty", text_empty, NULL},
    {"text_malformed_ode", text_malformed_ode, NULL},
    {"text_malformed_sbml", text_malformed_sbml, NULL},
    {"text_sbml_event", text_sbml_event, NULL},
    {"text_with_bom", text_with_bom, NULL},
    {"text_huge_expression", text_huge_expression, NULL},
    {"file_null_and_missing", file_null_and_missing, NULL},
    {"file_is_directory", file_is_directory, NULL},
    {"file_is_endless_device", file_is_endless_device, NULL},
    {"sbml_file_bad_sensitivity_ids", sbml_file_bad_sensitivity_ids, NULL},
    {"builtin_bad_names", builtin_bad_names, NULL},
    {"builtin_bad_sizes", builtin_bad_sizes, NULL},
    {"create_bad_sizes", create_bad_sizes, NULL},
    {"create_nx_int64_max", create_nx_int64_max, NULL},
    {"create_np_int64_max", create_np_int64_max, NULL},
    {"names_out_of_range", names_out_of_range, NULL},
    {"names_of_model_without_parameters", names_of_model_without_parameters, NULL},
    {"nominal_params_buffers", nominal_params_buffers, NULL},
    {"callback_setters_bad_vectors", callback_setters_bad_vectors, NULL},
    {"setters_on_models_that_cannot_change", setters_on_models_that_cannot_change, NULL},
    {"sparsity_patterns_that_are_wrong", sparsity_patterns_that_are_wrong, NULL},
    {"sparse_jacobian_before_pattern", sparse_jacobian_before_pattern, NULL},
    {"sparsity_nnz_int64_max", sparsity_nnz_int64_max, NULL},
    {"solver_create_bad_arguments", solver_create_bad_arguments, NULL},
    {"solve_in_wrong_order", solve_in_wrong_order, NULL},
    {"output_times_wrong", output_times_wrong, NULL},
    {"output_times_int64_max", output_times_int64_max, NULL},
    {"tolerances_wrong", tolerances_wrong, NULL},
    {"rtol_one", rtol_one, NULL},
    {"max_steps_wrong", max_steps_wrong, NULL},
    {"parameters_and_state_wrong", parameters_and_state_wrong, NULL},
    {"adjoint_weights_wrong", adjoint_weights_wrong, NULL},
    {"adjoint_weights_against_times", adjoint_weights_against_times, NULL},
    {"objectives_wrong", objectives_wrong, NULL},
    {"integrand_wrong", integrand_wrong, NULL},
    {"options_wrong", options_wrong, NULL},
    {"observables_wrong", observables_wrong, NULL},
    {"callback_fails_during_solve", callback_fails_during_solve, NULL},
    {"callback_returns_nan", callback_returns_nan, NULL},
    {"result_buffers", result_buffers, NULL},
    {"result_of_adjoint_method", result_of_adjoint_method, NULL},
    {"result_data_and_stats", result_data_and_stats, NULL},
    {"solve_twice_and_free_in_any_order", solve_twice_and_free_in_any_order, NULL},
    {"method_queries_out_of_range", method_queries_out_of_range, NULL},
    {"petab_null_and_wrong_handles", petab_null_and_wrong_handles, NULL},
    {"petab_load_hostile_files", petab_load_hostile_files, NULL},
    {"petab_evaluate_wrong_arguments", petab_evaluate_wrong_arguments, NULL},
    {"fit_null_and_wrong_handles", fit_null_and_wrong_handles, NULL},
    {"fit_options_wrong_values", fit_options_wrong_values, NULL},
    {"fit_result_buffers_and_profile_arguments", fit_result_buffers_and_profile_arguments, NULL},
};

int main(int argc, char** argv) {
  const size_t n = sizeof cases / sizeof cases[0];
  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < n; ++i) printf("%s\n", cases[i].name);
    return 0;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: hostile_capi CASE | --list\n");
    return 2;
  }
  for (size_t i = 0; i < n; ++i) {
    if (strcmp(argv[1], cases[i].name) != 0) continue;
    cases[i].run();
    return check_exit_status(cases[i].name) == 0 ? 0 : 1;
  }
  fprintf(stderr, "hostile_capi: no case '%s'\n", argv[1]);
  return 2;
}
