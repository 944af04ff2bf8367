/* Two solvers solved in two threads at the same time give the results they
 * give when solved one after the other, and errors stay with their thread.
 *
 * Both solvers share one callback model (a model may back solvers in
 * several threads); each thread has its own solver and results. */
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "check.h"
#include "odesens.h"
#include "test_models.h"

enum { NT = 5, NX = 3, NP = 2, REPEATS = 4 };
static const double times[NT] = {1.0, 2.0, 3.0, 4.0, 5.0};

typedef struct job {
  odesens_solver* solver;
  double x[NX * NT];
  double s[NX * NP * NT];
  int status;
  const char* bogus_model; /* a model name that does not exist */
  /* A deliberate failure on this thread, and what odesens_errmsg(NULL)
   * said right after it. */
  char thread_message[256];
} job;

static int run_job(job* j) {
  odesens_result* r = NULL;
  j->status = odesens_solve(j->solver, &r);
  if (j->status == ODESENS_OK) j->status = odesens_result_x(r, j->x, NX * NT);
  if (j->status == ODESENS_OK) j->status = odesens_result_s(r, j->s, NX * NP * NT);
  odesens_result_free(r);
  return j->status;
}

static int thread_main(void* arg) {
  job* j = (job*)arg;
  for (int k = 0; k < REPEATS && j->status == ODESENS_OK; ++k) {
    run_job(j);
    /* Fail on purpose and read the thread's message, while the other
     * thread is solving or failing too. */
    odesens_model* m = NULL;
    odesens_model_from_builtin(j->bogus_model, &m);
    strncpy(j->thread_message, odesens_errmsg(NULL), sizeof j->thread_message - 1);
  }
  return 0;
}

static odesens_solver* make_solver(const odesens_model* m, const char* method, double p1) {
  odesens_solver* s = NULL;
  const double p[NP] = {p1, 15.0};
  CHECK_OK(odesens_solver_create(m, method, &s));
  CHECK_OK(odesens_solver_set_output_times(s, times, NT));
  CHECK_OK(odesens_solver_set_tolerances(s, 1e-9, 1e-11));
  CHECK_OK(odesens_solver_set_params(s, p, NP));
  return s;
}

int main(void) {
  /* No user data: both threads call the callbacks concurrently. */
  odesens_model* model = chua_callback_model(1, NULL);
  CHECK(model != NULL);
  job serial[2], parallel[2];
  memset(serial, 0, sizeof serial);
  memset(parallel, 0, sizeof parallel);
  serial[0].solver = parallel[0].solver = make_solver(model, "cvodes_fsa", 7.0);
  serial[1].solver = parallel[1].solver = make_solver(model, "cvodes_asa", 7.5);
  parallel[0].bogus_model = "nosuch_a";
  parallel[1].bogus_model = "nosuch_b";

  CHECK_OK(run_job(&serial[0]));
  CHECK_OK(run_job(&serial[1]));

  thrd_t threads[2];
  for (int i = 0; i < 2; ++i) CHECK(thrd_create(&threads[i], thread_main, &parallel[i]) == thrd_success);
  for (int i = 0; i < 2; ++i) CHECK(thrd_join(threads[i], NULL) == thrd_success);

  for (int i = 0; i < 2; ++i) {
    CHECK_OK(parallel[i].status);
    /* The same arithmetic in the same order: identical, not just close. */
    CHECK(memcmp(parallel[i].x, serial[i].x, sizeof serial[i].x) == 0);
    CHECK(memcmp(parallel[i].s, serial[i].s, sizeof serial[i].s) == 0);
  }
  /* cvodes_asa gives S at the final time only; it must still agree with
   * the forward S there (different parameters, so compare each with a
   * serial forward solve at the same parameters). */
  odesens_solver* check_fsa = make_solver(model, "cvodes_fsa", 7.5);
  job forward;
  memset(&forward, 0, sizeof forward);
  forward.solver = check_fsa;
  CHECK_OK(run_job(&forward));
  CHECK_CLOSE(parallel[1].s, forward.s + NX * NP * (NT - 1), NX * NP, 1e-5);
  odesens_solver_free(check_fsa);

  /* Each thread saw its own failure. */
  CHECK_MESSAGE(parallel[0].thread_message, "nosuch_a");
  CHECK_MESSAGE(parallel[1].thread_message, "nosuch_b");

  odesens_solver_free(serial[0].solver);
  odesens_solver_free(serial[1].solver);
  odesens_model_free(model);
  return check_exit_status("test_capi_threads");
}
