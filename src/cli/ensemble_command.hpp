// `odesens ensemble MODEL --method ID --params FILE.csv|FILE.tsv --out FILE.h5
// [--threads N] [run flags]`: one member per row of the parameter file,
// solved on N threads and written to FILE.h5 (ensemble_h5.hpp) as the
// members finish, with a progress line on standard error when it is a
// terminal and a summary line at the end.
#pragma once

#include "cli/arguments.hpp"

namespace odesens::cli {

// Exit statuses of an ensemble whose file was written: every member
// succeeded, some failed (each with its status and message in the file).
// A run stopped by a signal exits with 128 + the signal's number (130 for
// Ctrl-C); bad input and failures of the run itself as any command (2, 1).
inline constexpr int kEnsembleAllSucceeded = 0;
inline constexpr int kEnsembleSomeFailed = 3;

// Runs the ensemble of `a` (checked by check_run_arguments); throws
// UsageError and odesens::Error as the other commands do.
int run_ensemble(const RunArguments& a);

}  // namespace odesens::cli
