#include "methods/internal_diff/bundle_rhs.hpp"

#include <algorithm>

namespace odesens::internal_diff {

BundleRhs::BundleRhs(const Model& model, Workspace& workspace, BundleShape shape,
                     const double* params)
    : model_(model),
      workspace_(workspace),
      batched_(model.batched_rhs()),
      shape_(shape),
      params_(params),
      times_(shape.trajectories(), 0.0) {}

void BundleRhs::evaluate(double t, const double* X, double* F) {
  ++calls_;
  const std::size_t L = shape_.trajectories(), nx = shape_.nx, np = model_.np();
  if (batched_) {
    std::fill(times_.begin(), times_.end(), t);
    batched_->rhs_points(L, times_.data(), X, params_, F, &workspace_);
    return;
  }
  for (std::size_t l = 0; l < L; ++l)
    model_.rhs(t, X + l * nx, params_ + l * np, F + l * nx, &workspace_);
}

}  // namespace odesens::internal_diff
