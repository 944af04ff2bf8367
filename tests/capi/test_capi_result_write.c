/* odesens_result_write: a result written as JSON, CSV and HDF5 and read
 * back (the JSON parsed, the CSV's cells and the HDF5 datasets compared
 * with the result's arrays exactly, since every format keeps each double),
 * the format told from the extension, an existing file replaced without a
 * temporary left behind, and the errors: unknown formats and extensions,
 * paths that cannot be written, NULL arguments, enclosures in HDF5. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "json_reader.h"
#include "odesens.h"

/* a -> b -> (gone), with the amount left as an observable. */
static const char* kinetics =
    "param k1 = 0.8\nparam k2 = 1.7\nstate a = 1\nstate b = 0.2\n"
    "da/dt = -k1*a\ndb/dt = k1*a - k2*b\noutput total = a + b\n";

enum { NX = 2, NP = 2, NT = 3, MAX_TEXT = 1 << 16 };
static const double times[NT] = {0.5, 1.0, 2.0};
static const double params[NP] = {0.9, 1.5};
static char folder[256];

static const char* path_of(const char* name) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", folder, name);
  return path;
}

/* The file's whole text (at most MAX_TEXT - 1 bytes), or "" when it cannot
 * be read. */
static const char* text_of(const char* path) {
  static char text[MAX_TEXT];
  text[0] = '\0';
  FILE* f = fopen(path, "rb");
  if (!f) return text;
  const size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  return text;
}

static int exists(const char* path) {
  struct stat info;
  return stat(path, &info) == 0;
}

/* The files of the folder whose names start with '.' (temporaries). */
static int hidden_files(void) {
  DIR* dir = opendir(folder);
  if (!dir) return -1;
  int count = 0;
  for (struct dirent* e = readdir(dir); e; e = readdir(dir))
    if (e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      ++count;
  closedir(dir);
  return count;
}

static odesens_result* solve(const odesens_model* m, const char* method) {
  odesens_solver* s = NULL;
  odesens_result* r = NULL;
  CHECK_OK(odesens_solver_create(m, method, &s));
  if (!s) return NULL;
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  CHECK_OK(odesens_solver_set_params(s, params, NP));
  CHECK_OK(odesens_solver_add_observable(s, "total"));
  CHECK_OK(odesens_solve(s, &r));
  odesens_solver_free(s);
  return r;
}

/* S of the result in the documents' order, S[k][i][j] (the result's is
 * column-major, S[i + j*nx + k*nx*np]). */
static void s_row_major(const odesens_result* r, double* out) {
  double s[NT * NX * NP];
  CHECK_OK(odesens_result_s(r, s, NT * NX * NP));
  for (int k = 0; k < NT; ++k)
    for (int i = 0; i < NX; ++i)
      for (int j = 0; j < NP; ++j) out[(k * NX + i) * NP + j] = s[i + j * NX + k * NX * NP];
}

static int same(const double* a, const double* b, int64_t n) {
  return memcmp(a, b, sizeof(double) * (size_t)n) == 0;
}

static void check_json(const odesens_result* r, const char* text) {
  CHECK(json_valid(text));
  char method[64] = "";
  CHECK(json_string(text, "method", method, sizeof method) && strcmp(method, "cvodes_fsa") == 0);
  double n[2] = {0, 0};
  CHECK(json_numbers(text, "nx", n, 1) == 1 && n[0] == NX);
  CHECK(json_numbers(text, "np", n + 1, 1) == 1 && n[1] == NP);
  double x[NT * NX], json_x[NT * NX + 1], s[NT * NX * NP], json_s[NT * NX * NP + 1];
  CHECK_OK(odesens_result_x(r, x, NT * NX));
  CHECK(json_numbers(text, "x", json_x, NT * NX + 1) == NT * NX && same(x, json_x, NT * NX));
  s_row_major(r, s);
  CHECK(json_numbers(text, "S", json_s, NT * NX * NP + 1) == NT * NX * NP &&
        same(s, json_s, NT * NX * NP));
  double total[NT], json_total[NT + 1];
  CHECK_OK(odesens_result_observable(r, 0, total, NT));
  CHECK(json_numbers(text, "observables", json_total, NT + 1) == NT &&
        same(total, json_total, NT));
  /* The default objective's gradient, as the result gives it. */
  double g[NP], json_g[NP + 1];
  CHECK_OK(odesens_result_gradient(r, g, NP));
  CHECK(json_numbers(text, "gradient", json_g, NP + 1) == NP && same(g, json_g, NP));
}

/* Row k + 1 of the CSV: t, x (NX), S (NX*NP, parameter slowest), total. */
static void check_csv(const odesens_result* r, const char* text) {
  const char* header = "t,a,b,da/dk1,db/dk1,da/dk2,db/dk2,total\n";
  CHECK(strncmp(text, header, strlen(header)) == 0);
  double x[NT * NX], s[NT * NX * NP], total[NT];
  CHECK_OK(odesens_result_x(r, x, NT * NX));
  CHECK_OK(odesens_result_s(r, s, NT * NX * NP));
  CHECK_OK(odesens_result_observable(r, 0, total, NT));
  const char* p = strchr(text, '\n');
  for (int k = 0; k < NT && p; ++k) {
    double cells[1 + NX + NX * NP + 1];
    char* end = (char*)p + 1;
    for (int c = 0; c < 1 + NX + NX * NP + 1; ++c) {
      cells[c] = strtod(end, &end);
      CHECK(*end == (c < NX + NX * NP + 1 ? ',' : '\n'));
      ++end;
    }
    CHECK(cells[0] == times[k]);
    CHECK(same(cells + 1, x + k * NX, NX));
    CHECK(same(cells + 1 + NX, s + k * NX * NP, NX * NP));
    CHECK(cells[1 + NX + NX * NP] == total[k]);
    p = strchr(p + 1, '\n');
  }
  /* Then the default objective's gradient and value. */
  const char* gradient = "\n\nparameter,gradient\n";
  CHECK(p && strncmp(p, gradient, strlen(gradient)) == 0);
}

/* The whole dataset `name` of the file as doubles: its element count. */
static int64_t h5_doubles(hid_t file, const char* name, double* out, int64_t max) {
  const hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
  if (set < 0) return -1;
  const hid_t space = H5Dget_space(set);
  const int64_t n = H5Sget_simple_extent_npoints(space);
  herr_t status = -1;
  if (n <= max) status = H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out);
  H5Sclose(space);
  H5Dclose(set);
  return status < 0 ? -1 : n;
}

