// Tasks 0..count-1 over the processes of an MPI communicator, each running
// `threads` workers: rank 0 hands out tasks one at a time as workers ask
// for them (dynamic scheduling across all ranks) and receives every
// result as bytes, in the order they end. The ensemble (mpi_ensemble.hpp)
// and the multi-start fit (fit/mpi_fit.hpp) are built on it.
//
// Built only where CMake finds MPI (the odesens-mpi tool). Every rank must
// call it with the same count and options.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

namespace odesens::ensemble {

struct MpiTaskOptions {
  // Workers per rank (0: one per hardware thread). On ranks other than 0
  // the workers call MPI themselves, which needs MPI_THREAD_MULTIPLE: below
  // it (thread_level, what MPI_Init_thread provided) those ranks run one.
  unsigned threads = 1;
  // Read on every rank: once set, no task is handed out or asked for.
  const std::atomic<bool>* cancel = nullptr;
};

// One worker of a rank, made once per worker (its state, a prepared
// session, lives as long as the worker): runs task k and writes its result
// into `bytes` (empty on entry), at most max_bytes of them (the size of one
// MPI message on other ranks; unlimited on rank 0). Must not throw: a
// task's failure belongs in its result.
using MpiTaskWorker =
    std::function<void(std::size_t k, std::size_t max_bytes, std::vector<char>& bytes)>;
using MakeMpiTaskWorker = std::function<MpiTaskWorker()>;

// Rank 0: task k's result, solved on `rank`; one call at a time. What it
// throws stops the handing-out of tasks; those running finish, and it is
// rethrown once every rank is done.
using MpiTaskDelivery =
    std::function<void(std::size_t k, const char* bytes, std::size_t size, int rank)>;

// Collective over comm. Rank 0's own workers never call MPI; its calling
// thread serves the other ranks, polling without spinning a core.
void run_tasks_mpi(MPI_Comm comm, int thread_level, std::size_t count,
                   const MpiTaskOptions& options, const MakeMpiTaskWorker& make_worker,
                   const MpiTaskDelivery& deliver);

}  // namespace odesens::ensemble
