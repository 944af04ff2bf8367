// Prepared sessions: set up a method on a problem once, then run it many
// times with other parameter values, initial states or output times.
//
//   auto session = odesens::prepare(problem, "cvodes_fsa");
//   for (const auto& p : parameter_sets) {
//     odesens::Result r = session->run(p);
//     ...
//   }
//
// prepare() does everything that does not depend on p, x0 or the output
// times: the problem's validation, the method's options read into its
// settings, the model's workspace, the integrator's memory and linear
// solver (CVODES methods). run() does the rest, and its Result is bit for bit
// the Result of solve() on the same problem with the same inputs: solve() is
// prepare() followed by run().
//
// A session is used by one thread at a time (it owns the mutable state of
// its solves); several sessions of one problem run concurrently.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odesens/methods.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens {

// What one run changes; what is unset stays as the prepared problem has it.
struct RunInputs {
  // Parameter values (np).
  std::optional<std::vector<double>> params;
  // Initial state (nx), or empty for x0(p) from the model (Problem::initial_state).
  std::optional<std::vector<double>> initial_state;
  // dx0/dp (nx x np) with that initial state, or empty
  // (Problem::initial_sensitivity). Unset keeps the prepared problem's, which
  // needs an initial state all the same.
  std::optional<std::vector<double>> initial_sensitivity;
  // Output times (Problem::output_times: strictly increasing, after t0). With
  // adjoint weights their count must stay that of the prepared problem.
  std::optional<std::vector<double>> output_times;
  // Problem::interrupt for this run; empty: the prepared problem's.
  std::function<bool()> interrupt;
};

class MethodSession {
 public:
  virtual ~MethodSession() = default;

  // Solves with the inputs; throws Error as solve() does. A run that fails
  // leaves the session ready for the next one.
  virtual Result run(const RunInputs& inputs) = 0;
  // Solves with parameter values p (np) and everything else as prepared.
  Result run(const std::vector<double>& params) {
    RunInputs inputs;
    inputs.params = params;
    return run(inputs);
  }

  // The method and the prepared problem (its rtol and atol filled with the
  // method's defaults where the problem left them unset).
  virtual const MethodInfo& method() const = 0;
  virtual const Problem& problem() const = 0;
};

// Validates the problem and sets the method up on it; throws Error as solve()
// does for anything wrong with the problem, the method id or its options.
std::unique_ptr<MethodSession> prepare(const Problem& problem, const std::string& method_id);

}  // namespace odesens
