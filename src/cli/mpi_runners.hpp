// The MPI side of odesens-mpi's commands: the runners that hand members,
// starts or experiments to the ranks (ensemble_command.hpp,
// fit_command.hpp, petab_command.hpp), and the check every rank makes
// before that joint work, so that a rank whose own set-up failed (a file
// only it cannot read, an output only rank 0 cannot create) stops the
// others with its message instead of leaving them waiting for it.
#pragma once

#include <mpi.h>

#include <string>

#include "cli/ensemble_command.hpp"
#include "cli/fit_command.hpp"
#include "cli/petab_command.hpp"

namespace odesens::cli {

class SetupAgreement {
 public:
  explicit SetupAgreement(MPI_Comm comm) : comm_(comm) {}
  // Collective, at the start of the joint work (once; later calls return
  // at once): throws Error with the status and message of the lowest rank
  // whose set-up failed, "rank R: " before the message of a rank other
  // than 0.
  void all_ready();
  // From a rank's error handler: when this rank has not reached
  // all_ready(), tells the others, which are waiting there, that it failed.
  void failed(int status, const std::string& message);

 private:
  // Collective: each rank's failure (0: none) and message; throws what
  // all_ready() throws.
  void agree(int status, const std::string& message);
  MPI_Comm comm_;
  bool done_ = false;
};

class MpiEnsembleRunner final : public EnsembleRunner {
 public:
  MpiEnsembleRunner(SetupAgreement& agreement, int rank, int thread_level)
      : agreement_(agreement), rank_(rank), thread_level_(thread_level) {}
  bool writes_output() const override { return rank_ == 0; }
  std::vector<EnsembleMember> solve(const Problem& problem, const std::string& method,
                                    const std::vector<std::vector<double>>& sets,
                                    const EnsembleOptions& options) override;

 private:
  SetupAgreement& agreement_;
  int rank_, thread_level_;
};

class MpiFitRunner final : public FitRunner {
 public:
  MpiFitRunner(SetupAgreement& agreement, int rank, int thread_level)
      : agreement_(agreement), rank_(rank), thread_level_(thread_level) {}
  bool writes_output() const override { return rank_ == 0; }
  FitResult fit(const PetabProblem& problem, const FitOptions& options,
                const FitProgress& progress, const std::atomic<bool>* stop) override;

 private:
  SetupAgreement& agreement_;
  int rank_, thread_level_;
};

class MpiPetabRunner final : public PetabRunner {
 public:
  MpiPetabRunner(SetupAgreement& agreement, int rank, int thread_level)
      : agreement_(agreement), rank_(rank), thread_level_(thread_level) {}
  bool writes_output() const override { return rank_ == 0; }
  std::optional<PetabResult> evaluate(const PetabProblem& problem, const std::vector<double>& x,
                                      const PetabOptions& options) override;

 private:
  SetupAgreement& agreement_;
  int rank_, thread_level_;
};

}  // namespace odesens::cli
