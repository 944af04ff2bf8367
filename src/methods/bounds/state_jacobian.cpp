#include "methods/bounds/state_jacobian.hpp"

#include <algorithm>
#include <cstring>

#include "methods/bounds/system_bounder.hpp"

namespace odesens::bounds {

StateJacobian::StateJacobian(const Function& jac_x, const Function* hess_x,
                             const PolyArithmetic& arith, const PolyArithmetic& jac_arith,
                             const std::vector<PolyModel>& params_jac, std::size_t nx)
    : arith_(&arith),
      jac_arith_(&jac_arith),
      jac_(jac_x, jac_arith),
      full_(nx, arith.make()),
      x_(nx, jac_arith.make()),
      out_(jac_x.n_outputs(), jac_arith.make()) {
  jac_.set_params(params_jac);
  jac_.evaluate_parameter_part(out_.data());
  if (hess_x) {
    hess_out_.assign(hess_x->n_outputs(), jac_arith.make());
    hess_ = std::make_unique<PolyEvaluation>(*hess_x, jac_arith);
    hess_->set_params(params_jac);
    hess_->evaluate_parameter_part(hess_out_.data());
  }
}

void StateJacobian::update(double t, const double* y, std::size_t size,
                           const SystemBounder& reader) {
  if (valid_ && t == t_ && y_.size() == size &&
      std::memcmp(y_.data(), y, size * sizeof(double)) == 0)
    return;
  valid_ = false;  // stays so if the evaluation throws
  hess_valid_ = false;
  reader.models(y, full_);
  for (std::size_t i = 0; i < x_.size(); ++i) jac_arith_->reduce_from(*arith_, full_[i], x_[i]);
  jac_.set_time(t);
  for (std::size_t i = 0; i < x_.size(); ++i) jac_.set_input(i, x_[i]);
  jac_.evaluate(out_.data());
  hess_valid_ = false;
  t_ = t;
  y_.assign(y, y + size);
  valid_ = true;
}

const std::vector<PolyModel>& StateJacobian::hessian() {
  if (!hess_ || hess_valid_) return hess_out_;
  hess_->set_time(t_);
  for (std::size_t i = 0; i < x_.size(); ++i) hess_->set_input(i, x_[i]);
  hess_->evaluate(hess_out_.data());
  hess_valid_ = true;
  return hess_out_;
}

}  // namespace odesens::bounds
