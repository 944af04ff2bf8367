// An ensemble over the processes of an MPI communicator, each running
// `threads` workers: rank 0 hands out members one at a time as workers ask
// for them (dynamic scheduling across all ranks), keeps the results in
// member order and calls on_member_done for each as it arrives, so that it
// can write them as they come. Members are solved by solve() exactly as
// solve_ensemble does, so the numbers equal a threaded run's bit for bit.
//
// Built only where CMake finds MPI (the odesens-mpi tool). Every rank must
// call it with the same problem, method and parameter sets.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "odesens/ensemble.hpp"

namespace odesens::ensemble {

// Collective over comm. Rank 0 returns every member in order; the other
// ranks return an empty vector. options.threads workers per rank (0: one
// per hardware thread); on ranks other than 0 the workers call MPI
// themselves, which needs MPI_THREAD_MULTIPLE: `thread_level` is what
// MPI_Init_thread provided, and below MULTIPLE those ranks run one worker.
// options.on_member_done, keep_results and cancel are used on rank 0
// (cancel is also read on the others: a cancelled rank asks for no more
// members).
// Rank 0's own workers never call MPI; its calling thread serves the
// others, polling without spinning a core. solved_by (rank 0; may be null)
// receives the rank that solved each member.
std::vector<EnsembleMember> solve_ensemble_mpi(MPI_Comm comm, int thread_level,
                                               const Problem& problem, const std::string& method_id,
                                               const std::vector<std::vector<double>>& parameter_sets,
                                               const EnsembleOptions& options,
                                               std::vector<int>* solved_by = nullptr);

}  // namespace odesens::ensemble
