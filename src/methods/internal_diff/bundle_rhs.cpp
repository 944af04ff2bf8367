#include "methods/internal_diff/bundle_rhs.hpp"

#include <algorithm>

#include "core/finite_values.hpp"

namespace odesens::internal_diff {

BundleRhs::BundleRhs(const Model& model, Workspace& workspace, BundleShape shape,
                     const double* params)
    : model_(model),
      workspace_(workspace),
      batched_(model.batched_rhs()),
      branches_(model),
      shape_(shape),
      params_(params),
      times_(shape.trajectories(), 0.0),
      columns_(shape.size()),
      out_(shape.size()) {}

void BundleRhs::evaluate(double t, const double* X, double* F) {
  ++calls_;
  const std::size_t L = shape_.trajectories(), nx = shape_.nx, np = model_.np();
  // The model takes points as columns; one trajectory is one already.
  const bool one = L == 1;
  const double* columns = X;
  double* out = one ? F : out_.data();
  if (!one) {
    for (std::size_t l = 0; l < L; ++l)
      for (std::size_t i = 0; i < nx; ++i) columns_[l * nx + i] = X[i * L + l];
    columns = columns_.data();
  }
  if (branches_.active() && L > 1) {  // the perturbed trajectories on the nominal's branches
    std::fill(times_.begin(), times_.end(), t);
    branches_.rhs_points(L, times_.data(), columns, params_, out, &workspace_);
  } else if (batched_) {
    std::fill(times_.begin(), times_.end(), t);
    batched_->rhs_points(L, times_.data(), columns, params_, out, &workspace_);
  } else {
    for (std::size_t l = 0; l < L; ++l)
      model_.rhs(t, columns + l * nx, params_ + l * np, out + l * nx, &workspace_);
  }
  if (!one)
    for (std::size_t l = 0; l < L; ++l)
      for (std::size_t i = 0; i < nx; ++i) F[i * L + l] = out_[l * nx + i];
}

std::size_t BundleRhs::non_finite_trajectory() const {
  if (calls_ == 0 || shape_.trajectories() == 1) return static_cast<std::size_t>(-1);
  return first_non_finite_column(out_.data(), shape_.nx, shape_.trajectories());
}

}  // namespace odesens::internal_diff
