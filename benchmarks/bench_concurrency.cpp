// Does a solve slow down when another runs at the same time? Users run many
// solves at once (fits, MCMC, ensembles), so a solve must not depend on
// spare cores: dense linear algebra runs on the calling thread (serial
// OpenBLAS, cmake/FindOdesensBlasLapack.cmake) and nothing inside a solve
// starts threads of its own.
//
// For cvodes_fsa, pbsr and exp on CaMKII (camkii.ode, [0, 600], 601 output
// times, rtol 1e-5, atol 1e-6: the PBS paper's tolerances), each benchmark
// runs the same solve on 1 and on 2 threads at once (one shared model,
// a workspace per solve) and reports the wall time of one solve. The
// ratio 2 threads / 1 thread is the slowdown from running two at once;
// this machine has 2 cores, so the goal is <= 1.3.
//
// Three baselines measure the machine itself in the same run, each on 1
// and 2 threads: a loop of dependent floating-point operations on
// registers (latency-bound, no memory traffic), a sum streaming through
// 64 MB (memory bandwidth), and 32 x 32 matrix products in cache with the
// library's dgemm (the vector units' throughput, as in exp's and pbsr's
// exponentials). Where a baseline slows down with two threads, the two
// cores share that resource (virtual CPUs on one physical core share its
// vector units; a clock may drop when both run), and no solve that leans
// on it can do better than that ratio.
//
// Run: build/bin/bench_concurrency   (benchmarks/make_results.py writes RESULTS.md)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "linalg/dense.hpp"
#include "odesens/odesens.hpp"

namespace {

std::string shared_dir() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return env ? env : ODESENS_DEFAULT_SHARED_DIR;
}

odesens::Problem camkii_problem() {
  odesens::Problem p;
  p.model = odesens::load_model(shared_dir() + "/models/ode/camkii.ode");
  p.t0 = 0.0;
  for (int k = 0; k <= 600; ++k) p.output_times.push_back(k);
  p.rtol = 1e-5;
  p.atol = {1e-6};
  return p;
}

void solve_repeatedly(benchmark::State& state, const odesens::Problem* problem,
                      const std::string& method) {
  odesens::Result r;
  for (auto _ : state) r = odesens::solve(*problem, method);
  state.counters["steps"] = static_cast<double>(r.stats.steps);
}

// 8 independent chains of multiply-adds, 2e7 rounds: registers only.
void registers_only(benchmark::State& state) {
  double a[8] = {1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7};
  for (auto _ : state) {
    for (int k = 0; k < 20000000; ++k)
      for (double& v : a) v = v * 0.999999 + 1e-7;
    benchmark::DoNotOptimize(a);
  }
}

// A sum over 64 MB of this thread's own: memory bandwidth.
void memory_stream(benchmark::State& state) {
  std::vector<double> data(8u << 20, 1.0);
  for (auto _ : state) {
    double sum = 0.0;
    for (double v : data) sum += v;
    benchmark::DoNotOptimize(sum);
  }
}

// 32 x 32 products in cache, 2000 a round: vector-unit throughput.
void small_products(benchmark::State& state) {
  const std::size_t n = 32;
  std::vector<double> a(n * n, 0.5), b(n * n, 0.25), c(n * n, 0.0);
  for (auto _ : state) {
    for (int k = 0; k < 2000; ++k)
      odesens::linalg::gemm(odesens::linalg::Trans::no, odesens::linalg::Trans::no, n, n, n,
                            1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  static odesens::Problem problem;
  try {
    problem = camkii_problem();
  } catch (const odesens::Error& e) {
    std::fprintf(stderr, "bench_concurrency: skipping (camkii.ode): %s\n", e.what());
    return 0;
  }
  for (const char* method : {"cvodes_fsa", "pbsr", "exp"})
    for (int threads : {1, 2})
      benchmark::RegisterBenchmark((std::string(method) + "/camkii").c_str(), solve_repeatedly,
                                   &problem, std::string(method))
          ->Threads(threads)
          ->UseRealTime()
          ->MinTime(1.0)
          ->Unit(benchmark::kMillisecond);
  for (int threads : {1, 2}) {
    benchmark::RegisterBenchmark("baseline_registers", registers_only)
        ->Threads(threads)
        ->UseRealTime()
        ->MinTime(1.0)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("baseline_memory", memory_stream)
        ->Threads(threads)
        ->UseRealTime()
        ->MinTime(1.0)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("baseline_products", small_products)
        ->Threads(threads)
        ->UseRealTime()
        ->MinTime(1.0)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
