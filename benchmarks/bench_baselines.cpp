// The CVODES baselines on the adjoint paper's test problems: generalized
// Lotka-Volterra glv:N (N + N^2 parameters) and the heat equation heat2d:Np,
// forward sensitivities (all of S at the final time) against the adjoint
// (S(T) by one backward problem per state, and the gradient alone).
//
// Run: build/bin/bench_baselines   (benchmarks/make_results.py writes RESULTS.md)
#include <benchmark/benchmark.h>

#include <string>

#include "odesens/odesens.hpp"

namespace {

using odesens::Problem;

Problem make_problem(const std::string& model, double rtol) {
  Problem p;
  p.model = odesens::load_model("builtin:" + model);
  p.t0 = p.model->default_t0();
  p.output_times = {p.model->default_t_end()};
  p.rtol = rtol;
  p.atol = {rtol * 1e-2};
  return p;
}

void run(benchmark::State& state, const std::string& model, const std::string& method,
         bool gradient_only) {
  Problem problem = make_problem(model, 1e-6);
  if (gradient_only) problem.options.set("final_sensitivity", 0);
  odesens::Result r;
  for (auto _ : state) {
    r = odesens::solve(problem, method);
    benchmark::DoNotOptimize(r.x.data());
  }
  state.counters["nx"] = static_cast<double>(r.nx);
  state.counters["np"] = static_cast<double>(r.np);
  state.counters["steps"] = static_cast<double>(r.stats.steps);
  state.counters["rhs_evals"] = static_cast<double>(r.stats.rhs_evals);
}

void register_all() {
  for (const std::string model : {"glv:10", "glv:40", "glv:100", "heat2d:16", "heat2d:32"}) {
    const int iterations = model == "glv:100" || model == "heat2d:32" ? 1 : 3;
    benchmark::RegisterBenchmark(("cvodes_fsa/" + model).c_str(), run, model, "cvodes_fsa", false)
        ->Unit(benchmark::kMillisecond)->Iterations(iterations);
    benchmark::RegisterBenchmark(("cvodes_asa/" + model).c_str(), run, model, "cvodes_asa", false)
        ->Unit(benchmark::kMillisecond)->Iterations(iterations);
    benchmark::RegisterBenchmark(("cvodes_asa_gradient/" + model).c_str(), run, model,
                                 "cvodes_asa", true)
        ->Unit(benchmark::kMillisecond)->Iterations(iterations);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
