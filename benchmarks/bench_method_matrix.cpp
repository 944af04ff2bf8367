// Every method on every shared model: the method matrix of RESULTS.md.
// Each model runs over its own time span with 101 outputs; every method at
// its default tolerances is compared with cvodes_fsa at rtol 1e-10, atol
// 1e-12. A cell gives the time, the steps, the error and a verdict:
//   ok          error <= 1e-3
//   warned      the result carries a warning (its error is shown)
//   WRONG       error > 1e-3 without a warning: a defect
//   <status>    the method refused or failed within the time limit (its
//               status: stiff, too much work, unsupported, ...)
//   killed      still running at the time limit, max(2 s, 20 x cvodes_fsa),
//               at most --max-limit seconds (default 240: above the goal of
//               20 x cvodes_fsa on every shared model, Lang 170 s)
// Error: the largest |S_ij - S_ref,ij| over outputs (adjoint methods: S(T)
// only), relative to the largest |S_ref| over all outputs of its column
// (parameter) or of its row (state), whichever is larger, and to no less
// than 1e-6 of the largest |S_ref| of all. Each cell runs in a child process (fork), so a
// limit is a hard one and a crash stays a verdict.
//
// With --choice: the goals of the automatic method instead. Every method
// that can serve a goal, and "auto", at the same tolerances (rtol 1e-8,
// atol 1e-10: auto's), each timed as the best of three solves in its child
// (of up to 30 while they take less than 30 ms in all);
// per model and goal the fastest method that is right (error <= 1e-4, no
// warning, no failure) against auto. Where it takes under 0.1 s, auto and
// the right methods within 1.5 times it are timed again in turn in one
// process (time_in_turn), and the row gives those times, "(in turn)".
// Goals: S at every output time (error of S as above) and the gradient of
// G = sum_i (1 + i / nx) x_i(T) (largest |g_j - g_ref,j| over the largest
// |g_ref|; the adjoint methods with final_sensitivity=0). Not the plain sum
// of the states: models that conserve mass conserve it (Brannmark_JBC2010,
// DETEST C1), so its gradient is 0 and every method's rounding was judged
// against the reference's.
//
// Run: build/bin/bench_method_matrix [--models a,b] [--methods m,n] [--limit-factor 20]
//      (a method with options: --methods "pbsr:error_control=off;max_pieces=8,exp")
//      [--max-limit 240] [--choice 1]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"

