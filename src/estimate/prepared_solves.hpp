// The solves of a PEtab evaluation from prepared sessions: every experiment
// of a problem is the same model with the same tolerances and options, and
// differs only in what a session's run changes (parameters, initial values,
// output times). So one session per method and set-up serves them all, and
// every later evaluation, without re-creating the integrator's memory,
// linear solver and sparse analysis (session.hpp). Solves with S run on a
// subset model per set of held parameter values (subset_model), which is
// a set-up of its own: with more such sets than kMaxSessions their
// sessions are prepared again at each use. That costs little beside a
// solve with S (bench_petab --sessions: a session's forward gradient took
// 1.00 times a fresh evaluation's on Bachmann_MSB2011, 12 sets, and on
// Schwen_PONE2014, 19), so the sessions kept stay few.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "odesens/result.hpp"
#include "odesens/session.hpp"

namespace odesens::petab {

class PreparedSolves {
 public:
  // What solve(problem, method) returns, bit for bit (session.hpp), from a
  // kept session whose set-up matches the problem's (same_set_up), or one
  // prepared now and kept. Problems with an objective (the adjoint of an
  // experiment's likelihood, which holds the data and the parameters) or
  // adjoint weights (an adjoint method's states alone: weights 0, one per
  // state and measurement time of the experiment) are solved without
  // keeping their session: it would serve few other solves.
  Result solve(const Problem& problem, const std::string& method);

  std::size_t sessions() const { return kept_.size(); }
  std::size_t subset_models() const { return subsets_.size(); }

  // `full` restricted to the parameters `free` (model/parameter_subset.hpp),
  // the others at their entries of `values` (all of full's parameters): the
  // model made for the same free set and held values before, so that a
  // session kept for it can serve again, or a new one, kept.
  std::shared_ptr<const Model> subset_model(const std::shared_ptr<const Model>& full,
                                            const std::vector<std::size_t>& free,
                                            const std::vector<double>& values);

  // The most sessions kept: a solve of another set-up replaces the least
  // recently used. An evaluation of one model needs at most four (states
  // alone or with S, and each again with S outside the error test).
  static constexpr std::size_t kMaxSessions = 8;

 private:
  struct Kept {
    std::string method;
    Problem set_up;  // as given (the session's own has defaults filled in)
    std::unique_ptr<MethodSession> session;
    std::size_t last_use = 0;
  };
  Kept& keep(const Problem& problem, const std::string& method);
  std::vector<Kept> kept_;
  struct Subset {
    std::shared_ptr<const Model> full;
    std::vector<std::size_t> free;
    std::vector<double> values;  // the held ones count
    std::shared_ptr<const Model> model;
  };
  std::vector<Subset> subsets_;
  std::size_t uses_ = 0;
};

}  // namespace odesens::petab
