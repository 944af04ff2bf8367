#include "cli/ensemble_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/interrupt.hpp"
#include "cli/petab_outputs.hpp"
#include "cli/problem_from_arguments.hpp"
#include "cli/progress_bar.hpp"
#include "io/ensemble_h5.hpp"
#include "io/format_double.hpp"
#include "io/parameter_table.hpp"
#include "odesens/session.hpp"
#include "odesens/status.hpp"

namespace odesens::cli {
namespace {

// Members given to solve_ensemble at once.
constexpr std::size_t kBatchMembers = 4096;

// What every member shares, checked once before the first member rather
// than failing K times: tolerances, times, the method's needs and options,
// as prepare() checks them. The check runs at the model's nominal
// parameters, which the members replace: what fails there for those
// values alone (an x0 of 1/k at k = 0, a callback) is left to the members.
void check_shared_problem(const Problem& base, const MethodInfo& info) {
  try {
    prepare(base, info.id);
  } catch (const Error& e) {
    if (e.status() != Status::not_finite && e.status() != Status::callback_failed) throw;
  }
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
  }
}

class ThreadedRunner final : public EnsembleRunner {
 public:
  std::vector<EnsembleMember> solve(const Problem& problem, const std::string& method,
                                    const std::vector<std::vector<double>>& sets,
                                    const EnsembleOptions& options) override {
    return solve_ensemble(problem, method, sets, options);
  }
};

// A process that only solves members for another (an MPI rank other than
// 0): the same batches, nothing written.
int solve_without_output(const RunArguments& a, const Problem& problem,
                         const io::NumberTable& table, EnsembleRunner& runner) {
  const Interrupt interrupt("this process ending without the members it is solving");
  EnsembleOptions options;
  options.threads = a.threads;
  options.cancel = interrupt.requested();
  options.keep_results = false;
  for (std::size_t first = 0; first < table.rows; first += kBatchMembers)
    runner.solve(problem, a.method,
                 io::parameter_sets(table, problem.params, first,
                                    std::min(kBatchMembers, table.rows - first)),
                 options);
  return 0;
}

// Every member's parameters, in batches, before any is solved.
void write_parameter_sets(io::EnsembleH5Writer& writer, const io::NumberTable& table,
                          const std::vector<double>& params, std::size_t count) {
  for (std::size_t k = 0; k < count; k += kBatchMembers) {
    const OutputWrite writing;
    writer.write_parameters(
        k, io::parameter_sets(table, params, k, std::min(kBatchMembers, count - k)));
  }
}

// Called in the handler of `e`: the members done stay in the .partial
// file, which the message names; with none done, the file goes.
[[noreturn]] void rethrow_keeping_members(io::EnsembleH5Writer& writer, const Error& e) {
  const OutputWrite writing;
  const std::size_t kept = writer.close_partial();
  if (kept == 0) {
    writer.discard();
    throw;
  }
  throw Error(e.status(), std::string(e.what()) + " (the " + std::to_string(kept) +
                              " members done are in '" + writer.partial_file() + "')");
}

// The summary line on standard error, and the exit status: 128 + the
// signal when members were left unrun, else whether any failed.
int report_ensemble(std::size_t count, std::size_t not_run, std::size_t failed,
                    const std::string& first_failure, double seconds, int signal,
                    const std::string& out) {
  std::cerr << "odesens: ensemble: ";
  if (not_run > 0) std::cerr << "interrupted by " << signal_name(signal) << ": ";
  std::cerr << count << (count == 1 ? " member, " : " members, ") << failed << " failed";
  if (not_run > 0) std::cerr << ", " << not_run << " not run";
  std::cerr << ", " << io::format_double(std::round(seconds * 1000) / 1000) << " s wall time; "
            << out << '\n';
  if (failed > 0) std::cerr << "odesens: first failure: " << first_failure << '\n';
  if (not_run > 0) return 128 + (signal > 0 ? signal : SIGINT);
  return failed > 0 ? kEnsembleSomeFailed : kEnsembleAllSucceeded;
}

}  // namespace

int run_ensemble(const RunArguments& a) {
  ThreadedRunner threads;
  return run_ensemble(a, threads);
}

int run_ensemble(const RunArguments& a, EnsembleRunner& runner) {
  refuse_output_over_inputs("--out", a.out, {a.model, a.params_file, a.data_file});
  const MethodInfo& info = method_info(a.method);
  if (info.capabilities.parameter_box)
    throw UsageError{"--method " + info.id +
                     " encloses the solutions over one parameter box, and an ensemble varies "
                     "the parameters, which it does not take; enclose each box with odesens "
                     "run MODEL --method " + info.id + " --box name=lower:upper,..."};
  auto model = load_model(a.model, load_options(a.sens_params));
  const Problem problem = build_problem(a, model, info);
  check_shared_problem(problem, info);
  const io::NumberTable table =
      io::read_parameter_table(a.params_file, model->param_names(), model->name(), "--params");
  const std::size_t count = table.rows;
  if (!runner.writes_output()) return solve_without_output(a, problem, table, runner);

  io::EnsembleH5Writer writer(a.out,
                              {a.model, info.id, model->state_names(), model->param_names(),
                               problem.output_times},
                              count, "--out");
  const Interrupt interrupt("leaving the .partial file");
  ProgressBar progress(count, ::isatty(STDERR_FILENO) == 1);
  progress.update(0, 0);
  std::size_t failed = 0, first = 0;
  std::string first_failure;
  EnsembleOptions options;
  options.threads = a.threads;
  options.cancel = interrupt.requested();
  options.keep_results = false;  // written as they come: one result per worker in memory
  options.on_member_done = [&](std::size_t k, const EnsembleMember& member) {
    {
      const OutputWrite writing;
      writer.write_member(first + k, member);
    }
    if (member.status != Status::ok && failed++ == 0)
      first_failure = "member " + std::to_string(first + k) + ": " + member.message;
    progress.update(writer.members_done(), failed);
  };

  const auto start = std::chrono::steady_clock::now();
  try {
    write_parameter_sets(writer, table, problem.params, count);
    // In batches, so that the members' parameter vectors, statuses and
    // messages are held for one batch at a time, not for all K; a batch
    // after a cancellation returns at once. Members not solved are left as
    // the file was created (EnsembleH5Writer::finish).
    for (first = 0; first < count; first += kBatchMembers) {
      const auto sets = io::parameter_sets(table, problem.params, first,
                                           std::min(kBatchMembers, count - first));
      runner.solve(problem, info.id, sets, options);
    }
  } catch (const Error& e) {
    progress.finish();
    rethrow_keeping_members(writer, e);
  }
  progress.finish();
  {
    const OutputWrite writing;
    try {
      writer.finish(count > writer.members_done() ? signal_name(interrupt.signal()) : "");
    } catch (const Error& e) {
      // Closing failed (a full disk, a file size limit): HDF5 could not
      // complete the file, which no reader then opens, and a .partial left
      // would block the next run. Removed, and said.
      const std::string partial = writer.partial_file();
      writer.discard();
      throw Error(e.status(), std::string(e.what()) + " ('" + a.out + "' was not written; '" +
                                  partial + "', which could not be completed, was removed)");
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  return report_ensemble(count, count - writer.members_done(), failed, first_failure, seconds,
                         interrupt.signal(), a.out);
}

}  // namespace odesens::cli
