// A multi-start fit over the processes of an MPI communicator: each start
// is a task of the MPI task farm (ensemble/mpi_tasks.hpp), run by the
// workers of every rank as fit() runs it on threads, so the starts' ends
// equal a threaded fit's bit for bit; rank 0 collects them into the
// waterfall.
//
// Built only where CMake finds MPI (the odesens-mpi tool). Every rank must
// call it with the same problem and options.
#pragma once

#include <mpi.h>

#include <atomic>

#include "odesens/fit.hpp"

namespace odesens::fitting {

// Collective over comm. Rank 0 returns the fit (progress is called there,
// as fit() calls it); the other ranks return an empty FitResult.
// options.threads workers per rank (0: one per hardware thread; one on
// ranks other than 0 below MPI_THREAD_MULTIPLE). `stop`, read on every
// rank, ends the running starts at their next iteration and starts no more.
// Throws Error as fit() does, on every rank alike, before any start runs.
FitResult fit_mpi(MPI_Comm comm, int thread_level, const PetabProblem& problem,
                  const FitOptions& options, const FitProgress& progress = {},
                  const std::atomic<bool>* stop = nullptr);

}  // namespace odesens::fitting
