// `odesens petab PROBLEM.yaml [--at FILE.tsv] [--method ID] [--rtol R]
// [--atol A] [--max-steps N] [--option K=V ...] [--gradient] [--fim] [--threads N]
// [--simulations FILE.tsv] [--format text|json|h5] [--out FILE]`: the
// negative log-likelihood of a PEtab problem (petab.hpp) at its nominal
// parameters or those of --at, with its gradient and Fisher information on
// the parameters' scales when asked for.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "odesens/petab.hpp"

namespace odesens::cli {

// --method ID, --rtol R, --atol A, --max-steps N, --option KEY=VALUE: the
// simulations' method, tolerances, step limit and method options, flags of
// petab, fit and profile alike.
struct SimulationArguments {
  std::string method = "auto";
  std::optional<double> rtol, atol;
  std::optional<long long> max_steps;
  std::vector<std::pair<std::string, std::string>> options;
};
struct PetabArguments {
  std::string problem;
  std::string at;
  SimulationArguments simulation;
  bool gradient = false, fim = false;
  bool hierarchical = false;
  bool no_state_check = false;  // --no-state-check
  unsigned threads = 1;
  std::string simulations;
  std::string format = "text";
  std::string out;
  bool help = false;  // --help, -h: the flags instead of a run
};

// The flags of SimulationArguments.
void add_simulation_flags(CLI::App& command, SimulationArguments& a);
// The flags' settings into `options` (those not given keep its values).
// The method options are checked here, against cvodes_fsa's with "auto"
// (docs/petab.md), and named as the command line's.
void set_simulation_options(const SimulationArguments& a, PetabOptions& options);

// Who solves the experiments: the threads of this process, or the ranks of
// an MPI run (odesens-mpi petab), of which rank 0 alone writes the output.
class PetabRunner {
 public:
  virtual ~PetabRunner() = default;
  // The evaluation, or nothing on a process that does not write the output.
  // Whether this process writes the output (and so checks its paths).
  virtual bool writes_output() const { return true; }
  virtual std::optional<PetabResult> evaluate(const PetabProblem& problem,
                                              const std::vector<double>& x,
                                              const PetabOptions& options) = 0;
};

void add_petab_flags(CLI::App& command, PetabArguments& a);
// Runs the evaluation of `a` on threads, or with `runner`; throws
// UsageError and odesens::Error as the other commands do. A process that
// does not write the output returns 0.
int run_petab(const PetabArguments& a);
int run_petab(const PetabArguments& a, PetabRunner& runner);

}  // namespace odesens::cli
