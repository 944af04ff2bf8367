// A PEtab evaluation over the processes of an MPI communicator: each
// experiment is a task of the MPI task farm (ensemble/mpi_tasks.hpp),
// solved by the workers of every rank as the threaded evaluation solves
// it, so that the sums on rank 0 equal PetabProblem::evaluate's bit for
// bit. For problems of many experiments whose simulations with
// sensitivities take long (Bachmann_MSB2011: 36 experiments).
//
// Built only where CMake finds MPI (the odesens-mpi tool). Every rank must
// call it with the same problem, point and options.
#pragma once

#include <mpi.h>

#include <optional>
#include <vector>

#include "estimate/experiment_solver.hpp"

namespace odesens::petab {

// options.threads workers per rank (0: one per hardware thread; one on
// ranks other than 0 below MPI_THREAD_MULTIPLE). Each worker keeps its
// prepared sessions for the experiments it solves in one evaluation. The
// first failed experiment, in the experiments' order, is thrown on rank 0;
// every experiment runs even when one fails.
class MpiExperiments final : public ExperimentSolver {
 public:
  MpiExperiments(MPI_Comm comm, int thread_level) : comm_(comm), thread_level_(thread_level) {}
  bool solve(const Definition& def, const std::vector<double>& theta, const PetabOptions& options,
             bool sensitivities, std::vector<ExperimentSolution>& out) override;

 private:
  MPI_Comm comm_;
  int thread_level_;
};

// Collective over comm: the evaluation on rank 0, empty on the others.
// Throws Error as PetabProblem::evaluate does (a refused point or option
// on every rank alike; a failed experiment on rank 0).
std::optional<PetabResult> evaluate_mpi(MPI_Comm comm, int thread_level,
                                        const PetabProblem& problem, const std::vector<double>& x,
                                        const PetabOptions& options);

}  // namespace odesens::petab
