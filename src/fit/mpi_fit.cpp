// The multi-start fit over MPI ranks (mpi_fit.hpp).
#include "fit/mpi_fit.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "ensemble/mpi_tasks.hpp"
#include "fit/multi_start.hpp"
#include "fit/start_codec.hpp"

namespace odesens::fitting {

FitResult fit_mpi(MPI_Comm comm, int thread_level, const PetabProblem& problem,
                  const FitOptions& options, const FitProgress& progress,
                  const std::atomic<bool>* stop) {
  const std::vector<std::vector<double>> starts = planned_starts(problem, options);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<std::optional<StartResult>> done(rank == 0 ? starts.size() : 0);
  std::size_t finished = 0;
  double best = std::numeric_limits<double>::quiet_NaN();
  ensemble::MpiTaskOptions farm;
  farm.threads = options.threads;
  farm.cancel = stop;
  auto make_worker = [&]() -> ensemble::MpiTaskWorker {
    // A start's bytes are a few hundred: far below one message's limit.
    return [&](std::size_t k, std::size_t, std::vector<char>& bytes) {
      encode_start(run_start(problem, starts[k], k, options, stop), bytes);
    };
  };
  auto deliver = [&](std::size_t k, const char* bytes, std::size_t size, int) {
    StartResult s = decode_start(bytes, size);
    if (s.index != k) throw Error(Status::internal_error, "a rank sent a start under another's index");
    if (start_succeeded(s) && !(s.nlpost >= best)) best = s.nlpost;
    done[k] = std::move(s);
    ++finished;
    if (progress) progress(finished, starts.size(), best);
  };
  ensemble::run_tasks_mpi(comm, thread_level, starts.size(), farm, make_worker, deliver);
  if (rank != 0) return {};
  return waterfall(problem, options, starts.size(), done, stop && stop->load());
}

}  // namespace odesens::fitting
