// Ensembles on this machine's cores: throughput of solve_ensemble with 1
// and 2 threads, and what an ensemble costs per member over a bare loop of
// solve() calls.
//
//   scaling    cvodes_fsa on CaMKII (camkii.ode, [0, 600], 61 output times,
//              rtol 1e-5, atol 1e-6) and on glv:40 ([0, 10], 11 output
//              times, rtol 1e-6, atol 1e-8), K = 200 members with
//              parameters spread by +-20 % around the nominal: wall time of
//              the whole ensemble at 1 and 2 threads, members per second,
//              and the speed-up (goal >= 1.8 on 2 cores).
//   overhead   chua (builtin, [0, 10], 11 outputs), cvodes_fsa: K = 2000
//              members on 1 thread against the same 2000 solve() calls in
//              a loop (goal: at most 10 % more per member).
// Every time is the median of --repeats runs; the two sides of a ratio are
// measured alternately in one run.
//
// Run: build/bin/bench_ensemble [--members 200] [--repeats 5]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

std::string shared_dir() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return env ? env : ODESENS_DEFAULT_SHARED_DIR;
}

double seconds_of(const std::function<void()>& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// K parameter vectors: the nominal times factors in [0.8, 1.2], a
// deterministic spread (a Weyl sequence per parameter).
std::vector<std::vector<double>> spread(const std::vector<double>& nominal, std::size_t members) {
  std::vector<std::vector<double>> sets(members, nominal);
  for (std::size_t k = 0; k < members; ++k)
    for (std::size_t j = 0; j < nominal.size(); ++j) {
      const double u = std::fmod(0.6180339887 * static_cast<double>(k + 1) +
                                     0.4142135623 * static_cast<double>(j),
                                 1.0);
      sets[k][j] = nominal[j] * (0.8 + 0.4 * u);
    }
  return sets;
}

std::size_t failures(const std::vector<odesens::EnsembleMember>& members) {
  return static_cast<std::size_t>(std::count_if(
      members.begin(), members.end(),
      [](const odesens::EnsembleMember& m) { return m.status != odesens::Status::ok; }));
}

void scaling_row(const char* name, const odesens::Problem& problem, std::size_t members,
                 int repeats) {
  const auto sets = spread(problem.model->nominal_params(), members);
  std::vector<double> one, two;
  std::size_t failed = 0;
  for (int r = 0; r < repeats; ++r)
    for (unsigned threads : {1u, 2u}) {
      odesens::EnsembleOptions options;
      options.threads = threads;
      std::vector<odesens::EnsembleMember> out;
      const double s =
          seconds_of([&] { out = odesens::solve_ensemble(problem, "cvodes_fsa", sets, options); });
      failed = failures(out);
      (threads == 1 ? one : two).push_back(s);
    }
  const double t1 = median(one), t2 = median(two);
  std::printf("| %s | %zu | %zu | %.3f | %.3f | %.0f | %.0f | %.2f | %s |\n", name, members,
              failed, t1, t2, static_cast<double>(members) / t1,
              static_cast<double>(members) / t2, t1 / t2, t1 / t2 >= 1.8 ? "met" : "not met");
}

void overhead_row(std::size_t members, int repeats) {
  odesens::Problem problem;
  problem.model = odesens::make_builtin_model("chua");
  for (int k = 1; k <= 10; ++k) problem.output_times.push_back(k);
  const auto sets = spread(problem.model->nominal_params(), members);
  std::vector<double> loop, ensemble;
  for (int r = 0; r < repeats; ++r) {
    loop.push_back(seconds_of([&] {
      for (const auto& p : sets) {
        odesens::Problem q = problem;
        q.params = p;
        const odesens::Result result = odesens::solve(q, "cvodes_fsa");
        if (result.x.empty()) std::abort();
      }
    }));
    odesens::EnsembleOptions options;
    options.threads = 1;
    ensemble.push_back(seconds_of([&] {
      if (odesens::solve_ensemble(problem, "cvodes_fsa", sets, options).size() != members)
        std::abort();
    }));
  }
  const double per_loop = median(loop) / static_cast<double>(members);
  const double per_member = median(ensemble) / static_cast<double>(members);
  const double overhead = per_member / per_loop - 1.0;
  std::printf("| chua, cvodes_fsa | %zu | %.1f | %.1f | %+.1f %% | %s |\n", members,
              1e6 * per_loop, 1e6 * per_member, 100.0 * overhead,
              overhead <= 0.10 ? "met" : "not met");
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv, {{"--members", true}, {"--repeats", true}},
                              "[--members N] [--repeats N]");
  std::size_t members = 200;
  int repeats = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--members")) members = std::strtoul(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--repeats")) repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  std::printf("| model | K | failed | 1 thread [s] | 2 threads [s] | members/s (1) | "
              "members/s (2) | speed-up | goal >= 1.8 |\n|---|---|---|---|---|---|---|---|---|\n");
  try {
    odesens::Problem camkii;
    camkii.model = odesens::load_model(shared_dir() + "/models/ode/camkii.ode");
    for (int k = 0; k <= 60; ++k) camkii.output_times.push_back(10.0 * k);
    camkii.rtol = 1e-5;
    camkii.atol = {1e-6};
    scaling_row("CaMKII", camkii, members, repeats);
  } catch (const odesens::Error& e) {
    std::printf("| CaMKII | skipped: %s |\n", e.what());
  }
  odesens::Problem glv;
  glv.model = odesens::make_builtin_model("glv:40");
  for (int k = 0; k <= 10; ++k) glv.output_times.push_back(k);
  glv.rtol = 1e-6;
  glv.atol = {1e-8};
  scaling_row("glv:40", glv, members, repeats);

  std::printf("\n| model | K | bare solve() loop [us/member] | ensemble, 1 thread [us/member] | "
              "overhead | goal <= 10 %% |\n|---|---|---|---|---|---|\n");
  overhead_row(10 * members, repeats);
  return 0;
}
