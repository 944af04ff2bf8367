#include "methods/internal_diff/lane_switches.hpp"

#include "integrate/events/nominal_branches.hpp"

namespace odesens::internal_diff {

LaneSwitches::LaneSwitches(const EventSystem* system, BundleRhs& rhs)
    : system_(system), rhs_(rhs), lane_(rhs.shape().nx) {
  if (!system_) return;
  const auto& roots = system_->roots();
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (roots[i].switches_rhs) switches_.push_back(i);
  g_nominal_.resize(roots.size());
  g_lane_.resize(roots.size());
}

bool LaneSwitches::agree(double t, const double* X) {
  if (switches_.empty()) return true;
  const BundleShape shape = rhs_.shape();
  const std::size_t L = shape.trajectories();
  for (std::size_t l = 0; l < L; ++l) {
    for (std::size_t i = 0; i < shape.nx; ++i) lane_[i] = X[i * L + l];
    std::vector<double>& g = l == 0 ? g_nominal_ : g_lane_;
    system_->root_values(t, lane_.data(), rhs_.params(l), g.data(), &rhs_.workspace());
    if (l == 0) continue;
    for (std::size_t r : switches_) {
      const auto& root = system_->roots()[r];
      if (integrate::branch_value(root, g_lane_[r]) != integrate::branch_value(root, g_nominal_[r]))
        return false;
    }
  }
  return true;
}

}  // namespace odesens::internal_diff
