// A PEtab evaluation over MPI ranks (mpi_petab.hpp).
#include "estimate/mpi_petab.hpp"

#include <exception>
#include <memory>
#include <string>

#include "ensemble/mpi_tasks.hpp"
#include "estimate/experiment_codec.hpp"

namespace odesens::petab {
namespace {

// Experiment e solved, or why not; never throws.
ExperimentOutcome outcome_of(PreparedSolves& solves, const Definition& def, const Experiment& e,
                             const std::vector<double>& theta, const PetabOptions& options,
                             bool sensitivities, Preequilibrations& preequilibrations) {
  ExperimentOutcome outcome;
  try {
    outcome.solution =
        solve_experiment(solves, def, e, theta, options, sensitivities, &preequilibrations);
  } catch (const Error& error) {
    outcome.status = error.status();
    outcome.message = error.what();
  } catch (const std::exception& error) {
    outcome.status = Status::internal_error;
    outcome.message = error.what();
  }
  return outcome;
}

// The outcome's bytes, or, when they do not fit in one message, those of a
// failure that says so.
void encode_fitting(const ExperimentOutcome& outcome, std::size_t max_bytes,
                    std::vector<char>& bytes) {
  encode_outcome(outcome, bytes);
  if (bytes.size() <= max_bytes) return;
  ExperimentOutcome too_large;
  too_large.status = Status::unsupported;
  too_large.message = "an experiment's solution (" + std::to_string(bytes.size()) +
                      " bytes) is too large for one MPI message; the threaded evaluation "
                      "(odesens petab --threads) has no such limit";
  bytes.clear();
  encode_outcome(too_large, bytes);
}

}  // namespace

bool MpiExperiments::solve(const Definition& def, const std::vector<double>& theta,
                           const PetabOptions& options, bool sensitivities,
                           std::vector<ExperimentSolution>& out) {
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  const std::size_t count = def.experiments.size();
  std::vector<ExperimentOutcome> outcomes(rank == 0 ? count : 0);
  std::vector<bool> arrived(outcomes.size(), false);
  Preequilibrations preequilibrations;  // of this rank's experiments
  ensemble::MpiTaskOptions farm;
  farm.threads = options.threads;
  auto make_worker = [&]() -> ensemble::MpiTaskWorker {
    auto solves = std::make_shared<PreparedSolves>();
    return [&, solves](std::size_t k, std::size_t max_bytes, std::vector<char>& bytes) {
      encode_fitting(outcome_of(*solves, def, def.experiments[k], theta, options, sensitivities,
                                preequilibrations),
                     max_bytes, bytes);
    };
  };
  auto deliver = [&](std::size_t k, const char* bytes, std::size_t size, int) {
    outcomes[k] = decode_outcome(bytes, size);
    arrived[k] = true;
  };
  ensemble::run_tasks_mpi(comm_, thread_level_, count, farm, make_worker, deliver);
  if (rank != 0) return false;
  out.assign(count, ExperimentSolution{});
  for (std::size_t k = 0; k < count; ++k) {
    if (!arrived[k]) throw Error(Status::internal_error, "no rank solved experiment " + std::to_string(k));
    if (outcomes[k].status != Status::ok) throw Error(outcomes[k].status, outcomes[k].message);
    out[k] = std::move(outcomes[k].solution);
  }
  return true;
}

std::optional<PetabResult> evaluate_mpi(MPI_Comm comm, int thread_level,
                                        const PetabProblem& problem, const std::vector<double>& x,
                                        const PetabOptions& options) {
  MpiExperiments ranks(comm, thread_level);
  return problem.evaluate_with(x, options, ranks);
}

}  // namespace odesens::petab
