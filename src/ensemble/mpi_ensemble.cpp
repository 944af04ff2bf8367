// The MPI ensemble: rank 0 serves member indices and collects results;
// the workers of every rank solve.
//
// Messages (all on comm):
//   worker -> 0   kRequest   one int: the tag the worker waits for its answer on
//   0 -> worker   that tag   one int64: the member to solve, or -1: no more
//   worker -> 0   kResult    bytes: encode_member of the solved member
//   rank -> 0     kRankDone  one int64: how many results the rank sent
#include "ensemble/mpi_ensemble.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>

#include "ensemble/ensemble_member.hpp"
#include "ensemble/member_codec.hpp"
#include "ensemble/worker_pool.hpp"
#include "odesens/methods.hpp"

namespace odesens::ensemble {
namespace {

constexpr int kRequest = 1;
constexpr int kResult = 2;
constexpr int kRankDone = 3;
constexpr int kFirstAnswerTag = 100;  // worker w of a rank waits on tag 100 + w

// One member solved as solve_ensemble does, on the worker's session.
EnsembleMember solve_member(MemberSolver& solver, const Problem& problem,
                            const std::vector<double>& params) {
  Problem p = problem;
  p.params = params;
  return solver.solve(p);
}

unsigned worker_count(unsigned wanted) {
  if (wanted > 0) return wanted;
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? hardware : 1;
}

// Answers the other ranks' requests for members and receives their
// results until each has said it is done and all its results are in.
template <class Take, class Deliver>
void answer_ranks(MPI_Comm comm, int ranks, std::size_t count, Take& take, Deliver& deliver) {
  // received[r]: results from rank r; expected[r]: its count once it is done.
  std::vector<std::int64_t> received(ranks, 0), expected(ranks, -1);
  int ranks_done = 1;  // rank 0 itself
  std::vector<char> buffer;
  while (ranks_done < ranks || [&] {
           for (int r = 1; r < ranks; ++r)
             if (received[r] != expected[r]) return true;
           return false;
         }()) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &status);
    if (!flag) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      continue;
    }
    const int source = status.MPI_SOURCE;
    if (status.MPI_TAG == kRequest) {
      int answer_tag = 0;
      MPI_Recv(&answer_tag, 1, MPI_INT, source, kRequest, comm, MPI_STATUS_IGNORE);
      const std::int64_t k = take();
      MPI_Send(&k, 1, MPI_INT64_T, source, answer_tag, comm);
    } else if (status.MPI_TAG == kResult) {
      int size = 0;
      MPI_Get_count(&status, MPI_BYTE, &size);
      buffer.resize(static_cast<std::size_t>(size));
      MPI_Recv(buffer.data(), size, MPI_BYTE, source, kResult, comm, MPI_STATUS_IGNORE);
      std::size_t k = 0;
      EnsembleMember m = decode_member(buffer.data(), buffer.size(), &k);
      if (k >= count) throw Error(Status::internal_error, "a rank sent member " + std::to_string(k));
      ++received[source];
      deliver(k, std::move(m), source);
    } else if (status.MPI_TAG == kRankDone) {
      MPI_Recv(&expected[source], 1, MPI_INT64_T, source, kRankDone, comm, MPI_STATUS_IGNORE);
      ++ranks_done;
    } else {
      throw Error(Status::internal_error,
                  "unexpected MPI message, tag " + std::to_string(status.MPI_TAG));
    }
  }
}


