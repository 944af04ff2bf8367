#include "integrate/implicit/model_rosenbrock_system.hpp"

#include <algorithm>
#include <string>

#include "odesens/status.hpp"

namespace odesens::integrate {

ModelRosenbrockSystem::ModelRosenbrockSystem(const Model& model, std::size_t lanes,
                                             const double* params, Workspace& workspace)
    : model_(model),
      n_(model.nx()),
      np_(model.np()),
      lanes_(lanes),
      workspace_(workspace),
      branches_(model),
      params_(params, params + model.np() * lanes),
      columns_(model.nx() * lanes),
      out_(model.nx() * lanes),
      times_(lanes) {
  if (const BatchedRhs* b = model.batched_rhs(); b && b->parameter_branch_count() > 0)
    parameter_branches_ = b;
  if (lanes == 0)
    throw Error(Status::invalid_argument, "ModelRosenbrockSystem: at least one lane");
}

void ModelRosenbrockSystem::set_lane_params(std::size_t lane, const double* p) {
  if (lane >= lanes_)
    throw Error(Status::invalid_argument, "set_lane_params: lane " + std::to_string(lane) +
                                              " of " + std::to_string(lanes_));
  std::copy(p, p + np_, params_.begin() + static_cast<std::ptrdiff_t>(lane * np_));
}

void ModelRosenbrockSystem::rhs(double t, const double* X, double* F) {
  const std::size_t m = lanes_;
  for (std::size_t l = 0; l < m; ++l)
    for (std::size_t i = 0; i < n_; ++i) columns_[l * n_ + i] = X[i * m + l];
  if (branches_.active() && m > 1) {  // the perturbed lanes on the nominal's branches
    std::fill(times_.begin(), times_.end(), t);
    branches_.rhs_points(m, times_.data(), columns_.data(), params_.data(), out_.data(),
                         &workspace_);
  } else if (const BatchedRhs* batched = model_.batched_rhs()) {
    std::fill(times_.begin(), times_.end(), t);
    batched->rhs_points(m, times_.data(), columns_.data(), params_.data(), out_.data(),
                        &workspace_);
  } else {
    for (std::size_t l = 0; l < m; ++l)
      model_.rhs(t, columns_.data() + l * n_, lane_params(l), out_.data() + l * n_, &workspace_);
  }
  for (std::size_t l = 0; l < m; ++l)
    for (std::size_t i = 0; i < n_; ++i) F[i * m + l] = out_[l * n_ + i];
}

void ModelRosenbrockSystem::jacobian(double t, const double* x, double* values) {
  if (model_.jac_x_pattern())
    model_.jac_x_values(t, x, lane_params(0), values, &workspace_);
  else
    model_.jac_x(t, x, lane_params(0), values, &workspace_);
}

void ModelRosenbrockSystem::jvp(std::size_t lane, double t, const double* x, const double* v,
                                double* out) {
  // A perturbed lane's J_x on the nominal's branches of comparisons of
  // parameters alone, as its f (NominalBranches).
  if (lane > 0 && parameter_branches_)
    parameter_branches_->jvp_on_first_parameters(t, x, lane_params(lane), lane_params(0), 1, v,
                                                 out, &workspace_);
  else
    model_.jvp(t, x, lane_params(lane), 1, v, out, &workspace_);
}

void ModelRosenbrockSystem::dfdt(double t, const double* X, double* D) {
  const std::size_t m = lanes_;
  for (std::size_t l = 0; l < m; ++l) {
    for (std::size_t i = 0; i < n_; ++i) columns_[l * n_ + i] = X[i * m + l];
    model_.dfdt(t, columns_.data() + l * n_, lane_params(l), out_.data() + l * n_, &workspace_);
  }
  for (std::size_t l = 0; l < m; ++l)
    for (std::size_t i = 0; i < n_; ++i) D[i * m + l] = out_[l * n_ + i];
}

}  // namespace odesens::integrate
