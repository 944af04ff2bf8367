// Solves from kept sessions (prepared_solves.hpp).
#include "estimate/prepared_solves.hpp"

#include <algorithm>
#include <cstring>

#include "model/parameter_subset.hpp"

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
  in.interrupt = problem.interrupt;
  return in;
}

// Whether two parameter vectors agree, bit for bit, where is_free is false.
bool same_held(const std::vector<double>& a, const std::vector<double>& b,
               const std::vector<bool>& is_free) {
  if (a.size() != b.size()) return false;
  for (std::size_t j = 0; j < a.size(); ++j)
    if (!is_free[j] && std::memcmp(&a[j], &b[j], sizeof(double)) != 0) return false;
  return true;
}

// The most subset models kept: one per condition of the problem, typically.
constexpr std::size_t kMaxSubsets = 4096;

}  // namespace

std::shared_ptr<const Model> PreparedSolves::subset_model(const std::shared_ptr<const Model>& full,
                                                          const std::vector<std::size_t>& free,
                                                          const std::vector<double>& values) {
  std::vector<bool> is_free(values.size(), false);
  for (std::size_t j : free)
    if (j < is_free.size()) is_free[j] = true;
  for (const Subset& s : subsets_)
    if (s.full == full && s.free == free && same_held(s.values, values, is_free)) return s.model;
  if (subsets_.size() == kMaxSubsets) subsets_.erase(subsets_.begin());
  subsets_.push_back({full, free, values, parameter_subset(full, free, values)});
  return subsets_.back().model;
}

PreparedSolves::Kept& PreparedSolves::keep(const Problem& given, const std::string& method) {
  // The interrupt is the evaluation's (its closure may refer to what the
  // caller frees after it): each run passes its own.
  Problem problem = given;
  problem.interrupt = nullptr;
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
  if (problem.objective || !problem.adjoint_weights.empty()) return odesens::solve(problem, method);
  Kept* found = nullptr;
  for (Kept& k : kept_)
    if (k.method == method && same_set_up(k.set_up, problem)) found = &k;
  Kept& k = found ? *found : keep(problem, method);
  k.last_use = ++uses_;
  return k.session->run(inputs_of(problem));
}

}  // namespace odesens::petab
