// lbfgsb: L-BFGS-B 3.0 (Byrd, Lu, Nocedal and Zhu 1995; Morales and Nocedal
// 2011), Debian's liblbfgsb, on nlpost and its gradient in the box of the
// estimated parameters.
//
// Why beside nlopt_lbfgs: NLopt's LD_LBFGS (Luksan's PLIS) steps along its
// quasi-Newton direction cut at the first bound it meets. Where the gradient
// pushes hard on parameters a little inside their bounds
// (Lang_PLOSComputBiol2024: entries of 1e14 next to entries of 1e1), that
// cut leaves no step that lowers nlpost, and PLIS gives up (FAILURE) after
// a dozen evaluations. L-BFGS-B follows the projected gradient path
// instead: a parameter that reaches its bound stays there and the others go
// on (its generalized Cauchy point), and its line search is Moré and
// Thuente's.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "fit/gradient_search.hpp"
#include "io/format_double.hpp"

// L-BFGS-B 3.0's driver, reverse communication (lbfgsb.f, "setulb"); the
// library ships no header. Fortran's CHARACTER*60 arguments task and csave
// take their lengths as trailing hidden arguments (gfortran: size_t).
extern "C" void setulb_(const int* n, const int* m, double* x, const double* l, const double* u,
                        const int* nbd, double* f, double* g, const double* factr,
                        const double* pgtol, double* wa, int* iwa, char* task, const int* iprint,
                        char* csave, int* lsave, int* isave, double* dsave, std::size_t task_len,
                        std::size_t csave_len);

// gfortran's FLUSH statement (libgfortran, which liblbfgsb links): the
// unit's buffer written to its file now.
extern "C" void _gfortran_flush_i4(int* unit);

namespace odesens::fitting {
namespace {

// L-BFGS-B 3.0 writes " ascent direction in projection gd = ..." to Fortran
// unit 6, standard output, whatever its print level, where its direction is
// not one of descent (it then restarts). On standard output that line broke
// `odesens fit --format json` and a caller's own output. Standard output is
// pointed at /dev/null for the moments of setulb's calls (no evaluation runs
// inside them: they take microseconds), unit 6 flushed before (the caller's
// Fortran output goes where it went) and after (setulb's goes nowhere); the
// calls of all threads take turns, so that no two redirections interleave.
void setulb_quietly(const int* n, const int* m, double* x, const double* l, const double* u,
                    const int* nbd, double* f, double* g, const double* factr,
                    const double* pgtol, double* wa, int* iwa, char* task, const int* iprint,
                    char* csave, int* lsave, int* isave, double* dsave, std::size_t length) {
  static std::mutex turn;
  static const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  std::lock_guard<std::mutex> lock(turn);
  int unit = 6;
  std::fflush(stdout);
  _gfortran_flush_i4(&unit);
  // A closed standard output (saved < 0, EBADF) is /dev/null meanwhile too:
  // gfortran ends the process on a write it cannot make.
  const int saved = null_fd >= 0 ? ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0) : -1;
  const bool closed = saved < 0 && errno == EBADF;
  const bool quiet = (saved >= 0 || closed) && null_fd >= 0 && ::dup2(null_fd, STDOUT_FILENO) >= 0;
  setulb_(n, m, x, l, u, nbd, f, g, factr, pgtol, wa, iwa, task, iprint, csave, lsave, isave,
          dsave, length, length);
  _gfortran_flush_i4(&unit);
  if (quiet && closed) ::close(STDOUT_FILENO);
  else if (quiet) ::dup2(saved, STDOUT_FILENO);
  if (saved >= 0) ::close(saved);
}

constexpr int kMemory = 10;  // correction pairs, as NLopt's default
constexpr std::size_t kTaskLength = 60;

// What setulb keeps between calls (its sizes: lbfgsb.f, "setulb").
struct SetulbWorkspace {
  explicit SetulbWorkspace(int n)
      : wa(static_cast<std::size_t>(2 * kMemory * n + 5 * n + 11 * kMemory * kMemory +
                                    8 * kMemory)),
        iwa(static_cast<std::size_t>(3 * n)) {}
  std::vector<double> wa;
  std::vector<int> iwa;
  char task[kTaskLength], csave[kTaskLength];
  int lsave[4] = {0, 0, 0, 0};
  int isave[44] = {};
  double dsave[29] = {};
  void set_task(const char* text) {
    std::memset(task, ' ', kTaskLength);
    std::memcpy(task, text, std::strlen(text));
  }
  bool task_is(const char* head) const { return std::strncmp(task, head, std::strlen(head)) == 0; }
  std::string task_text() const {
    std::string t(task, kTaskLength);
    return t.substr(0, t.find_last_not_of(' ') + 1);
  }
};

// nlpost and its gradient at x. A failed simulation is a point of higher
// value with no slope, so that the line search backs off from it (a finite
// value: L-BFGS-B's interpolation has no use for inf).
double evaluate_at(GradientSearch& s, const std::vector<double>& x, std::vector<double>& g) {
  double value = HUGE_VAL;
  switch (s.evaluate(x.data(), g.data(), value)) {
    case GradientSearch::Outcome::new_best:
    case GradientSearch::Outcome::value: return value;
    case GradientSearch::Outcome::interrupted: return HUGE_VAL;
    case GradientSearch::Outcome::failed: break;
  }
  const double above = std::isfinite(s.best()) ? s.best() : 0.0;
  return above + 1e3 * (1.0 + std::fabs(above));
}

// After an iteration (setulb's NEW_X): a reason to end, or empty.
std::string check_iteration(const GradientSearch& s, const StartObjective& objective,
                            const std::vector<double>& x, const std::vector<double>& g) {
  if (objective.interrupted()) return objective.interruption_reason();
  if (s.gradient_tolerance_met(x.data(), g.data())) return s.gradient_tolerance_text();
  return {};
}

// Before an evaluation: the start's evaluations used up (the limit counts
// evaluations, as nlopt_lbfgs's does), said; or empty.
std::string check_evaluations(const OptimizerOptions& o, std::int64_t evaluations,
                              std::int64_t start_iterations) {
  if (evaluations < o.max_iterations) return {};
  return start_iterations > 0 ? "the start's " + std::to_string(start_iterations) +
                                    " iterations are used up"
                              : "maximum number of iterations (evaluations) reached: " +
                                    std::to_string(o.max_iterations);
}

// setulb's own ending, said for a user: CONVERGENCE (its relative reduction
// of nlpost, factr, or its projected gradient, pgtol), ABNORMAL_TERMINATION
// (a line search without a lower point), ERROR (bad input).
std::string ending_text(const SetulbWorkspace& w, const OptimizerOptions& o) {
  const std::string t = w.task_text();
  if (t.rfind("CONVERGENCE: REL_REDUCTION_OF_F", 0) == 0)
    return "function tolerance reached: relative change of nlpost below " +
           io::format_double(o.function_tolerance);
  if (t.rfind("CONVERGENCE: NORM_OF_PROJECTED_GRADIENT", 0) == 0)
    return "gradient tolerance reached: projected gradient below " +
           io::format_double(o.gradient_tolerance);
  if (t.rfind("ABNORMAL_TERMINATION_IN_LNSRCH", 0) == 0)
    return "L-BFGS-B's line search found no lower nlpost (ABNORMAL_TERMINATION_IN_LNSRCH)";
  return "L-BFGS-B ended: " + t;
}

}  // namespace