namespace {

std::string shared_dir() {
  if (const char* env = std::getenv("ODESENS_SHARED_DIR")) return env;
  return ODESENS_DEFAULT_SHARED_DIR;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

std::vector<std::string> files_in(const std::string& dir, const std::string& ext) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
        out.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  return name.substr(0, name.find_last_of('.'));
}

// G's weight of state i (problem_of, weighted).
double g_weight(std::size_t i, std::size_t nx) {
  return 1.0 + static_cast<double>(i) / static_cast<double>(nx);
}

// weighted: G = sum_i (1 + i / nx) x_i(T) as the adjoint objective (--choice).
odesens::Problem problem_of(const std::string& path, bool weighted) {
  odesens::Problem p;
  p.model = odesens::load_model(path);
  const double t_end = p.model->default_t_end();
  p.output_times.resize(101);
  for (int k = 0; k <= 100; ++k) p.output_times[static_cast<std::size_t>(k)] = t_end * k / 100.0;
  if (weighted) {
    const std::size_t nx = p.model->nx();
    p.adjoint_weights.assign(101 * nx, 0.0);
    for (std::size_t i = 0; i < nx; ++i)
      p.adjoint_weights[100 * nx + i] = g_weight(i, nx);
  }
  return p;
}

// One model's problem (at rtol, atol = rtol / 100; rtol 0: the methods'
// defaults), its reference (cvodes_fsa at ref_rtol, atol ref_rtol / 100)
// and cvodes_fsa's time on it; false, with a table row saying why, when
// the reference fails.
struct ModelCase {
  odesens::Problem problem;
  odesens::Result reference;
  double fsa_seconds = 0;
};

bool model_case(const std::string& path, double rtol, double ref_rtol, ModelCase& c,
                bool weighted = false) {
  try {
    c.problem = problem_of(path, weighted);
    if (rtol > 0) {
      c.problem.rtol = rtol;
      c.problem.atol = {rtol / 100};
    }
    odesens::Problem tight = c.problem;
    tight.rtol = ref_rtol;
    tight.atol = {ref_rtol / 100};
    c.reference = odesens::solve(tight, "cvodes_fsa");
    const auto start = std::chrono::steady_clock::now();
    odesens::solve(c.problem, "cvodes_fsa");
    c.fsa_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return true;
  } catch (const odesens::Error& e) {
    std::printf("| %s | no reference: %s |\n", base_name(path).c_str(), e.what());
    return false;
  }
}

// Error of S (or S(T) for adjoint methods) against the reference: the
// largest |S_ij - S_ref,ij| over the outputs compared, each relative to the
// larger of the largest |S_ref| in its column j (a parameter: what forward
// methods control) and in its row i (a state: what an adjoint row
// controls), and never to less than 1e-6 of the largest |S_ref| (an S a
// million times below all others is judged against them). The scales are
// taken over every output of the reference, whichever outputs the method
// returns: an error of S(T) weighs the same for an adjoint method as for a
// forward one (when every state has decayed below atol at T, S(T) is
// noise at the tolerances for both; judged against S(T) alone, only the
// adjoint's cell would say so).
double s_error(const odesens::Result& r, const odesens::Result& ref) {
  const std::size_t nx = ref.nx, np = ref.np, nt = ref.times.size();
  if (np == 0) return 0.0;
  if (r.s.empty()) return NAN;  // no S: never "ok"
  const std::size_t nts = r.s_times.size(), first = nt - nts;
  std::vector<double> col(np, 0.0), row(nx, 0.0);
  for (std::size_t k = 0; k < nt; ++k)
    for (std::size_t j = 0; j < np; ++j)
      for (std::size_t i = 0; i < nx; ++i) {
        const double v = std::fabs(ref.s_at(k, i, j));
        col[j] = std::max(col[j], v);
        row[i] = std::max(row[i], v);
      }
  const double floor = 1e-6 * *std::max_element(col.begin(), col.end());
  double worst = 0;
  for (std::size_t k = 0; k < nts; ++k)
    for (std::size_t j = 0; j < np; ++j)
      for (std::size_t i = 0; i < nx; ++i) {
        const double scale = std::max({col[j], row[i], floor});
        const double e = std::fabs(r.s_at(k, i, j) - ref.s_at(first + k, i, j));
        worst = std::max(worst, scale > 0 ? e / scale : e);
      }
  return worst;
}

// Error of the gradient: the largest |g_j - g_ref,j| over the largest
// |sum_i w_i S_ref,ij(t)| over every output time: the scale dG/dp reaches
// along the span, as S(T) is judged on the scales of the whole trajectory
// (where every state has decayed at T, dG/dp at T is noise at the
// tolerances for every method, Perelson_Science1996).
double gradient_error(const odesens::Result& r, const odesens::Result& ref) {
  if (r.gradient.size() != ref.gradient.size()) return NAN;
  double diff = 0, scale = 0;
  for (std::size_t j = 0; j < ref.gradient.size(); ++j) {
    diff = std::max(diff, std::fabs(r.gradient[j] - ref.gradient[j]));
    scale = std::max(scale, std::fabs(ref.gradient[j]));
    for (std::size_t k = 0; k < ref.times.size(); ++k) {
      double g = 0;
      for (std::size_t i = 0; i < ref.nx; ++i) g += g_weight(i, ref.nx) * ref.s_at(k, i, j);
      scale = std::max(scale, std::fabs(g));
    }
  }
  return scale > 0 ? diff / scale : diff;
}

struct Cell {
  double seconds = 0;
  long steps = 0;
  double error = NAN;
  char verdict[48] = "";
  char chosen[24] = "";  // the method auto chose (and ran last)
};

// What one cell runs: the matrix's (one solve at the problem's tolerances,
// S compared) or a goal of --choice (best of `repeats`, `error` compared).
struct CellSpec {
  std::string method;
  odesens::Options options;
  bool gradient = false;  // compare gradients, not S
  int repeats = 1;
  double ok_error = 1e-3;
};

Cell run_cell(const odesens::Problem& p, const CellSpec& spec, const odesens::Result& ref) {
  Cell c;
  c.seconds = INFINITY;
  // A refusal or failure is timed too: how soon a method says why not.
  auto start = std::chrono::steady_clock::now();
  const auto since = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  try {
    odesens::Problem q = p;
    q.options = spec.options;
    // Solves of a millisecond or less repeat up to 30 times: their best of
    // three is noise.
    double spent = 0;
    for (int k = 0; k < spec.repeats || (spec.repeats > 1 && k < 30 && spent < 0.03); ++k) {
      start = std::chrono::steady_clock::now();
      const odesens::Result r = odesens::solve(q, spec.method);
      const double seconds = since();
      c.seconds = std::min(c.seconds, seconds);
      spent += seconds;
      c.steps = r.stats.steps;
      c.error = spec.gradient ? gradient_error(r, ref) : s_error(r, ref);
      const char* v = !r.warnings.empty() ? "warned" : c.error <= spec.ok_error ? "ok" : "WRONG";
      std::snprintf(c.verdict, sizeof c.verdict, "%s", v);
      std::snprintf(c.chosen, sizeof c.chosen, "%s", r.method.c_str());
      if (c.seconds > 1.0) break;  // slow enough to time once
    }
  } catch (const odesens::Error& e) {
    std::snprintf(c.verdict, sizeof c.verdict, "%s", odesens::status_string(e.status()));
    c.seconds = since();
  } catch (const std::exception& e) {
    std::snprintf(c.verdict, sizeof c.verdict, "exception");
    c.seconds = since();
  }
  return c;
}

// A column of --methods: a method id, or "id:key=value;key=value" for
// An option's value as the text reads: an integer (flags, counts), a
// number, or text.
void set_typed(odesens::Options& options, const std::string& key, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') {
    options.set(key, text);
  } else if (v == std::floor(v) && std::fabs(v) < 9e15 &&
             text.find_first_of(".eE") == std::string::npos) {
    options.set(key, static_cast<std::int64_t>(v));
  } else {
    options.set(key, v);
  }
}

