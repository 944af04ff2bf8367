// `odesens ensemble MODEL --method ID --params FILE.csv|FILE.tsv --out FILE.h5
// [--threads N] [run flags]`: one member per row of the parameter file,
// solved on N threads and written to FILE.h5 (io/ensemble_h5.hpp) as the
// members finish, with a progress line on standard error when it is a
// terminal and a summary line at the end.
#pragma once

#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "odesens/ensemble.hpp"

namespace odesens::cli {

// Exit statuses of an ensemble whose file was written: every member
// succeeded, some failed (each with its status and message in the file).
// A run stopped by a signal exits with 128 + the signal's number (130 for
// Ctrl-C); bad input and failures of the run itself as any command (2, 1).
inline constexpr int kEnsembleAllSucceeded = 0;
inline constexpr int kEnsembleSomeFailed = 3;

// Who solves the members of one batch: solve_ensemble on threads, or the
// MPI ensemble (odesens-mpi), whose every rank runs the command and only one
// writes the file, the progress and the summary.
class EnsembleRunner {
 public:
  virtual ~EnsembleRunner() = default;
  // Whether this process writes the output (false on MPI ranks other than 0,
  // which solve members for rank 0 and return no members).
  virtual bool writes_output() const { return true; }
  virtual std::vector<EnsembleMember> solve(const Problem& problem, const std::string& method,
                                            const std::vector<std::vector<double>>& sets,
                                            const EnsembleOptions& options) = 0;
};

// Runs the ensemble of `a` (checked by check_run_arguments) on threads, or
// with `runner`; throws UsageError and odesens::Error as the other commands
// do. A process that does not write the output returns 0.
int run_ensemble(const RunArguments& a);
int run_ensemble(const RunArguments& a, EnsembleRunner& runner);

}  // namespace odesens::cli