static void check_h5(const odesens_result* r, const char* path) {
  const hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  CHECK(file >= 0);
  if (file < 0) return;
  double x[NT * NX], h5_x[NT * NX], s[NT * NX * NP], h5_s[NT * NX * NP], t[NT], p[NP];
  double done = 0, status = -1;
  CHECK_OK(odesens_result_x(r, x, NT * NX));
  s_row_major(r, s);
  CHECK(h5_doubles(file, "t", t, NT) == NT && same(t, times, NT));
  CHECK(h5_doubles(file, "x", h5_x, NT * NX) == NT * NX && same(x, h5_x, NT * NX));
  CHECK(h5_doubles(file, "S", h5_s, NT * NX * NP) == NT * NX * NP &&
        same(s, h5_s, NT * NX * NP));
  CHECK(h5_doubles(file, "parameters", p, NP) == NP && same(p, params, NP));
  CHECK(h5_doubles(file, "status", &status, 1) == 1 && status == 0.0);
  CHECK(h5_doubles(file, "done", &done, 1) == 1 && done == 1.0);
  H5Fclose(file);
}

static void test_formats(const odesens_result* r) {
  CHECK_OK(odesens_result_write(r, path_of("result.json"), NULL));
  check_json(r, text_of(path_of("result.json")));
  CHECK_OK(odesens_result_write(r, path_of("result"), "json"));
  check_json(r, text_of(path_of("result")));
  CHECK_OK(odesens_result_write(r, path_of("result.CSV"), ""));
  check_csv(r, text_of(path_of("result.CSV")));
  CHECK_OK(odesens_result_write(r, path_of("result.h5"), NULL));
  check_h5(r, path_of("result.h5"));
  CHECK(!exists(path_of("result.h5.partial")));
  CHECK_OK(odesens_result_write(r, path_of("csv.out"), "csv"));
  check_csv(r, text_of(path_of("csv.out")));
  CHECK(hidden_files() == 0);
}

static void test_gradient(const odesens_model* m) {
  odesens_result* r = solve(m, "cvodes_asa");
  if (!r) return;
  double gradient[NP], json_gradient[NP + 1];
  CHECK_OK(odesens_result_gradient(r, gradient, NP));
  CHECK_OK(odesens_result_write(r, path_of("asa.json"), NULL));
  CHECK(json_numbers(text_of(path_of("asa.json")), "gradient", json_gradient, NP + 1) == NP &&
        same(gradient, json_gradient, NP));
  odesens_result_free(r);
}

