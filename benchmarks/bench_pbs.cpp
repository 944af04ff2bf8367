// The PBS paper's experiments on this machine, side by side in one run:
//  - Table 1: cvodes_fsa, pbsr and exp on pka.ode and camkii.ode over [0, 600],
//    with 61 output times (the paper's) and with 601;
//  - Figure 4: the three methods on builtin:linear:n, n = 5, 10, ..., 100, over
//    [0, 10] (pbsr with force_pbs, as in the paper);
//  - with --accuracy: the relative error re_k of pbsr and exp against
//    cvodes_fsa at rtol 1e-10 at every output time (paper's re_k), as a
//    Markdown table.
// The .ode models are read from $ODESENS_SHARED_DIR/models/ode (default: the
// shared folder beside the repository); they are skipped with a message
// when absent.
//
// Run: build/bin/bench_pbs [--accuracy]   (benchmarks/make_results.py writes RESULTS.md)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "odesens/odesens.hpp"

namespace {

using odesens::Problem;
using odesens::Result;

std::string shared_dir() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return env ? env : ODESENS_DEFAULT_SHARED_DIR;
}

// The model, or nullptr with a message when it cannot be loaded.
std::shared_ptr<odesens::Model> try_load(const std::string& spec) {
  try {
    return odesens::load_model(spec);
  } catch (const odesens::Error& e) {
    std::fprintf(stderr, "bench_pbs: skipping %s: %s\n", spec.c_str(), e.what());
    return nullptr;
  }
}

Problem make_problem(std::shared_ptr<odesens::Model> model, double t_end, int n_out) {
  Problem p;
  p.model = std::move(model);
  p.t0 = 0.0;
  for (int k = 0; k < n_out; ++k) p.output_times.push_back(t_end * k / (n_out - 1));
  return p;
}

// The paper's state tolerances for all three methods (rtol 1e-5, atol 1e-6).
Result run_method(Problem problem, const std::string& method, bool force_pbs) {
  problem.rtol = 1e-5;
  problem.atol = {1e-6};
  if (force_pbs) problem.options.set("force_pbs", 1);
  return odesens::solve(problem, method);
}

void bench(benchmark::State& state, Problem problem, std::string method, bool force_pbs) {
  Result r;
  for (auto _ : state) r = run_method(problem, method, force_pbs);
  state.counters["nx"] = static_cast<double>(r.nx);
  state.counters["np"] = static_cast<double>(r.np);
  state.counters["steps"] = static_cast<double>(r.stats.steps);
  state.counters["jac_evals"] = static_cast<double>(r.stats.jac_evals);
}

// re_k = |S_k - S_k^ref|_F / |S_k^ref|_F
double relative_error(const Result& r, const Result& ref, std::size_t k) {
  const std::size_t m = r.nx * r.np;
  double d = 0.0, s = 0.0;
  for (std::size_t q = 0; q < m; ++q) {
    d += std::pow(r.s[k * m + q] - ref.s[k * m + q], 2);
    s += std::pow(ref.s[k * m + q], 2);
  }
  return s > 0.0 ? std::sqrt(d / s) : std::sqrt(d);
}

// Output times every t_end/100 (they are also stop times of the state
// solver); the table shows every tenth.
void accuracy_table(const char* label, std::shared_ptr<odesens::Model> model, double t_end) {
  if (!model) return;
  Problem problem = make_problem(model, t_end, 101);
  Problem tight = problem;
  tight.rtol = 1e-10;
  tight.atol = {1e-12};
  const Result ref = odesens::solve(tight, "cvodes_fsa");
  const Result pbsr = run_method(problem, "pbsr", false);
  const Result exp = run_method(problem, "exp", false);
  Problem left_end = problem;  // the paper's Eq. 18: J frozen at the left end
  left_end.options.set("exp_jacobian", std::string("left"));
  const Result exp_left = run_method(left_end, "exp", false);
  std::printf("\n%s (nx = %zu, np = %zu): re_k against cvodes_fsa at rtol 1e-10, outputs "
              "every %g; %lld steps\n\n", label, ref.nx, ref.np, t_end / 100,
              static_cast<long long>(exp.stats.steps));
  std::printf("| t | re pbsr | re exp | re exp (exp_jacobian=left) |\n|---|---|---|---|\n");
  double max_pbsr = 0.0, max_exp = 0.0, max_left = 0.0;
  for (std::size_t k = 1; k < ref.times.size(); ++k) {
    const double a = relative_error(pbsr, ref, k), b = relative_error(exp, ref, k),
                 c = relative_error(exp_left, ref, k);
    max_pbsr = std::max(max_pbsr, a);
    max_exp = std::max(max_exp, b);
    max_left = std::max(max_left, c);
    if (k % 10 == 0) std::printf("| %g | %.2e | %.2e | %.2e |\n", ref.times[k], a, b, c);
  }
  std::printf("| max over all %zu outputs | %.2e | %.2e | %.2e |\n", ref.times.size() - 1,
              max_pbsr, max_exp, max_left);
  std::printf("\npbsr switched to the exponential update on %g of %g steps.\n",
              pbsr.stats.extra.at("exp_intervals"),
              pbsr.stats.extra.at("exp_intervals") + pbsr.stats.extra.at("pbs_intervals"));
}

void register_benchmarks() {
  const std::string ode = shared_dir() + "/models/ode/";
  for (const char* name : {"pka", "camkii"}) {
    auto model = try_load(ode + name + ".ode");
    if (!model) continue;
    // 61 output times (the paper's) and 601: the state solve's steps do not
    // depend on them (outputs inside a step get S from the step's update
    // restricted to them).
    for (int outputs : {61, 601}) {
      const Problem problem = make_problem(model, 600.0, outputs);
      const std::string group = outputs == 61 ? "table1/" : "table1_601/";
      for (const char* method : {"cvodes_fsa", "pbsr", "exp"})
        benchmark::RegisterBenchmark((group + name + "/" + method).c_str(), bench, problem,
                                     method, false)
            ->Unit(benchmark::kMillisecond);
      // exp without its error control (the paper's algorithm), with
      // outputs by an exponential each from the step's Jacobians instead of
      // one eigen-decomposition per step, and by partial updates.
      for (const char* option :
           {"error_control=off", "outputs=interpolate", "outputs=partial"}) {
        Problem variant = problem;
        const std::string text = option;
        const std::size_t eq = text.find('=');
        variant.options.set(text.substr(0, eq), text.substr(eq + 1));
        benchmark::RegisterBenchmark((group + name + "/exp:" + text).c_str(), bench, variant,
                                     "exp", false)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  for (int n = 5; n <= 100; n += 5) {
    const Problem problem =
        make_problem(odesens::load_model("builtin:linear:" + std::to_string(n)), 10.0, 11);
    for (const char* method : {"cvodes_fsa", "pbsr", "exp"}) {
      const bool pbsr = std::strcmp(method, "pbsr") == 0;
      benchmark::RegisterBenchmark(
          ("figure4/" + std::to_string(n) + "/" + method).c_str(), bench, problem, method, pbsr)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(pbsr && n > 30 ? 1 : (n > 50 ? 2 : 10));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--accuracy") == 0) {
    const std::string ode = shared_dir() + "/models/ode/";
    accuracy_table("builtin:chua", odesens::load_model("builtin:chua"), 10.0);
    accuracy_table("pka.ode", try_load(ode + "pka.ode"), 600.0);
    accuracy_table("camkii.ode", try_load(ode + "camkii.ode"), 600.0);
    return 0;
  }
  register_benchmarks();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
