// Solves from kept sessions (prepared_solves.hpp).
#include "estimate/prepared_solves.hpp"

#include <algorithm>

namespace odesens::petab {
namespace {

// Everything a run takes from the problem, set explicitly: an unset input
// would keep the values of the problem the session was prepared on, which
// is another experiment's.
RunInputs inputs_of(const Problem& problem) {
  RunInputs in;
  in.params = problem.params;
  in.initial_state = problem.initial_state;
  in.initial_sensitivity = problem.initial_sensitivity;
  in.output_times = problem.output_times;
  return in;
}

}  // namespace

PreparedSolves::Kept& PreparedSolves::keep(const Problem& problem, const std::string& method) {
  Kept fresh{method, problem, prepare(problem, method), 0};
  if (kept_.size() < kMaxSessions) {
    kept_.push_back(std::move(fresh));
    return kept_.back();
  }
  auto oldest = std::min_element(kept_.begin(), kept_.end(), [](const Kept& a, const Kept& b) {
    return a.last_use < b.last_use;
  });
  *oldest = std::move(fresh);
  return *oldest;
}

Result PreparedSolves::solve(const Problem& problem, const std::string& method) {
  if (problem.objective) return odesens::solve(problem, method);
  Kept* found = nullptr;
  for (Kept& k : kept_)
    if (k.method == method && same_set_up(k.set_up, problem)) found = &k;
  Kept& k = found ? *found : keep(problem, method);
  k.last_use = ++uses_;
  return k.session->run(inputs_of(problem));
}

}  // namespace odesens::petab
