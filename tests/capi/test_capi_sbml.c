/* SBML models and observables through the C ABI: odesens_model_from_file
 * dispatches on the content, odesens_model_from_sbml_file chooses the
 * sensitivity parameters, and observables come back with the result. The
 * model is tests/sbml/models/decay.xml: S' = -k S, S(0) = 1, k = 0.5, in a
 * compartment c of size 1, so S(t) = e^{-kt} and dS/dk = -t e^{-kt}. */
#include <stdlib.h>

#include "check.h"

static const char* decay_path = ODESENS_SBML_TEST_MODELS "/decay.xml";

static char* read_file(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* text = malloc((size_t)n + 1);
  if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
    text[n] = '\0';
  } else {
    free(text);
    text = NULL;
  }
  fclose(f);
  return text;
}

static void check_sizes(const odesens_model* m, int64_t nx_expected, int64_t np_expected) {
  int64_t nx = -1, np = -1;
  CHECK_OK(odesens_model_sizes(m, &nx, &np));
  CHECK(nx == nx_expected && np == np_expected);
}

static void test_files_dispatch_on_content(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_file(decay_path, &m));
  check_sizes(m, 1, 1);
  const char* name = NULL;
  CHECK_OK(odesens_model_state_name(m, 0, &name));
  CHECK(name && strcmp(name, "S") == 0);
  CHECK_OK(odesens_model_param_name(m, 0, &name));
  CHECK(name && strcmp(name, "k") == 0);
  odesens_model_free(m);

  /* The same SBML under a name that says nothing, and as text. */
  char* text = read_file(decay_path);
  CHECK(text != NULL);
  if (!text) return;
  const char* path = "odesens_capi_sbml_model.txt";
  FILE* f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
    m = NULL;
    CHECK_OK(odesens_model_from_file(path, &m));
    check_sizes(m, 1, 1);
    odesens_model_free(m);
    remove(path);
  }
  m = NULL;
  CHECK_OK(odesens_model_from_text(text, &m));
  check_sizes(m, 1, 1);
  odesens_model_free(m);
  free(text);
}

static void test_sensitivity_parameters_by_id(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_sbml_file(decay_path, "c,k", &m));
  check_sizes(m, 1, 2);
  const char* name = NULL;
  CHECK_OK(odesens_model_param_name(m, 0, &name));
  CHECK(name && strcmp(name, "c") == 0);
  odesens_model_free(m);
  m = NULL;
  CHECK_OK(odesens_model_from_sbml_file(decay_path, "", &m));
  check_sizes(m, 1, 0);
  odesens_model_free(m);
  m = NULL;
  CHECK_OK(odesens_model_from_sbml_file(decay_path, NULL, &m));
  check_sizes(m, 1, 1);
  odesens_model_free(m);

  m = (odesens_model*)1;
  CHECK_STATUS(odesens_model_from_sbml_file(decay_path, "S", &m), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK(m == NULL);
  CHECK_MESSAGE(odesens_errmsg(NULL), "'S' cannot be a sensitivity parameter");
  CHECK_STATUS(odesens_model_from_sbml_file(decay_path, "k,,c", &m), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_model_from_sbml_file(NULL, "k", &m), ODESENS_ERR_NULL_HANDLE);
}

static void test_unsupported_and_malformed_files(void) {
  odesens_model* m = NULL;
  CHECK_STATUS(odesens_model_from_file(ODESENS_SBML_TEST_MODELS "/malformed_event_on_constant.xml",
                                       &m),
               ODESENS_ERR_PARSE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "<event> 'reset': the assignment to 'k'");
  CHECK_STATUS(odesens_model_from_file(ODESENS_SBML_TEST_MODELS "/unsupported_delay.xml", &m),
               ODESENS_ERR_UNSUPPORTED);
  CHECK_STATUS(odesens_model_from_file(ODESENS_SBML_TEST_MODELS "/malformed_xml.xml", &m),
               ODESENS_ERR_PARSE);
  CHECK_STATUS(odesens_model_from_text("<sbml", &m), ODESENS_ERR_PARSE);
  CHECK_MESSAGE(odesens_errmsg(NULL), "<text>");
  CHECK(m == NULL);
}