// the method with options (pbsr:error_control=off).
CellSpec cell_spec(const std::string& column) {
  CellSpec spec;
  const std::size_t colon = column.find(':');
  spec.method = column.substr(0, colon);
  if (colon == std::string::npos) return spec;
  std::size_t at = colon + 1;
  while (at < column.size()) {
    std::size_t end = column.find(';', at);
    if (end == std::string::npos) end = column.size();
    const std::string pair = column.substr(at, end - at);
    const std::size_t eq = pair.find('=');
    if (eq != std::string::npos) set_typed(spec.options, pair.substr(0, eq), pair.substr(eq + 1));
    at = end + 1;
  }
  return spec;
}

// How a child process of run_in_child ended.
enum class ChildEnd { done, killed, crashed };

// fn() in a child process killed after `limit` seconds; its result (a
// trivially copyable T) comes back through a pipe. `seconds`: the child's
// wall time.
template <class T, class F>
ChildEnd run_in_child(F fn, double limit, T& result, double& seconds) {
  int fds[2];
  const auto start = std::chrono::steady_clock::now();
  const auto since = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (pipe(fds) != 0) {
    result = fn();
    seconds = since();
    return ChildEnd::done;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const T out = fn();
    const ssize_t written = write(fds[1], &out, sizeof out);
    _exit(written == static_cast<ssize_t>(sizeof out) ? 0 : 1);
  }
  close(fds[1]);
  ChildEnd end = ChildEnd::done;
  for (;;) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      if (read(fds[0], &result, sizeof result) != static_cast<ssize_t>(sizeof result))
        end = ChildEnd::crashed;
      break;
    }
    if (since() > limit) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      end = ChildEnd::killed;
      break;
    }
    usleep(2000);
  }
  seconds = since();
  close(fds[0]);
  return end;
}

// run_cell in a child process killed after `limit` seconds.
Cell run_limited(const odesens::Problem& p, const CellSpec& spec, const odesens::Result& ref,
                 double limit) {
  Cell c;
  double seconds = 0;
  const ChildEnd end = run_in_child([&] { return run_cell(p, spec, ref); }, limit, c, seconds);
  if (end == ChildEnd::crashed) std::snprintf(c.verdict, sizeof c.verdict, "crashed");
  if (end == ChildEnd::killed) {
    c.seconds = seconds;
    std::snprintf(c.verdict, sizeof c.verdict, "killed");
  }
  return c;
}

// The best times of up to kMaxPaired specs, timed in turn in one process
// (round robin) until 0.5 s are spent, and at least 5 rounds: runs in
// separate processes, each timed alone, gave ratios of sub-millisecond
// solves that moved by up to 2x between two runs of the benchmark (a busy
// core, the clock's frequency); alternating, every spec sees the same
// machine. A spec that throws reads infinity.
constexpr std::size_t kMaxPaired = 8;
struct PairedTimes {
  double seconds[kMaxPaired];
};

