#include "methods/bounds/objective_jumps.hpp"

#include <cmath>

namespace odesens::bounds {

ObjectiveJumps::ObjectiveJumps(const Problem& problem, const SystemBounder& state,
                               const PolyArithmetic& arith)
    : data_(&problem.objective_data),
      weights_(problem.objective_data.empty() ? objective_weights(problem) : std::vector<double>{}),
      state_(&state),
      arith_(&arith),
      nx_(problem.model->nx()),
      x_(nx_, arith.make()),
      residual_(arith.make()) {}

void ObjectiveJumps::at(std::size_t k, const double* x, std::vector<PolyModel>& jump,
                        std::vector<double>& gain) {
  jump.assign(nx_, arith_->make());
  gain.assign(nx_, 0.0);
  if (data_->empty()) {
    for (std::size_t i = 0; i < nx_; ++i) arith_->set_constant(jump[i], weights_[i + k * nx_]);
    return;
  }
  // d/dx (d - x)^2 = 2 (x - d): the state's models without the part in its
  // ellipsoid, which add_jump takes through the gain.
  state_->models_outside_ellipsoid(x, x_);
  for (std::size_t i = 0; i < nx_; ++i) {
    const double d = (*data_)[i + k * nx_];
    if (std::isnan(d)) {
      arith_->set_constant(jump[i], 0.0);
      continue;
    }
    arith_->set_constant(residual_, -d);
    arith_->add(x_[i], residual_, jump[i]);
    arith_->scale(jump[i], 2.0, jump[i]);
    gain[i] = 2.0;
  }
}

}  // namespace odesens::bounds
