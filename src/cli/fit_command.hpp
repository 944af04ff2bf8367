// `odesens fit PROBLEM.yaml --starts N [--threads T] [--optimizer ID]
// [--seed S] [--starts-from FILE.tsv] [--hops R [--hop-starts K] [--hop-sigma S]
// [--hop-flat box|local] [--hop-blocks on|off]]
// [--max-iterations N]
// [--max-seconds-per-start S] [--method ID] [--rtol R] [--atol A] [--max-steps N]
// [--out FILE.h5] [--best FILE.tsv] [--plot DIR] [--format text|json]`: multi-start
// parameter estimation of a PEtab problem (fit.hpp), the waterfall of the
// starts on standard output, the starts' table in HDF5 and the best
// parameters as a PEtab parameter table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/petab_command.hpp"

#include "odesens/fit.hpp"

namespace odesens::cli {

struct FitArguments {
  std::string problem;
  std::optional<long long> starts;
  unsigned threads = 1;
  std::string optimizer = "auto";
  std::uint64_t seed = 0;
  std::string starts_from;
  std::optional<long long> max_iterations;
  std::optional<double> max_seconds;
  std::size_t resample_failed = 0;  // --resample-failed
  std::size_t hops = 0, hop_starts = 8;  // --hops, --hop-starts
  double hop_sigma = 0.5;                // --hop-sigma
  std::string hop_flat = "box";          // --hop-flat box|local
  bool hop_blocks = true;                // --hop-blocks on|off
  bool hop_starts_given = false, hop_sigma_given = false, hop_flat_given = false;
  bool hop_blocks_given = false;
  SimulationArguments simulation;
  bool hierarchical = false;  // --hierarchical
  std::string out, best, plot;
  std::string format = "text";
  bool help = false;
};

// Who runs the starts: fit() on threads, or the MPI fit (odesens-mpi fit),
// whose every rank runs the command and only rank 0 writes the outputs.
class FitRunner {
 public:
  virtual ~FitRunner() = default;
  // False on MPI ranks other than 0, which run starts for rank 0.
  virtual bool writes_output() const { return true; }
  virtual FitResult fit(const PetabProblem& problem, const FitOptions& options,
                        const FitProgress& progress, const std::atomic<bool>* stop) = 0;
};

void add_fit_flags(CLI::App& command, FitArguments& a);
// Runs the fit of `a` on threads, or with `runner`; throws UsageError and
// odesens::Error as the other commands do. A process that does not write
// the output returns 0.
int run_fit(const FitArguments& a);
int run_fit(const FitArguments& a, FitRunner& runner);

}  // namespace odesens::cli
