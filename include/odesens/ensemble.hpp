// Ensembles: one problem solved for many parameter vectors (multi-start
// fits, MCMC, profile likelihoods, experimental design) on a pool of
// threads that share the prepared model read-only.
//
//   std::vector<std::vector<double>> sets = ...;   // K parameter vectors
//   EnsembleOptions options;
//   options.threads = 2;
//   auto members = solve_ensemble(problem, "cvodes_fsa", sets, options);
//   for (const auto& m : members)
//     if (m.status == Status::ok) use(m.result); else report(m.message);
//
// Member k is `problem` with params = parameter_sets[k] (and, when given,
// initial_state = options.initial_states[k], output_times =
// options.output_times[k]), solved by solve(problem_k, method_id): the same
// numbers, bit for bit, as K separate solve() calls, whatever the number of
// threads. Members are handed to workers one at a time as they finish
// (dynamic scheduling: members of very different cost balance), and each
// ends with its own status and message, so one failed member never loses
// the others.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "odesens/problem.hpp"
#include "odesens/result.hpp"
#include "odesens/status.hpp"

namespace odesens {

struct EnsembleMember {
  // Whether the member was solved (false only when the ensemble was
  // cancelled before its turn: status is then unsupported, message says so).
  bool ran = false;
  Status status = Status::ok;
  std::string message;  // empty when status is ok
  Result result;        // the solve's result when status is ok, empty otherwise
};

struct EnsembleOptions {
  // Worker threads; 0: one per hardware thread. Never more than members.
  unsigned threads = 0;
  // Empty, or one per member: member k starts from initial_states[k]
  // (nx values; an empty vector keeps the problem's).
  std::vector<std::vector<double>> initial_states;
  // Empty, or one per member: member k's output times (an empty vector
  // keeps the problem's).
  std::vector<std::vector<double>> output_times;
  // Called once per member as it finishes, from the worker that solved it,
  // never two calls at once: progress reports and writing results as they
  // come. An exception it throws cancels the ensemble and is rethrown by
  // solve_ensemble once the workers have stopped.
  std::function<void(std::size_t member, const EnsembleMember&)> on_member_done;
  // false: each member's result is released once on_member_done has
  // returned (the returned members keep their status and message), so that
  // a caller who writes results as they come holds one per worker, not K.
  bool keep_results = true;
  // When set to true (from any thread, a signal handler included), workers
  // take no new member; the members not begun are returned with ran = false.
  const std::atomic<bool>* cancel = nullptr;
};

// Throws Error(unknown_method) for an unknown method, Error(unsupported)
// for a set-valued method (bounds_fsa, bounds_asa; auto with a box: it
// encloses one box whatever each member's parameters), and
// Error(invalid_argument) when initial_states or output_times are neither
// empty nor one per member, or when no output times are given at all;
// every other failure is a member's own.
std::vector<EnsembleMember> solve_ensemble(const Problem& problem, const std::string& method_id,
                                           const std::vector<std::vector<double>>& parameter_sets,
                                           const EnsembleOptions& options = {});

}  // namespace odesens