LocalRun run_lbfgsb(StartObjective& objective, const OptimizerOptions& options,
                    std::vector<double>& free, std::int64_t start_iterations) {
  const int n = static_cast<int>(free.size());
  GradientSearch s(objective, options);
  // nbd: 0 unbounded, 1 lower only, 2 both, 3 upper only.
  std::vector<int> nbd(free.size());
  for (std::size_t i = 0; i < free.size(); ++i) {
    const bool lo = std::isfinite(s.lower()[i]), hi = std::isfinite(s.upper()[i]);
    nbd[i] = lo && hi ? 2 : lo ? 1 : hi ? 3 : 0;
  }
  // factr: the relative reduction (f_k - f_k+1) / max(|f_k|, |f_k+1|, 1)
  // below which it stops, in units of the machine epsilon.
  const double factr = options.function_tolerance / DBL_EPSILON;
  const double pgtol = options.gradient_tolerance;
  const int memory = kMemory, quiet = -1;
  SetulbWorkspace w(n);
  w.set_task("START");
  std::vector<double> x = free, g(free.size(), 0.0);
  double f = 0.0;
  bool ended_by_setulb = false;
  const std::int64_t evaluations_before = objective.evaluations();
  while (s.stop_reason().empty()) {
    setulb_quietly(&n, &memory, x.data(), s.lower().data(), s.upper().data(), nbd.data(), &f,
                   g.data(), &factr, &pgtol, w.wa.data(), w.iwa.data(), w.task, &quiet, w.csave,
                   w.lsave, w.isave, w.dsave, kTaskLength);
    if (w.task_is("FG")) {
      if (objective.interrupted()) s.stop(objective.interruption_reason());
      else s.stop(check_evaluations(options, objective.evaluations() - evaluations_before,
                                    start_iterations));
      if (s.stop_reason().empty()) f = evaluate_at(s, x, g);
    } else if (w.task_is("NEW_X")) {
      s.stop(check_iteration(s, objective, x, g));
    } else {
      ended_by_setulb = true;
      break;
    }
  }
  LocalRun run = s.finish(free, ended_by_setulb ? ending_text(w, options) : s.stop_reason());
  run.stopped_short = ended_by_setulb && w.task_is("CONVERGENCE: REL_REDUCTION_OF_F");
  return run;
}

}  // namespace odesens::fitting
