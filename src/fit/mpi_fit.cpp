// The multi-start fit over MPI ranks (mpi_fit.hpp).
#include "fit/mpi_fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>

#include "ensemble/mpi_tasks.hpp"
#include "fit/hops.hpp"
#include "fit/multi_start.hpp"
#include "fit/start_codec.hpp"

namespace odesens::fitting {

namespace {

// Rank 0's next round, sent to every rank: all run the same points and
// stop together.
void share_from_rank_0(MPI_Comm comm, HopState& state) {
  unsigned long long head_counts[2] = {state.points.size(),
                                       state.points.empty() ? 0 : state.points[0].size()};
  double head[3] = {state.best, state.draw.sigma, state.go_on ? 1.0 : 0.0};
  MPI_Bcast(head, 3, MPI_DOUBLE, 0, comm);
  MPI_Bcast(head_counts, 2, MPI_UNSIGNED_LONG_LONG, 0, comm);
  state.best = head[0];
  state.draw.sigma = head[1];
  state.go_on = head[2] != 0.0;
  const std::size_t k = head_counts[0], n = head_counts[1];
  std::vector<double> packed;
  packed.reserve(k * n);
  for (const auto& x : state.points) packed.insert(packed.end(), x.begin(), x.end());
  packed.resize(k * n);
  // One message of the round's points: K x n doubles, far below MPI's
  // count limit for any round fit() accepts (check_start_count).
  MPI_Bcast(packed.data(), static_cast<int>(packed.size()), MPI_DOUBLE, 0, comm);
  // The center, round and flat parameters, for redraws of points that cannot be simulated.
  state.draw.center.resize(n);
  MPI_Bcast(state.draw.center.data(), static_cast<int>(n), MPI_DOUBLE, 0, comm);
  unsigned long long round = state.draw.round;
  MPI_Bcast(&round, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  state.draw.round = round;
  state.draw.flat.resize(n, 0);
  MPI_Bcast(state.draw.flat.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
  // The blocks the round's points redraw (HopDraw::blocks), K x n or none.
  unsigned long long blocks = state.draw.blocks.size();
  MPI_Bcast(&blocks, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  state.draw.blocks.resize(blocks, 0);
  MPI_Bcast(state.draw.blocks.data(), static_cast<int>(blocks), MPI_CHAR, 0, comm);
  state.points.assign(k, std::vector<double>(n));
  for (std::size_t j = 0; j < k; ++j)
    std::copy(packed.begin() + static_cast<std::ptrdiff_t>(j * n),
              packed.begin() + static_cast<std::ptrdiff_t>((j + 1) * n), state.points[j].begin());
}

}  // namespace

FitResult fit_mpi(MPI_Comm comm, int thread_level, const PetabProblem& problem,
                  const FitOptions& options, const FitProgress& progress,
                  const std::atomic<bool>* stop) {
  const std::vector<std::vector<double>> starts = planned_starts(problem, options);
  const std::size_t planned = starts_planned(options, starts.size());
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::size_t finished = 0;
  double best = std::numeric_limits<double>::quiet_NaN();
  ensemble::MpiTaskOptions farm;
  farm.threads = options.threads;
  farm.cancel = stop;
  auto run = [&](const std::vector<std::vector<double>>& points, std::size_t first,
                 const HopDraw* hop, std::vector<std::optional<StartResult>>& done) {
    auto make_worker = [&]() -> ensemble::MpiTaskWorker {
      // A start's bytes are a few hundred: far below one message's limit.
      return [&](std::size_t k, std::size_t, std::vector<char>& bytes) {
        encode_start(run_start(problem, points[k], first + k, options, stop, hop), bytes);
      };
    };
    auto deliver = [&](std::size_t k, const char* bytes, std::size_t size, int) {
      StartResult s = decode_start(bytes, size);
      if (s.index != first + k)
        throw Error(Status::internal_error, "a rank sent a start under another's index");
      if (start_succeeded(s) && !(s.nlpost >= best)) best = s.nlpost;
      done[k] = std::move(s);
      ++finished;
      if (progress) progress(finished, planned, best);
    };
    ensemble::run_tasks_mpi(comm, thread_level, points.size(), farm, make_worker, deliver);
  };
  auto share = [&](HopState& state) { share_from_rank_0(comm, state); };
  std::vector<std::optional<StartResult>> done =
      run_starts_and_hops(problem, options, starts, run, share, stop);
  if (rank != 0) return {};
  return waterfall(problem, options, planned, done, stop && stop->load());
}

}  // namespace odesens::fitting
