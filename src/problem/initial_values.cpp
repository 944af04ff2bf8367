#include "problem/initial_values.hpp"

#include "odesens/model.hpp"

namespace odesens {

std::vector<double> initial_state_of(const Problem& problem, const std::vector<double>& p,
                                     Workspace* ws) {
  if (!problem.initial_state.empty()) return problem.initial_state;
  std::vector<double> x0(problem.model->nx());
  problem.model->initial_state(p.data(), x0.data(), ws);
  return x0;
}

}  // namespace odesens