static void test_replaces_existing_file(const odesens_result* r) {
  const char* path = path_of("old.json");
  FILE* f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs("an older document", f);
    fclose(f);
  }
  CHECK_OK(odesens_result_write(r, path, "json"));
  check_json(r, text_of(path));
  /* A failure leaves it as it was. */
  CHECK_STATUS(odesens_result_write(r, path, "xml"), ODESENS_ERR_INVALID_ARGUMENT);
  check_json(r, text_of(path));
  CHECK(hidden_files() == 0);
}

static void test_errors(const odesens_result* r) {
  CHECK_STATUS(odesens_result_write(r, path_of("x.json"), "xml"), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(r), "unknown result format 'xml' (json, csv or h5)");
  CHECK_STATUS(odesens_result_write(r, path_of("x.txt"), NULL), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(odesens_errmsg(r), "cannot tell the format");
  CHECK(!exists(path_of("x.json")) && !exists(path_of("x.txt")));
  CHECK_STATUS(odesens_result_write(r, "", "json"), ODESENS_ERR_INVALID_ARGUMENT);
  CHECK_STATUS(odesens_result_write(r, NULL, "json"), ODESENS_ERR_NULL_HANDLE);
  CHECK_STATUS(odesens_result_write(NULL, path_of("x.json"), "json"), ODESENS_ERR_NULL_HANDLE);
  const char* formats[3] = {"json", "csv", "h5"};
  for (int k = 0; k < 3; ++k) {
    CHECK_STATUS(odesens_result_write(r, path_of("no/such/folder/x"), formats[k]), ODESENS_ERR_IO);
    CHECK_MESSAGE(odesens_errmsg(r), "no/such/folder/x");
  }
  /* A folder is an input/output error in every format. */
  CHECK_STATUS(odesens_result_write(r, folder, "json"), ODESENS_ERR_IO);
  CHECK_STATUS(odesens_result_write(r, folder, "h5"), ODESENS_ERR_IO);
  CHECK_MESSAGE(odesens_errmsg(r), "it is a directory");
  CHECK(hidden_files() == 0);
}

/* The HDF5 layout has no place for enclosures: refused, no file made. */
static void test_bounds_refused_in_h5(const odesens_model* m) {
  odesens_solver* s = NULL;
  odesens_result* r = NULL;
  const double lower[NP] = {0.8, 1.7}, upper[NP] = {0.81, 1.7};
  CHECK_OK(odesens_solver_create(m, "bounds_fsa", &s));
  if (!s) return;
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  CHECK_OK(odesens_solver_set_param_box(s, lower, upper, NP));
  CHECK_OK(odesens_solve(s, &r));
  if (r) {
    CHECK_STATUS(odesens_result_write(r, path_of("bounds.h5"), NULL), ODESENS_ERR_UNSUPPORTED);
    CHECK_MESSAGE(odesens_errmsg(r), "enclosures of bounds_fsa");
    CHECK(!exists(path_of("bounds.h5")) && !exists(path_of("bounds.h5.partial")));
    CHECK_OK(odesens_result_write(r, path_of("bounds.json"), NULL));
    CHECK(json_valid(text_of(path_of("bounds.json"))));
    CHECK(json_numbers(text_of(path_of("bounds.json")), "bounds", NULL, 0) > 0);
  }
  odesens_result_free(r);
  odesens_solver_free(s);
}

/* Removes the folder's files, then the folder. */
static void remove_folder(void) {
  DIR* dir = opendir(folder);
  if (!dir) return;
  for (struct dirent* e = readdir(dir); e; e = readdir(dir))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) unlink(path_of(e->d_name));
  closedir(dir);
  rmdir(folder);
}

int main(void) {
  const char* tmp = getenv("TMPDIR");
  snprintf(folder, sizeof folder, "%s/odesens_write_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(folder)) {
    perror("mkdtemp");
    return 1;
  }
  odesens_model* m = NULL;
  CHECK_OK(odesens_model_from_text(kinetics, &m));
  odesens_result* r = m ? solve(m, "cvodes_fsa") : NULL;
  if (r) {
    test_formats(r);
    test_replaces_existing_file(r);
    test_errors(r);
    odesens_result_free(r);
  }
  if (m) {
    test_gradient(m);
    test_bounds_refused_in_h5(m);
  }
  odesens_model_free(m);
  remove_folder();
  return check_exit_status("test_capi_result_write");
}
