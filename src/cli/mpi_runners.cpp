// odesens-mpi's runners and the set-up agreement (mpi_runners.hpp).
#include "cli/mpi_runners.hpp"

#include <cstdint>
#include <vector>

#include "ensemble/mpi_ensemble.hpp"
#include "estimate/mpi_petab.hpp"
#include "fit/mpi_fit.hpp"
#include "odesens/status.hpp"

namespace odesens::cli {

void SetupAgreement::all_ready() {
  if (done_) return;
  agree(0, "");
}

void SetupAgreement::failed(int status, const std::string& message) {
  if (done_) return;
  try {
    agree(status == 0 ? static_cast<int>(Status::internal_error) : status, message);
  } catch (const Error&) {
    // This rank's own failure is what it reports.
  }
}

// Two collectives every rank makes in the same order: the lowest failed
// rank (a maximum of ranks - rank), then that rank's status and message.
void SetupAgreement::agree(int status, const std::string& message) {
  done_ = true;
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &ranks);
  int mine = status != 0 ? ranks - rank : 0, lowest = 0;
  MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MAX, comm_);
  if (lowest == 0) return;
  const int root = ranks - lowest;
  std::int64_t header[2] = {status, static_cast<std::int64_t>(message.size())};
  MPI_Bcast(header, 2, MPI_INT64_T, root, comm_);
  std::vector<char> text(message.begin(), message.end());
  text.resize(static_cast<std::size_t>(header[1]));
  if (!text.empty()) MPI_Bcast(text.data(), static_cast<int>(text.size()), MPI_CHAR, root, comm_);
  const std::string said(text.begin(), text.end());
  throw Error(static_cast<Status>(header[0]),
              root == 0 ? said : "rank " + std::to_string(root) + ": " + said);
}

std::vector<EnsembleMember> MpiEnsembleRunner::solve(const Problem& problem,
                                                     const std::string& method,
                                                     const std::vector<std::vector<double>>& sets,
                                                     const EnsembleOptions& options) {
  agreement_.all_ready();
  return ensemble::solve_ensemble_mpi(MPI_COMM_WORLD, thread_level_, problem, method, sets,
                                      options);
}

FitResult MpiFitRunner::fit(const PetabProblem& problem, const FitOptions& options,
                            const FitProgress& progress, const std::atomic<bool>* stop) {
  agreement_.all_ready();
  return fitting::fit_mpi(MPI_COMM_WORLD, thread_level_, problem, options, progress, stop);
}

std::optional<PetabResult> MpiPetabRunner::evaluate(const PetabProblem& problem,
                                                    const std::vector<double>& x,
                                                    const PetabOptions& options) {
  agreement_.all_ready();
  return petab::evaluate_mpi(MPI_COMM_WORLD, thread_level_, problem, x, options);
}

}  // namespace odesens::cli
