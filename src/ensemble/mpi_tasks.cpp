// The MPI task farm (mpi_tasks.hpp): rank 0 serves task indices and
// collects results; the workers of every rank run tasks.
//
// Messages (all on comm):
//   worker -> 0   kRequest   one int: the tag the worker waits for its answer on
//   0 -> worker   that tag   one int64: the task to run, or -1: no more
//   worker -> 0   kResult    bytes: the task's index (uint64), then its result
//   rank -> 0     kRankDone  one int64: how many results the rank sent
#include "ensemble/mpi_tasks.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <thread>

#include "ensemble/worker_pool.hpp"
#include "odesens/status.hpp"

namespace odesens::ensemble {
namespace {

constexpr int kRequest = 1;
constexpr int kResult = 2;
constexpr int kRankDone = 3;
constexpr int kFirstAnswerTag = 100;  // worker w of a rank waits on tag 100 + w
constexpr std::size_t kIndexBytes = sizeof(std::uint64_t);

unsigned worker_count(unsigned wanted) {
  if (wanted > 0) return wanted;
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? hardware : 1;
}

// Answers the other ranks' requests for tasks and receives their results
// until each has said it is done and all its results are in.
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
      std::uint64_t k = count;
      if (buffer.size() >= kIndexBytes) std::memcpy(&k, buffer.data(), kIndexBytes);
      if (k >= count) throw Error(Status::internal_error, "a rank sent task " + std::to_string(k));
      ++received[source];
      deliver(static_cast<std::size_t>(k), buffer.data() + kIndexBytes,
              buffer.size() - kIndexBytes, source);
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
void serve(MPI_Comm comm, int ranks, std::size_t count, const MpiTaskOptions& options,
           const MakeMpiTaskWorker& make_worker, const MpiTaskDelivery& deliver) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex deliver_mutex;
  std::exception_ptr delivery_error;
  auto take = [&]() -> std::int64_t {
    if (stop.load() || (options.cancel && options.cancel->load())) return -1;
    const std::size_t k = next.fetch_add(1);
    return k < count ? static_cast<std::int64_t>(k) : -1;
  };
  auto deliver_once = [&](std::size_t k, const char* bytes, std::size_t size, int rank) {
    std::lock_guard<std::mutex> lock(deliver_mutex);
    if (delivery_error) return;
    try {
      deliver(k, bytes, size, rank);
    } catch (...) {
      delivery_error = std::current_exception();
      stop = true;
    }
  };

  std::thread local([&] {
    const unsigned workers = worker_count(options.threads);
    run_tasks(workers, workers, stop, [&](std::size_t, std::size_t) {
      const MpiTaskWorker worker = make_worker();
      std::vector<char> bytes;
      for (std::int64_t k = take(); k >= 0; k = take()) {
        bytes.clear();
        worker(static_cast<std::size_t>(k), std::numeric_limits<std::size_t>::max(), bytes);
        deliver_once(static_cast<std::size_t>(k), bytes.data(), bytes.size(), 0);
      }
    });
  });

  try {
    answer_ranks(comm, ranks, count, take, deliver_once);
  } catch (...) {
    stop = true;  // the local workers finish their task and stop
    local.join();
    throw;
  }
  local.join();
  if (delivery_error) std::rethrow_exception(delivery_error);
}

// A rank other than 0: workers ask rank 0 for tasks and send results.
void work(MPI_Comm comm, int thread_level, std::size_t count, const MpiTaskOptions& options,
          const MakeMpiTaskWorker& make_worker) {
  const unsigned workers =
      thread_level >= MPI_THREAD_MULTIPLE ? worker_count(options.threads) : 1;
  std::atomic<std::int64_t> sent{0};
  std::atomic<bool> stop{false};
  const std::size_t max_bytes =
      static_cast<std::size_t>(std::numeric_limits<int>::max()) - kIndexBytes;
  run_tasks(workers, workers, stop, [&](std::size_t w, std::size_t) {
    const int answer_tag = kFirstAnswerTag + static_cast<int>(w);
    const MpiTaskWorker worker = make_worker();
    std::vector<char> result, message;
    for (;;) {
      if (options.cancel && options.cancel->load()) return;
      MPI_Send(&answer_tag, 1, MPI_INT, 0, kRequest, comm);
      std::int64_t k = -1;
      MPI_Recv(&k, 1, MPI_INT64_T, 0, answer_tag, comm, MPI_STATUS_IGNORE);
      if (k < 0 || static_cast<std::size_t>(k) >= count) return;
      result.clear();
      worker(static_cast<std::size_t>(k), max_bytes, result);
      const std::uint64_t index = static_cast<std::uint64_t>(k);
      message.resize(kIndexBytes + result.size());
      std::memcpy(message.data(), &index, kIndexBytes);
      if (!result.empty()) std::memcpy(message.data() + kIndexBytes, result.data(), result.size());
      MPI_Send(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, kResult, comm);
      ++sent;
    }
  });
  const std::int64_t total = sent.load();
  MPI_Send(&total, 1, MPI_INT64_T, 0, kRankDone, comm);
}

}  // namespace

void run_tasks_mpi(MPI_Comm comm, int thread_level, std::size_t count,
                   const MpiTaskOptions& options, const MakeMpiTaskWorker& make_worker,
                   const MpiTaskDelivery& deliver) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  if (rank == 0) serve(comm, ranks, count, options, make_worker, deliver);
  else work(comm, thread_level, count, options, make_worker);
}

}  // namespace odesens::ensemble