// Rank 0: local workers on a shared counter; this thread answers the other
// ranks and receives their results until every rank is done.
std::vector<EnsembleMember> serve(MPI_Comm comm, int ranks, const Problem& problem,
                                  const std::string& method_id,
                                  const std::vector<std::vector<double>>& sets,
                                  const EnsembleOptions& options, std::vector<int>& solved_by) {
  const std::size_t count = sets.size();
  std::vector<EnsembleMember> members(count);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex deliver_mutex;
  std::exception_ptr callback_error;
  auto cancelled = [&] { return stop.load() || (options.cancel && options.cancel->load()); };
  auto take = [&]() -> std::int64_t {
    if (cancelled()) return -1;
    const std::size_t k = next.fetch_add(1);
    return k < count ? static_cast<std::int64_t>(k) : -1;
  };
  auto deliver = [&](std::size_t k, EnsembleMember m, int rank) {
    std::lock_guard<std::mutex> lock(deliver_mutex);
    members[k] = std::move(m);
    solved_by[k] = rank;
    if (options.on_member_done && !callback_error) {
      try {
        options.on_member_done(k, members[k]);
      } catch (...) {
        callback_error = std::current_exception();
        stop = true;
      }
    }
    if (!options.keep_results) members[k].result = Result{};
  };

  std::thread local([&] {
    const unsigned workers = worker_count(options.threads);
    run_tasks(workers, workers, stop, [&](std::size_t, std::size_t) {
      MemberSolver solver(method_id);
      for (std::int64_t k = take(); k >= 0; k = take())
        deliver(static_cast<std::size_t>(k),
                solve_member(solver, problem, sets[static_cast<std::size_t>(k)]), 0);
    });
  });

  try {
    answer_ranks(comm, ranks, count, take, deliver);
  } catch (...) {
    stop = true;  // the local workers finish their member and stop
    local.join();
    throw;
  }
  local.join();
  if (callback_error) std::rethrow_exception(callback_error);
  mark_not_run(members);
  return members;
}

// A rank other than 0: workers ask rank 0 for members and send results.
void work(MPI_Comm comm, int thread_level, const Problem& problem, const std::string& method_id,
          const std::vector<std::vector<double>>& sets, const EnsembleOptions& options) {
  const unsigned workers =
      thread_level >= MPI_THREAD_MULTIPLE ? worker_count(options.threads) : 1;
  std::atomic<std::int64_t> sent{0};
  std::atomic<bool> stop{false};
  run_tasks(workers, workers, stop, [&](std::size_t w, std::size_t) {
    const int answer_tag = kFirstAnswerTag + static_cast<int>(w);
    MemberSolver solver(method_id);
    std::vector<char> bytes;
    for (;;) {
      if (options.cancel && options.cancel->load()) return;
      MPI_Send(&answer_tag, 1, MPI_INT, 0, kRequest, comm);
      std::int64_t k = -1;
      MPI_Recv(&k, 1, MPI_INT64_T, 0, answer_tag, comm, MPI_STATUS_IGNORE);
      if (k < 0 || static_cast<std::size_t>(k) >= sets.size()) return;
      EnsembleMember m = solve_member(solver, problem, sets[static_cast<std::size_t>(k)]);
      bytes.clear();
      encode_member(static_cast<std::size_t>(k), m, bytes);
      if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        // One MPI message holds at most INT_MAX bytes.
        EnsembleMember too_large;
        too_large.ran = true;
        too_large.status = Status::unsupported;
        too_large.message = "the member's result (" + std::to_string(bytes.size()) +
                            " bytes) is too large for one MPI message; fewer output times "
                            "or parameters, or the threaded ensemble, avoid this";
        bytes.clear();
        encode_member(static_cast<std::size_t>(k), too_large, bytes);
      }
      MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, kResult, comm);
      ++sent;
    }
  });
  const std::int64_t total = sent.load();
  MPI_Send(&total, 1, MPI_INT64_T, 0, kRankDone, comm);
}

}  // namespace

std::vector<EnsembleMember> solve_ensemble_mpi(MPI_Comm comm, int thread_level,
                                               const Problem& problem, const std::string& method_id,
                                               const std::vector<std::vector<double>>& parameter_sets,
                                               const EnsembleOptions& options,
                                               std::vector<int>* solved_by) {
  method_info(method_id);  // an unknown method fails on every rank alike, before any message
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  if (rank == 0) {
    std::vector<int> by(parameter_sets.size(), -1);
    auto members = serve(comm, ranks, problem, method_id, parameter_sets, options, by);
    if (solved_by) *solved_by = std::move(by);
    return members;
  }
  work(comm, thread_level, problem, method_id, parameter_sets, options);
  return {};
}

}  // namespace odesens::ensemble