PairedTimes time_in_turn(const odesens::Problem& p, const std::vector<CellSpec>& specs) {
  PairedTimes t;
  std::fill(std::begin(t.seconds), std::end(t.seconds), INFINITY);
  std::vector<odesens::Problem> problems(specs.size(), p);
  for (std::size_t i = 0; i < specs.size(); ++i) problems[i].options = specs[i].options;
  double spent = 0;
  for (int round = 0; round < 5 || (spent < 0.5 && round < 2000); ++round)
    for (std::size_t i = 0; i < specs.size() && i < kMaxPaired; ++i) {
      const auto start = std::chrono::steady_clock::now();
      try {
        odesens::solve(problems[i], specs[i].method);
      } catch (const std::exception&) {
        continue;
      }
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      t.seconds[i] = std::min(t.seconds[i], s);
      spent += s;
    }
  return t;
}

std::string cell_text(const Cell& c) {
  char text[160];
  if (std::strcmp(c.verdict, "ok") == 0 || std::strcmp(c.verdict, "warned") == 0 ||
      std::strcmp(c.verdict, "WRONG") == 0)
    std::snprintf(text, sizeof text, "%s %.2g s, %ld st, err %.0e", c.verdict, c.seconds,
                  c.steps, c.error);
  else
    std::snprintf(text, sizeof text, "%s (%.2g s)", c.verdict, c.seconds);
  return text;
}

// --choice: one goal of one model. The fastest right candidate against auto.
struct GoalRow {
  std::string fastest = "none";
  double fastest_seconds = INFINITY;
  Cell automatic;
  bool paired = false;  // the times are those of time_in_turn
};

bool solved(const Cell& c) {
  return std::strcmp(c.verdict, "ok") == 0 || std::strcmp(c.verdict, "warned") == 0 ||
         std::strcmp(c.verdict, "WRONG") == 0;
}

// Where the fastest right method takes under 0.1 s, auto and every right
// method within 1.5 times the fastest are timed again in turn in one
// process (time_in_turn), and the row takes those times.
void time_again_in_turn(const odesens::Problem& p, const std::vector<CellSpec>& specs,
                        const std::vector<Cell>& cells, const CellSpec& automatic,
                        GoalRow& row) {
  if (!(row.fastest_seconds < 0.1) || !solved(row.automatic)) return;
  std::vector<CellSpec> near = {automatic};
  for (std::size_t i = 0; i < specs.size() && near.size() < kMaxPaired; ++i)
    if (std::strcmp(cells[i].verdict, "ok") == 0 && cells[i].seconds <= 1.5 * row.fastest_seconds)
      near.push_back(specs[i]);
  PairedTimes t;
  double seconds = 0;
  if (run_in_child([&] { return time_in_turn(p, near); }, 60.0, t, seconds) != ChildEnd::done)
    return;
  row.paired = true;
  row.automatic.seconds = t.seconds[0];
  row.fastest_seconds = INFINITY;
  for (std::size_t i = 1; i < near.size(); ++i)
    if (t.seconds[i] < row.fastest_seconds) {
      row.fastest = near[i].method;
      row.fastest_seconds = t.seconds[i];
    }
}

GoalRow run_goal(const odesens::Problem& p, const odesens::Result& ref, bool gradient,
                 double limit) {
  const std::vector<std::string> forward = {"cvodes_fsa", "odesd", "pbsr", "exp", "dopri8s",
                                            "grk4as"};
  std::vector<CellSpec> specs;
  for (const std::string& m : forward) specs.push_back({m, {}, gradient, 3, 1e-4});
  if (gradient)
    for (const char* m : {"cvodes_asa", "erk_adjoint"}) {
      CellSpec spec{m, {}, true, 3, 1e-4};
      spec.options.set("final_sensitivity", 0);
      specs.push_back(spec);
    }
  GoalRow row;
  std::vector<Cell> cells;
  for (const CellSpec& spec : specs) {
    const Cell c = run_limited(p, spec, ref, limit);
    cells.push_back(c);
    std::fprintf(stderr, "  %s %s: %s\n", gradient ? "gradient" : "S", spec.method.c_str(),
                 cell_text(c).c_str());
    if (std::strcmp(c.verdict, "ok") == 0 && c.seconds < row.fastest_seconds) {
      row.fastest = spec.method;
      row.fastest_seconds = c.seconds;
    }
  }
  CellSpec automatic{"auto", {}, gradient, 3, 1e-4};
  automatic.options.set("goal", gradient ? "gradient" : "s");
  row.automatic = run_limited(p, automatic, ref, limit);
  time_again_in_turn(p, specs, cells, automatic, row);
  return row;
}

