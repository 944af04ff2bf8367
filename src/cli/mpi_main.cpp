// odesens-mpi: `odesens ensemble`, `odesens fit` and `odesens petab` over
// the processes of an MPI run.
//
//   mpirun -np 4 odesens-mpi ensemble MODEL --method ID --params FILE.csv --out FILE.h5
//          [--threads N] [run flags]
//   mpirun -np 4 odesens-mpi fit PROBLEM.yaml --starts N [--threads N] [fit flags]
//   mpirun -np 4 odesens-mpi petab PROBLEM.yaml [--threads N] [petab flags]
//
// The same arguments, files, outputs, progress line and exit statuses as
// the odesens commands (ensemble_command.hpp, fit_command.hpp). Every rank
// reads the model or problem and the files it names (a file system all
// ranks see, as under Slurm); rank 0 hands out members, starts or
// experiments one at a time to the `--threads` workers of every rank and writes the outputs;
// the others only solve. All ranks exit with rank 0's status.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_help.hpp"
#include "cli/ensemble_command.hpp"
#include "cli/exit_status.hpp"
#include "cli/fit_command.hpp"
#include "cli/mpi_runners.hpp"
#include "cli/petab_command.hpp"
#include "core/quoted_text.hpp"
#include "odesens/odesens.hpp"

namespace {

using namespace odesens;
using namespace odesens::cli;

const char* kUsage =
    "usage: mpirun [-np N] odesens-mpi ensemble MODEL --method ID --params FILE.csv|FILE.tsv\n"
    "                  --out FILE.h5 [--threads N] [--rtol R] [--atol A] [--t0 T]\n"
    "                  [--tout a:b:n | --tout t1,t2,...]\n"
    "                  [--option KEY=VALUE ...] [--max-steps N] [--sens-params ID,...]\n"
    "The arguments, output and exit statuses of `odesens ensemble` (odesens --help;\n"
    "odesens-mpi ensemble [--method ID] --help: its flags and the options of ID);\n"
    "members are solved by the --threads workers of every rank (0: one per hardware\n"
    "thread), rank 0 writes FILE.h5. Under Slurm: srun odesens-mpi ensemble ...\n"
    "\n"
    "usage: mpirun [-np N] odesens-mpi fit PROBLEM.yaml --starts N [--threads N] [fit flags]\n"
    "The arguments, outputs and exit statuses of `odesens fit` (odesens fit --help);\n"
    "starts are run by the --threads workers of every rank, rank 0 prints the waterfall\n"
    "and writes --out, --best and --plot.\n"
    "\n"
    "usage: mpirun [-np N] odesens-mpi petab PROBLEM.yaml [--threads N] [petab flags]\n"
    "The arguments, output and exit statuses of `odesens petab` (odesens petab --help);\n"
    "experiments are solved by the --threads workers of every rank, rank 0 sums them\n"
    "and writes the output.\n";

// The command on this rank; messages only from rank 0 (every rank sees the
// same arguments and files, so they mostly fail alike; a rank that fails
// alone tells the others through the set-up agreement, and rank 0 says
// what it said).
int run(int argc, char** argv, int rank, int thread_level) {
  SetupAgreement agreement(MPI_COMM_WORLD);
  auto say = [rank](const std::string& message) {
    if (rank == 0) std::cerr << "odesens-mpi: error: " << message << '\n';
  };
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    if (rank == 0) std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  if (args[0] != "ensemble" && args[0] != "fit" && args[0] != "petab" && !args[0].empty() &&
      args[0][0] != '-') {
    say("unknown command '" + printable_text(args[0]) +
        "': odesens-mpi has ensemble, fit and petab (run, compare and the others are "
        "odesens's)");
    return 2;
  }
  CLI::App app{"odesens-mpi"};
  app.set_help_flag();
  app.require_subcommand(1);
  RunArguments a;
  CLI::App* ensemble_command = app.add_subcommand("ensemble");
  add_run_flags(*ensemble_command, a, SolveCommand::ensemble);
  FitArguments f;
  CLI::App* fit_command = app.add_subcommand("fit");
  add_fit_flags(*fit_command, f);
  PetabArguments pa;
  CLI::App* petab_command = app.add_subcommand("petab");
  add_petab_flags(*petab_command, pa);
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      throw UsageError{std::string(e.what()) + " (see odesens-mpi --help)"};
    }
    if (petab_command->parsed()) {
      if (pa.help && rank != 0) return 0;  // rank 0 prints it
      MpiPetabRunner runner(agreement, rank, thread_level);
      return run_petab(pa, runner);
    }
    if (fit_command->parsed()) {
      if (f.help && rank != 0) return 0;  // rank 0 prints it
      MpiFitRunner runner(agreement, rank, thread_level);
      return run_fit(f, runner);
    }
    // Rank 0 prints (or fails on an unknown method); every rank ends with its status.
    if (a.help)
      return rank == 0 ? print_command_help("odesens-mpi", a, SolveCommand::ensemble) : 0;
    check_run_arguments(a, SolveCommand::ensemble);
    MpiEnsembleRunner runner(agreement, rank, thread_level);
    return run_ensemble(a, runner);
  } catch (const UsageError& e) {
    say(e.message);
    agreement.failed(static_cast<int>(Status::invalid_argument), e.message);
    return 2;
  } catch (const Error& e) {
    say(e.what());
    agreement.failed(static_cast<int>(e.status()), e.what());
    return exit_status(e.status());
  } catch (const std::exception& e) {
    say(e.what());
    agreement.failed(static_cast<int>(Status::internal_error), e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGXFSZ, SIG_IGN);
  odesens::cli::tool_name() = "odesens-mpi";
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = run(argc, argv, rank, provided);
  // Every rank ends with rank 0's status (the one that wrote the file).
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
