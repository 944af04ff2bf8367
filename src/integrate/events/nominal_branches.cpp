#include "integrate/events/nominal_branches.hpp"

#include <cmath>

namespace odesens::integrate {

double branch_value(const EventSystem::Root& root, double g) {
  switch (root.kind) {
    case EventSystem::Root::Kind::floor: return std::floor(g);
    case EventSystem::Root::Kind::ceil: return std::ceil(g);
    case EventSystem::Root::Kind::comparison: break;
  }
  return EventSystem::holds(root.comparison, EventSystem::side_of(g)) ? 1.0 : 0.0;
}

NominalBranches::NominalBranches(const Model& model) {
  const EventSystem* system = model.event_system();
  if (!system || system->branch_roots().empty()) {
    const BatchedRhs* batched = model.batched_rhs();
    if (batched && batched->parameter_branch_count() > 0) batched_ = batched;
    return;
  }
  system_ = system;
  g_.resize(system->roots().size());
  truth_.resize(system->branch_roots().size());
}

void NominalBranches::rhs_points(std::size_t n, const double* t, const double* X,
                                 const double* P, double* F, Workspace* ws) {
  if (!system_) {
    batched_->rhs_points_on_first_parameters(n, t, X, P, F, ws);
    return;
  }
  // The comparison a op b holds exactly where its root a - b is on a side
  // where op holds, and a floor or ceil root's g is its argument: the
  // values point 0 itself would compute.
  system_->root_values(t[0], X, P, g_.data(), ws);
  const auto& roots = system_->roots();
  const auto& branches = system_->branch_roots();
  for (std::size_t i = 0; i < branches.size(); ++i)
    truth_[i] = branch_value(roots[branches[i]], g_[branches[i]]);
  system_->rhs_points_on_branches(n, t, X, P, truth_.data(), F, ws);
}

}  // namespace odesens::integrate
