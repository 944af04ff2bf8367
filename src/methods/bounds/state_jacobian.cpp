#include "methods/bounds/state_jacobian.hpp"

#include <algorithm>
#include <cstring>

#include "methods/bounds/system_bounder.hpp"

namespace odesens::bounds {

StateJacobian::StateJacobian(const expr::Tape& jac_x, const expr::Tape* hess_x,
                             const PolyArithmetic& arith, const PolyArithmetic& jac_arith,
                             const std::vector<PolyModel>& params_jac, std::size_t nx)
    : arith_(&arith),
      jac_arith_(&jac_arith),
      ops_(jac_arith),
      full_(nx, arith.make()),
      x_(nx, jac_arith.make()),
      out_(jac_x.n_outputs, jac_arith.make()) {
  regs_ = std::make_unique<expr::RegistersOver<ModelOperations>>(jac_x, ops_);
  ops_.set_constant(regs_->time(), 0.0);
  for (std::size_t i = 0; i < jac_x.nx; ++i) ops_.set_constant(regs_->state(i), 0.0);
  for (std::size_t j = 0; j < jac_x.np; ++j) ops_.assign(regs_->param(j), params_jac[j]);
  expr::evaluate_prefix_over(*regs_, ops_, out_.data());
  if (hess_x) {
    hess_out_.assign(hess_x->n_outputs, jac_arith.make());
    hess_regs_ = std::make_unique<expr::RegistersOver<ModelOperations>>(*hess_x, ops_);
    ops_.set_constant(hess_regs_->time(), 0.0);
    for (std::size_t i = 0; i < hess_x->nx; ++i) ops_.set_constant(hess_regs_->state(i), 0.0);
    for (std::size_t j = 0; j < hess_x->np; ++j) ops_.assign(hess_regs_->param(j), params_jac[j]);
    expr::evaluate_prefix_over(*hess_regs_, ops_, hess_out_.data());
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
  ops_.set_constant(regs_->time(), t);
  for (std::size_t i = 0; i < x_.size(); ++i) ops_.assign(regs_->state(i), x_[i]);
  expr::evaluate_main_over(*regs_, ops_, out_.data());
  hess_valid_ = false;
  t_ = t;
  y_.assign(y, y + size);
  valid_ = true;
}

const std::vector<PolyModel>& StateJacobian::hessian() {
  if (!hess_regs_ || hess_valid_) return hess_out_;
  ops_.set_constant(hess_regs_->time(), t_);
  for (std::size_t i = 0; i < x_.size(); ++i) ops_.assign(hess_regs_->state(i), x_[i]);
  expr::evaluate_main_over(*hess_regs_, ops_, hess_out_.data());
  hess_valid_ = true;
  return hess_out_;
}

}  // namespace odesens::bounds
