// Who solves the experiments of a PEtab evaluation: the threads of this
// process, each on its own prepared sessions (ThreadedSolves), or the
// ranks of an MPI run (mpi_petab.hpp). PetabProblem::evaluate_with sums
// what they return.
#pragma once

#include <vector>

#include "estimate/petab_experiment.hpp"
#include "estimate/prepared_solves.hpp"

namespace odesens::petab {

class ExperimentSolver {
 public:
  virtual ~ExperimentSolver() = default;
  // Every experiment of def at theta, in def.experiments' order; throws the
  // first failure as solve_experiment does. False (out untouched) where
  // this process does not sum the evaluation (MPI ranks other than 0).
  virtual bool solve(const Definition& def, const std::vector<double>& theta,
                     const PetabOptions& options, bool sensitivities,
                     std::vector<ExperimentSolution>& out) = 0;
};

// On options.threads threads (0: one per core), each worker on its own
// PreparedSolves, kept across evaluations.
class ThreadedSolves final : public ExperimentSolver {
 public:
  bool solve(const Definition& def, const std::vector<double>& theta, const PetabOptions& options,
             bool sensitivities, std::vector<ExperimentSolution>& out) override;

 private:
  std::vector<PreparedSolves> workers_;
};

}  // namespace odesens::petab