std::string goal_text(const GoalRow& row) {
  char text[200];
  const Cell& a = row.automatic;
  std::snprintf(text, sizeof text, "%s %.3g s%s | %s: %s %.3g s, err %.0e | %.2f",
                row.fastest.c_str(), row.fastest_seconds, row.paired ? " (in turn)" : "",
                a.chosen[0] ? a.chosen : "-", a.verdict, a.seconds, a.error,
                a.seconds / row.fastest_seconds);
  return text;
}

int choice_table(const std::vector<std::string>& models, double factor, double max_limit) {
  std::printf("| model | S: fastest right | S: auto | auto/fastest | gradient: fastest right | "
              "gradient: auto | auto/fastest |\n|---|---|---|---|---|---|---|\n");
  for (const std::string& path : models) {
    ModelCase c;
    if (!model_case(path, 1e-8, 1e-11, c, /*weighted=*/true)) continue;
    const odesens::Problem& p = c.problem;
    const odesens::Result& ref = c.reference;
    const double limit = std::min(max_limit, std::max(2.0, factor * c.fsa_seconds));
    std::fprintf(stderr, "%s\n", base_name(path).c_str());
    const GoalRow s = run_goal(p, ref, false, limit);
    const GoalRow g = run_goal(p, ref, true, limit);
    std::printf("| %s | %s | %s |\n", base_name(path).c_str(), goal_text(s).c_str(),
                goal_text(g).c_str());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> models = files_in(shared_dir() + "/models/sbml", ".xml");
  for (const std::string& f : files_in(shared_dir() + "/models/ode", ".ode")) models.push_back(f);
  std::vector<std::string> methods = {"cvodes_fsa", "cvodes_asa", "odesd", "pbsr", "exp",
                                      "dopri8s", "grk4as", "erk_adjoint"};
  double factor = 20, max_limit = 240;
  bool choice = false;
  // A whole run takes about an hour: a mistyped flag is an error, not a run
  // with the defaults.
  const char* usage =
      "usage: bench_method_matrix [--models A,B] [--methods m1,m2] [--limit-factor F]\n"
      "                           [--max-limit SECONDS] [--choice 0|1]\n"
      "Every method (or auto's choice, --choice 1) on every shared model; "
      "benchmarks/RESULTS.md says what the table holds.\n";
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      std::fputs(usage, stdout);
      return 0;
    }
  if (argc % 2 == 0) {
    std::fprintf(stderr, "bench_method_matrix: %s needs a value\n%s", argv[argc - 1], usage);
    return 2;
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--models") {
      std::vector<std::string> keep;
      for (const std::string& want : split(value)) {
        const std::size_t before = keep.size();
        for (const std::string& m : models)
          if (base_name(m) == want) keep.push_back(m);
        if (keep.size() == before) {
          std::fprintf(stderr, "bench_method_matrix: no shared model '%s'\n", want.c_str());
          return 2;
        }
      }
      models = keep;
    } else if (key == "--methods") {
      methods = split(value);
    } else if (key == "--limit-factor") {
      factor = std::atof(value.c_str());
    } else if (key == "--max-limit") {
      max_limit = std::atof(value.c_str());
    } else if (key == "--choice") {
      choice = value != "0";
    } else {
      std::fprintf(stderr, "bench_method_matrix: unknown flag '%s'\n%s", key.c_str(), usage);
      return 2;
    }
  }
  if (choice) return choice_table(models, factor, max_limit);
  std::printf("| model | cvodes_fsa time |");
  for (const std::string& m : methods) std::printf(" %s |", m.c_str());
  std::printf("\n|---|---|");
  for (std::size_t i = 0; i < methods.size(); ++i) std::printf("---|");
  std::printf("\n");
  for (const std::string& path : models) {
    ModelCase c;
    if (!model_case(path, 0, 1e-10, c)) continue;
    const odesens::Problem& p = c.problem;
    const odesens::Result& ref = c.reference;
    const double limit = std::min(max_limit, std::max(2.0, factor * c.fsa_seconds));
    std::printf("| %s | %.2g s |", base_name(path).c_str(), c.fsa_seconds);
    std::fflush(stdout);
    for (const std::string& m : methods) {
      std::printf(" %s |", cell_text(run_limited(p, cell_spec(m), ref, limit)).c_str());
      std::fflush(stdout);
    }
    std::printf("\n");
  }
  return 0;
}