static void test_observables_come_back_with_the_result(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_file(decay_path, &m));
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  const double times[] = {0.0, 1.0, 2.0};
  CHECK_OK(odesens_solver_set_output_times(s, times, 3));
  CHECK_OK(odesens_solver_set_tolerances(s, 1e-12, 1e-14));
  CHECK_OK(odesens_solver_add_observable(s, "R"));  /* the reaction's rate k S */
  CHECK_OK(odesens_solver_add_observable(s, "S:amount"));
  CHECK_STATUS(odesens_solver_add_observable(s, "nosuch"), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(s), "no observable 'nosuch'");
  CHECK_STATUS(odesens_solver_add_observable(s, "k:concentration"), ODESENS_ERR_INVALID_ARGUMENT);

  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  int64_t count = -1;
  CHECK_OK(odesens_result_observable_count(r, &count));
  CHECK(count == 2);
  const char* name = NULL;
  CHECK_OK(odesens_result_observable_name(r, 1, &name));
  CHECK(name && strcmp(name, "S:amount") == 0);
  double rate[3], amount[3], exact[3], half[3];
  CHECK_OK(odesens_result_observable(r, 0, rate, 3));
  CHECK_OK(odesens_result_observable(r, 1, amount, 3));
  for (int k = 0; k < 3; ++k) {
    exact[k] = exp(-0.5 * times[k]);
    half[k] = 0.5 * exact[k];
  }
  CHECK_CLOSE(amount, exact, 3, 1e-9);
  CHECK_CLOSE(rate, half, 3, 1e-9);
  CHECK_STATUS(odesens_result_observable(r, 2, rate, 3), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_result_observable(r, 0, rate, 2), ODESENS_ERR_BUFFER_TOO_SMALL);
  double sens[3];
  CHECK_OK(odesens_result_s(r, sens, 3));
  for (int k = 0; k < 3; ++k) exact[k] = -times[k] * exp(-0.5 * times[k]);
  CHECK_CLOSE(sens, exact, 3, 1e-8);
  odesens_result_free(r);

  CHECK_OK(odesens_solver_clear_observables(s));
  r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  CHECK_OK(odesens_result_observable_count(r, &count));
  CHECK(count == 0);
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

static void test_ode_lets_are_observables(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text("param k = 1\nstate x = 4\nlet half = x/2\ndx/dt = -k*x\n", &m));
  odesens_solver* s = NULL;
  CHECK_OK(odesens_solver_create(m, "cvodes_fsa", &s));
  const double times[] = {0.0, 1.0};
  CHECK_OK(odesens_solver_set_output_times(s, times, 2));
  CHECK_OK(odesens_solver_add_observable(s, "half"));
  odesens_result* r = NULL;
  CHECK_OK(odesens_solve(s, &r));
  double half[2], x[2];
  CHECK_OK(odesens_result_observable(r, 0, half, 2));
  CHECK_OK(odesens_result_x(r, x, 2));
  CHECK(half[0] == 2.0 && half[1] == x[1] / 2);
  odesens_result_free(r);
  odesens_solver_free(s);
  odesens_model_free(m);
}

/* The decay model with its kinetic law replaced by `law` and `functions`
 * placed before the compartments; NULL when out of memory. */
static char* decay_with(const char* law, const char* functions) {
  char* text = read_file(decay_path);
  if (!text) return NULL;
  const char* old_law = "<apply><times/><ci> k </ci><ci> S </ci></apply>";
  char* at_law = strstr(text, old_law);
  char* at_lists = strstr(text, "<listOfCompartments>");
  char* out = malloc(strlen(text) + strlen(law) + strlen(functions) + 1);
  if (out && at_law && at_lists && at_lists < at_law) {
    char* p = out;
    memcpy(p, text, (size_t)(at_lists - text));
    p += at_lists - text;
    strcpy(p, functions);
    p += strlen(functions);
    memcpy(p, at_lists, (size_t)(at_law - at_lists));
    p += at_law - at_lists;
    strcpy(p, law);
    strcat(p, at_law + strlen(old_law));
  } else {
    free(out);
    out = NULL;
  }
  free(text);
  return out;
}

