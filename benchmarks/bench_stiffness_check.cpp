// What Hairer's stiffness test and erk_adjoint's stability limit cost where
// they never act, and what they save where they do. Non-stiff: DETEST C1,
// DETEST C5 and chua over their own time spans (101 outputs), dopri8s and
// erk_adjoint with stiffness_check=1 and 0, and erk_adjoint with
// stability_limit=1 and 0, interleaved, best of `repeats` each; the ratio
// on/off is the cost.
// Stiff: STIFF DETEST E3 and vanderpol (mu = 1000), time until the test ends
// the solve against cvodes_fsa's whole solve.
//
// Run: build/bin/bench_stiffness_check [--repeats 15]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

std::string shared_dir() {
  if (const char* env = std::getenv("ODESENS_SHARED_DIR")) return env;
  return ODESENS_DEFAULT_SHARED_DIR;
}

std::vector<double> span(double t0, double t1, int count) {
  std::vector<double> out(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) out[static_cast<std::size_t>(i)] = t0 + (t1 - t0) * i / (count - 1);
  return out;
}

odesens::Problem problem_of(const std::string& spec) {
  odesens::Problem p;
  p.model = odesens::load_model(spec);
  p.output_times = span(0, p.model->default_t_end(), 101);
  return p;
}

struct Timing {
  double seconds = std::numeric_limits<double>::infinity();
  std::string outcome = "ok";
  long steps = 0;
};

// One solve: its time, and how it ended.
Timing time_solve(const odesens::Problem& p, const std::string& method) {
  Timing t;
  const auto start = std::chrono::steady_clock::now();
  try {
    const odesens::Result r = odesens::solve(p, method);
    t.steps = r.stats.steps;
  } catch (const odesens::Error& e) {
    t.outcome = odesens::status_string(e.status());
  }
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

void non_stiff(int repeats) {
  std::printf("| model | method | option | steps | on (ms) | off (ms) | on/off |\n"
              "|---|---|---|---|---|---|---|\n");
  struct Variant {
    const char* method;
    const char* option;
  };
  const Variant variants[] = {{"dopri8s", "stiffness_check"},
                              {"erk_adjoint", "stiffness_check"},
                              {"erk_adjoint", "stability_limit"}};
  const char* models[] = {"detest_c1", "detest_c5", "chua"};
  for (const char* name : models) {
    for (const Variant& v : variants) {
      odesens::Problem on = problem_of(shared_dir() + "/models/ode/" + name + ".ode");
      odesens::Problem off = on;
      off.options.set(v.option, std::int64_t{0});
      Timing best_on, best_off;
      for (int r = 0; r < repeats; ++r) {  // interleaved: the machine's noise hits both
        const Timing a = time_solve(on, v.method), b = time_solve(off, v.method);
        if (a.seconds < best_on.seconds) best_on = a;
        if (b.seconds < best_off.seconds) best_off = b;
      }
      std::printf("| %s | %s | %s | %ld | %.3f | %.3f | %.3f |\n", name, v.method, v.option,
                  best_on.steps, 1e3 * best_on.seconds, 1e3 * best_off.seconds,
                  best_on.seconds / best_off.seconds);
    }
  }
}

void stiff() {
  std::printf("\n| model | method | outcome | time (ms) | cvodes_fsa (ms) | ratio |\n"
              "|---|---|---|---|---|---|\n");
  struct Case {
    const char* label;
    std::string spec;
    std::vector<double> params;
  };
  const Case cases[] = {{"stiff_e3", shared_dir() + "/models/ode/stiff_e3.ode", {}},
                        {"vanderpol (mu = 1000, t in [0, 100])", "builtin:vanderpol", {}}};
  for (const Case& c : cases) {
    odesens::Problem p = problem_of(c.spec);
    if (!c.params.empty()) p.params = c.params;
    if (c.spec == "builtin:vanderpol") p.output_times = span(0, 100, 101);
    const Timing fsa = time_solve(p, "cvodes_fsa");
    for (const char* method : {"dopri8s", "erk_adjoint"}) {
      const Timing t = time_solve(p, method);
      std::printf("| %s | %s | %s | %.1f | %.1f | %.2f |\n", c.label, method, t.outcome.c_str(),
                  1e3 * t.seconds, 1e3 * fsa.seconds, t.seconds / fsa.seconds);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv, {{"--repeats", true}}, "[--repeats N]");
  int repeats = 15;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[i + 1]));
  non_stiff(repeats);
  stiff();
  return 0;
}
