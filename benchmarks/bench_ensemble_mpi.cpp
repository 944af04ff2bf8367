// The MPI ensemble against threads on this machine: the same ensemble
// (cvodes_fsa on CaMKII, K members, as bench_ensemble) run over 2 MPI ranks
// with one worker each, and on rank 0 alone with 2 threads while rank 1
// waits without spinning, alternately, in one run. Goal: MPI within 10 %
// of the threads.
//
// Run: mpirun --oversubscribe -np 2 build/bin/bench_ensemble_mpi [--members 200] [--repeats 3]
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "ensemble/mpi_ensemble.hpp"
#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

std::string shared_dir() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return env ? env : ODESENS_DEFAULT_SHARED_DIR;
}

// Every rank waits here until all arrive, sleeping between polls so that a
// waiting rank leaves its core to the others (a plain MPI_Barrier spins).
void quiet_barrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  int done = 0;
  while (!done) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (!done) std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv, {{"--members", true}, {"--repeats", true}},
                              "[--members N] [--repeats N]");
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::size_t members = 200;
  int repeats = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--members")) members = std::strtoul(argv[i + 1], nullptr, 10);
    if (!std::strcmp(argv[i], "--repeats")) repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  odesens::Problem camkii;
  try {
    camkii.model = odesens::load_model(shared_dir() + "/models/ode/camkii.ode");
  } catch (const odesens::Error& e) {
    if (rank == 0) std::printf("bench_ensemble_mpi: skipped (camkii.ode): %s\n", e.what());
    MPI_Finalize();
    return 0;
  }
  for (int k = 0; k <= 60; ++k) camkii.output_times.push_back(10.0 * k);
  camkii.rtol = 1e-5;
  camkii.atol = {1e-6};
  const auto nominal = camkii.model->nominal_params();
  std::vector<std::vector<double>> sets(members, nominal);
  for (std::size_t k = 0; k < members; ++k)
    for (std::size_t j = 0; j < nominal.size(); ++j)
      sets[k][j] *= 0.8 + 0.4 * std::fmod(0.6180339887 * static_cast<double>(k + 1) +
                                              0.4142135623 * static_cast<double>(j),
                                          1.0);

  std::vector<double> mpi_times, thread_times;
  for (int r = 0; r < repeats; ++r) {
    odesens::EnsembleOptions one_each;
    one_each.threads = 1;
    quiet_barrier();
    auto start = std::chrono::steady_clock::now();
    odesens::ensemble::solve_ensemble_mpi(MPI_COMM_WORLD, provided, camkii, "cvodes_fsa", sets,
                                          one_each);
    quiet_barrier();
    mpi_times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (rank == 0) {
      odesens::EnsembleOptions two;
      two.threads = 2;
      start = std::chrono::steady_clock::now();
      odesens::solve_ensemble(camkii, "cvodes_fsa", sets, two);
      thread_times.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    quiet_barrier();
  }
  if (rank == 0) {
    const double m = median(mpi_times), t = median(thread_times);
    std::printf("| model | K | %d ranks x 1 thread [s] | 1 process x 2 threads [s] | MPI/threads | "
                "goal <= 1.10 |\n|---|---|---|---|---|---|\n", ranks);
    std::printf("| CaMKII, cvodes_fsa | %zu | %.3f | %.3f | %.2f | %s |\n", members, m, t, m / t,
                m / t <= 1.10 ? "met" : "not met");
  }
  MPI_Finalize();
  return 0;
}