/* Hostile input fails with a status and a message, never a crash. */
static void test_hostile_input_is_refused(void) {
  odesens_model* m = NULL;
  /* 10000 nested <apply> elements: libsbml would recurse out of the stack. */
  const char* open = "<apply><plus/>";
  const char* close = "<cn> 1 </cn></apply>";
  const int n = 10000;
  char* law = malloc((size_t)n * (strlen(open) + strlen(close)) + 16);
  CHECK(law != NULL);
  if (law) {
    char* p = law;
    for (int i = 0; i < n; ++i, p += strlen(open)) memcpy(p, open, strlen(open));
    strcpy(p, "<ci> k </ci>");
    p += strlen(p);
    for (int i = 0; i < n; ++i, p += strlen(close)) memcpy(p, close, strlen(close));
    *p = '\0';
    char* deep = decay_with(law, "");
    CHECK(deep != NULL);
    if (deep) {
      CHECK_STATUS(odesens_model_from_text(deep, &m), ODESENS_ERR_UNSUPPORTED);
      CHECK_MESSAGE(odesens_errmsg(NULL),
                    "<text>:20: XML elements nested more than 256 levels deep");
    }
    free(deep);
    free(law);
  }
  /* 100 function definitions, each calling the one before. */
  char* functions = malloc(101 * 256 + 64);
  CHECK(functions != NULL);
  if (functions) {
    strcpy(functions, "<listOfFunctionDefinitions>");
    for (int i = 0; i <= 100; ++i) {
      char body[64], def[256];
      if (i == 0)
        snprintf(body, sizeof body, "<ci>x</ci>");
      else
        snprintf(body, sizeof body, "<apply><ci>f%d</ci><ci>x</ci></apply>", i - 1);
      snprintf(def, sizeof def,
               "<functionDefinition id=\"f%d\"><math xmlns=\"http://www.w3.org/1998/Math/MathML\">"
               "<lambda><bvar><ci>x</ci></bvar>%s</lambda></math></functionDefinition>",
               i, body);
      strcat(functions, def);
    }
    strcat(functions, "</listOfFunctionDefinitions>");
    char* chain = decay_with("<apply><ci>f100</ci><ci>k</ci></apply>", functions);
    CHECK(chain != NULL);
    if (chain) {
      CHECK_STATUS(odesens_model_from_text(chain, &m), ODESENS_ERR_UNSUPPORTED);
      CHECK_MESSAGE(odesens_errmsg(NULL),
                    "function definitions call one another more than 64 levels deep");
    }
    free(chain);
    free(functions);
  }
  /* A byte-order mark is fine; UTF-16 is named. */
  char* text = read_file(decay_path);
  CHECK(text != NULL);
  if (text) {
    char* bom = malloc(strlen(text) + 4);
    CHECK(bom != NULL);
    if (bom) {
      strcpy(bom, "\xEF\xBB\xBF");
      strcat(bom, text);
      CHECK_OK(odesens_model_from_text(bom, &m));
      check_sizes(m, 1, 1);
      odesens_model_free(m);
      m = NULL;
    }
    free(bom);
    free(text);
  }
  CHECK_STATUS(odesens_model_from_text("\xFF\xFE<", &m), ODESENS_ERR_UNSUPPORTED);
  CHECK_MESSAGE(odesens_errmsg(NULL),
                "<text>: UTF-16 (little-endian) is not supported; convert the file to UTF-8");
  CHECK_STATUS(odesens_model_from_text("# caf\xE9\nstate x = 1\ndx/dt = -x\n", &m), ODESENS_OK);
  odesens_model_free(m);
  m = NULL;
  /* Devices are not read. */
  CHECK_STATUS(odesens_model_from_file("/dev/zero", &m), ODESENS_ERR_IO);
  CHECK_MESSAGE(odesens_errmsg(NULL), "it is a character device, not a regular file");
  CHECK(m == NULL);
}

/* A model with no state variables (a parameter and a rule): every method
 * advances time and evaluates its values; x and S have no rows. */
static void test_models_without_states_solve(void) {
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_file(ODESENS_SBML_TEST_MODELS "/no_state_variables.xml", &m));
  check_sizes(m, 0, 1);
  const char* methods[] = {"cvodes_fsa", "cvodes_asa", "pbsr", "erk_adjoint", "dopri8s"};
  for (int k = 0; k < 5; ++k) {
    odesens_solver* s = NULL;
    CHECK_OK(odesens_solver_create(m, methods[k], &s));
    const double times[] = {0.0, 1.0, 2.0};
    CHECK_OK(odesens_solver_set_output_times(s, times, 3));
    CHECK_OK(odesens_solver_add_observable(s, "twice_k"));
    odesens_result* r = NULL;
    CHECK_OK(odesens_solve(s, &r));
    int64_t nt = -1, nx = -1, np = -1;
    CHECK_OK(odesens_result_sizes(r, &nt, &nx, &np, NULL, NULL));
    CHECK(nt == 3 && nx == 0 && np == 1);
    double value[3], expected[3] = {1.0, 1.0, 1.0};
    CHECK_OK(odesens_result_observable(r, 0, value, 3));
    CHECK_CLOSE(value, expected, 3, 1e-15);
    CHECK_OK(odesens_result_x(r, NULL, 0));
    odesens_result_free(r);
    odesens_solver_free(s);
  }
  odesens_model_free(m);
}

int main(void) {
  test_files_dispatch_on_content();
  test_models_without_states_solve();
  test_sensitivity_parameters_by_id();
  test_unsupported_and_malformed_files();
  test_observables_come_back_with_the_result();
  test_ode_lets_are_observables();
  test_hostile_input_is_refused();
  return check_exit_status("test_capi_sbml");
}
