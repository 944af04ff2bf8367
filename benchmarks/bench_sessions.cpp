// Per-solve time of solve() against a prepared session's run() for many
// solves with changing parameters on small models: chua over [0, 1], the
// Boehm_JProteomeRes2014 SBML model, pka, camkii and glv:5, with cvodes_fsa,
// cvodes_asa, odesd and erk_adjoint. The parameters of solve k are the
// nominal ones scaled by 1 + 0.05 sin(k + j) (parameter j), the same for
// both. The two loops alternate in blocks of 100 solves so that the load of
// a shared machine falls on both alike. Set-up per solve is what run()
// saves: (t_solve - t_run) / t_solve, the share of a solve that depends on
// nothing run() changes. prepare() itself is timed once per case.
//
// Run: build/bin/bench_sessions [--solves 10000] [--cases chua/cvodes_fsa,...]
// Goal: run() >= 1.3x faster than solve() on chua over [0, 1] with cvodes_fsa.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::string shared_dir() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return env ? env : ODESENS_DEFAULT_SHARED_DIR;
}

struct ModelCase {
  const char* name;
  std::string spec;
  double t_end;  // 0: the model's own
};

std::vector<ModelCase> model_cases() {
  const std::string dir = shared_dir() + "/models";
  return {{"chua", "builtin:chua", 1.0},
          {"Boehm_JProteomeRes2014", dir + "/sbml/Boehm_JProteomeRes2014.xml", 0.0},
          {"pka", dir + "/ode/pka.ode", 0.0},
          {"camkii", dir + "/ode/camkii.ode", 0.0},
          {"glv:5", "builtin:glv:5", 0.0}};
}

const char* const kMethods[] = {"cvodes_fsa", "cvodes_asa", "odesd", "erk_adjoint"};

odesens::Problem make_problem(const ModelCase& c) {
  odesens::Problem pr;
  pr.model = odesens::load_model(c.spec);
  pr.t0 = pr.model->default_t0();
  const double t_end = c.t_end > 0.0 ? c.t_end : pr.model->default_t_end();
  for (int k = 1; k <= 10; ++k) pr.output_times.push_back(pr.t0 + (t_end - pr.t0) * k / 10.0);
  return pr;
}

std::vector<double> parameters(const std::vector<double>& nominal, int k) {
  std::vector<double> p = nominal;
  for (std::size_t j = 0; j < p.size(); ++j) p[j] *= 1.0 + 0.05 * std::sin(k + double(j));
  return p;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Timing {
  double solve_s = 0.0, run_s = 0.0, prepare_s = 0.0;
};

Timing time_case(const odesens::Problem& base, const char* method, int solves) {
  Timing t;
  const std::vector<double> nominal = base.model->nominal_params();
  auto start = Clock::now();
  auto session = odesens::prepare(base, method);
  t.prepare_s = seconds_since(start);
  odesens::Problem pr = base;
  std::vector<double> last(100);  // each solve's last state value, against run()'s
  int mismatches = 0;
  for (int block = 0; block < solves; block += 100) {
    const int end = std::min(solves, block + 100);
    start = Clock::now();
    for (int k = block; k < end; ++k) {
      pr.params = parameters(nominal, k);
      last[k - block] = odesens::solve(pr, method).x.back();
    }
    t.solve_s += seconds_since(start);
    start = Clock::now();
    for (int k = block; k < end; ++k)
      mismatches += session->run(parameters(nominal, k)).x.back() != last[k - block];
    t.run_s += seconds_since(start);
  }
  if (mismatches > 0) std::printf("(run() differs from solve() in %d solves)\n", mismatches);
  return t;
}

bool selected(const std::string& name, const char* filter) {
  if (!filter) return true;
  std::stringstream ss(filter);
  std::string item;
  while (std::getline(ss, item, ','))
    if (item == name) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv, {{"--solves", true}, {"--cases", true}},
                              "[--solves N] [--cases FILTER]");
  int solves = 10000;
  const char* filter = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--solves")) solves = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--cases")) filter = argv[i + 1];
  }
  std::printf("%-24s %-12s %7s %12s %12s %8s %10s %12s\n", "model", "method", "solves",
              "solve us", "run us", "ratio", "set-up %", "prepare us");
  for (const ModelCase& c : model_cases()) {
    odesens::Problem pr;
    try {
      pr = make_problem(c);
    } catch (const odesens::Error& e) {
      std::printf("%-24s skipped: %s\n", c.name, e.what());
      continue;
    }
    for (const char* method : kMethods) {
      if (!selected(std::string(c.name) + "/" + method, filter)) continue;
      try {
        const Timing t = time_case(pr, method, solves);
        const double per_solve = 1e6 * t.solve_s / solves, per_run = 1e6 * t.run_s / solves;
        std::printf("%-24s %-12s %7d %12.1f %12.1f %8.2f %10.1f %12.1f\n", c.name, method, solves,
                    per_solve, per_run, per_solve / per_run,
                    100.0 * (per_solve - per_run) / per_solve, 1e6 * t.prepare_s);
      } catch (const odesens::Error& e) {
        std::printf("%-24s %-12s failed: %s\n", c.name, method, e.what());
      }
      std::fflush(stdout);
    }
  }
  return 0;
}
