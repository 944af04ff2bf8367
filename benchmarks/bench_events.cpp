// Events and switches with cvodes_fsa: what a dose costs.
//
// Repeated dosing, x' = -k x with x += D every `period` (a clock state and
// an event; k, D, period parameters), N = 10, 100 and 1000 doses over
// [0, N period], against the same decay without doses from x = 1 (the
// smooth baseline: one solve without restarts), with S and states only;
// then the real
// SBML models whose rate laws switch in time (Brannmark, insulin steps) or
// that have none, as a check that the switch handling costs nothing where
// there is nothing to switch. Then every method that runs events on the
// 100 doses: steps, f evaluations, time and the error of S(T) against
// cvodes_fsa at rtol 1e-12. Markdown tables; wall times are the median of
// `--repeats` solves (default 5).
//
//   build/bin/bench_events [--repeats R]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

using namespace odesens;

std::string dosing_model(bool with_event) {
  std::string text = "param k = 0.2\nparam D = 1\nparam period = 0.5\n";
  text += with_event ? "state x = 0\n" : "state x = 1\n";
  text += "state clock = 0\ndx/dt = -k*x\ndclock/dt = 1\n";
  if (with_event) text += "event dose when clock >= period: clock = 0; x = x + D\n";
  return text;
}

struct Measured {
  double seconds = 0.0;
  Result result;
};

Measured measure(const Problem& problem, int repeats, const char* method = "cvodes_fsa") {
  std::vector<double> times;
  Measured m;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    m.result = solve(problem, method);
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  m.seconds = times[times.size() / 2];
  return m;
}

double events_of(const Result& r) {
  auto it = r.stats.extra.find("events_executed");
  return it == r.stats.extra.end() ? 0.0 : it->second;
}

void row(const std::string& name, const Problem& problem, int repeats) {
  for (int sens : {1, 0}) {
    Problem p = problem;
    p.options.set("sensitivities", sens);
    const Measured m = measure(p, repeats);
    std::printf("| %s | %s | %.0f | %lld | %lld | %.2f |\n", name.c_str(),
                sens ? "S" : "states", events_of(m.result),
                static_cast<long long>(m.result.stats.steps),
                static_cast<long long>(m.result.stats.rhs_evals), 1e3 * m.seconds);
  }
}

// S at the last output time (the methods that give S only there give it
// as their whole s).
std::vector<double> final_s(const Result& r) {
  const std::size_t block = r.nx * r.np;
  return std::vector<double>(r.s.end() - static_cast<std::ptrdiff_t>(block), r.s.end());
}

// Every method that runs events on the 100 doses, at the same tolerances.
void methods_table(int repeats) {
  Problem problem;
  problem.model = load_ode_text(dosing_model(true), "dosing.ode");
  problem.output_times = {0.0, 50.25};
  problem.max_steps = 10000000;
  problem.rtol = 1e-12;
  problem.atol = {1e-14};
  const std::vector<double> reference = final_s(solve(problem, "cvodes_fsa"));
  problem.rtol = 1e-8;
  problem.atol = {1e-10};
  std::printf("\n| method (100 doses, S(T)) | events | steps | f evals | ms | max rel. error of S(T) |\n"
              "|---|---|---|---|---|---|\n");
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "pbsr", "exp", "odesd", "dopri8s",
                             "grk4as", "erk_adjoint"}) {
    try {
      const Measured m = measure(problem, repeats, method);
      const std::vector<double> s = final_s(m.result);
      double error = 0.0, scale = 0.0;
      for (double v : reference) scale = std::max(scale, std::fabs(v));
      for (std::size_t q = 0; q < s.size() && q < reference.size(); ++q)
        error = std::max(error, std::fabs(s[q] - reference[q]) / scale);
      std::printf("| %s | %.0f | %lld | %lld | %.2f | %.1e |\n", method, events_of(m.result),
                  static_cast<long long>(m.result.stats.steps),
                  static_cast<long long>(m.result.stats.rhs_evals), 1e3 * m.seconds, error);
    } catch (const Error& e) {
      std::printf("| %s | not run: %s | | | | |\n", method, e.what());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv, {{"--repeats", true}}, "[--repeats N]");
  int repeats = 5;
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = std::atoi(argv[++i]);
  std::printf("| model | solve | events | steps | f evals | ms |\n|---|---|---|---|---|---|\n");
  for (int doses : {10, 100, 1000}) {
    const double t_end = 0.5 * doses + 0.25;  // a quarter period after the last dose
    for (bool with_event : {true, false}) {
      Problem problem;
      problem.model = load_ode_text(dosing_model(with_event), "dosing.ode");
      problem.output_times = {0.0, t_end};
      problem.rtol = 1e-8;
      problem.atol = {1e-10};
      problem.max_steps = 10000000;
      row("dosing, " + std::to_string(doses) + (with_event ? " doses" : ", no event"), problem,
          repeats);
    }
  }
  const char* dir_env = std::getenv("ODESENS_SHARED_DIR");
  const std::string shared = dir_env ? dir_env : ODESENS_DEFAULT_SHARED_DIR;
  for (const char* name : {"Brannmark_JBC2010", "Boehm_JProteomeRes2014"}) {
    const std::string path = shared + "/models/sbml/" + name + ".xml";
    try {
      Problem problem;
      problem.model = load_model_file(path);
      for (int k = 0; k <= 100; ++k) problem.output_times.push_back(k);
      problem.rtol = 1e-8;
      problem.atol = {1e-10};
      const auto* events = problem.model->event_system();
      std::size_t switches = 0;
      if (events)
        for (const auto& r : events->roots()) switches += r.switches_rhs;
      row(std::string(name) + " (" + std::to_string(switches) + " switches of f)", problem,
          repeats);
    } catch (const Error& e) {
      std::printf("| %s | not run: %s | | | | |\n", name, e.what());
    }
  }
  methods_table(repeats);
  return 0;
}
