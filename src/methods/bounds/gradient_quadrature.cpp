#include "methods/bounds/gradient_quadrature.hpp"

#include <algorithm>

namespace odesens::bounds {

GradientQuadrature::GradientQuadrature(const Function& theta, const SystemBounder& state,
                                       const SystemBounder& adjoint, const PolyArithmetic& arith,
                                       const std::vector<PolyModel>& params)
    : state_(&state),
      adjoint_(&adjoint),
      theta_(theta, arith),
      x_(state.layout().n, arith.make()),
      lambda_(adjoint.layout().n, arith.make()),
      out_(theta.n_outputs(), arith.make()) {
  layout_.n = theta.n_outputs();
  layout_.n_mon = arith.n_monomials();
  layout_.ellipsoid = false;
  theta_.set_params(params);
  theta_.evaluate_parameter_part(out_.data());
}

void GradientQuadrature::rhs(double t, const double* lambda, const double* state, double* qdot) {
  state_->models(state, x_);
  adjoint_->models(lambda, lambda_);
  theta_.set_time(t);
  for (std::size_t i = 0; i < x_.size(); ++i) theta_.set_input(i, x_[i]);
  for (std::size_t i = 0; i < lambda_.size(); ++i) theta_.set_input(x_.size() + i, lambda_[i]);
  theta_.evaluate(out_.data());
  // (50) the coefficients; (51)-(52) the model's remainder, which encloses
  // theta over the remainders minus its polynomial part.
  for (std::size_t j = 0; j < layout_.n; ++j) {
    std::copy(out_[j].coef.begin(), out_[j].coef.end(), qdot + layout_.coef(j));
    qdot[layout_.lower(j)] = out_[j].rem.lower();
    qdot[layout_.upper(j)] = out_[j].rem.upper();
  }
}

void GradientQuadrature::models(const double* q, std::vector<PolyModel>& out) const {
  for (std::size_t j = 0; j < layout_.n; ++j) {
    std::copy(q + layout_.coef(j), q + layout_.coef(j) + layout_.n_mon, out[j].coef.begin());
    const double lo = q[layout_.lower(j)], hi = q[layout_.upper(j)];
    out[j].rem = lo <= hi ? Interval(lo, hi) : Interval(hi, lo);
  }
}

}  // namespace odesens::bounds
