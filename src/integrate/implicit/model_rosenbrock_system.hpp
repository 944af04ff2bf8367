// A Model as a RosenbrockSystem: m lanes of one model, each with its own
// parameter vector (lane 0 the nominal). f for all lanes in one call (the
// model's batched f when it has one, so that every lane sees the same
// arithmetic; a loop over lanes otherwise), the nominal's J_x from the
// model (sparse values when it has a pattern), Jacobian products and ∂f/∂t
// at each lane's own state and parameters. Every lane follows lane 0's
// branches of f (integrate/events/nominal_branches.hpp).
//
// The caller's Workspace of this model is used for every evaluation: once
// its buffers have grown, nothing here allocates.
#pragma once

#include <cstddef>
#include <vector>

#include "core/finite_values.hpp"
#include "integrate/events/nominal_branches.hpp"
#include "integrate/implicit/rosenbrock_system.hpp"
#include "odesens/model.hpp"

namespace odesens::integrate {

class ModelRosenbrockSystem final : public RosenbrockSystem {
 public:
  // params: np×m column-major, lane l's parameters at params + l*np (copied).
  ModelRosenbrockSystem(const Model& model, std::size_t lanes, const double* params,
                        Workspace& workspace);

  std::size_t lanes() const { return lanes_; }
  const double* lane_params(std::size_t lane) const { return params_.data() + lane * np_; }
  // Lane `lane` runs with p from now on (np values). Tell the engine
  // (RosenbrockEngine::system_changed or set_lane_state) before its next step.
  void set_lane_params(std::size_t lane, const double* p);

  void rhs(double t, const double* X, double* F) override;
  const SparsityPattern* jacobian_pattern() const override { return model_.jac_x_pattern(); }
  void jacobian(double t, const double* x, double* values) override;
  bool constant_jacobian() const override { return model_.has_constant_jacobians(); }
  void jvp(std::size_t lane, double t, const double* x, const double* v, double* out) override;
  void dfdt(double t, const double* X, double* D) override;
  // The first lane whose f was not finite at the last rhs(), or npos.
  std::size_t non_finite_lane() const { return first_non_finite_column(out_.data(), n_, lanes_); }

 private:
  const Model& model_;
  std::size_t n_, np_, lanes_;
  Workspace& workspace_;
  NominalBranches branches_;
  // The model's batched f where it has comparisons of parameters alone:
  // the perturbed lanes' J_x products follow the nominal's branch of them.
  const BatchedRhs* parameter_branches_ = nullptr;
  std::vector<double> params_;          // np×m
  std::vector<double> columns_, out_;   // n×m column-major copies of X and F
  std::vector<double> times_;           // m times for the batched f
};

}  // namespace odesens::integrate
