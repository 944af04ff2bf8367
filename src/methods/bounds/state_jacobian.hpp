// J_x (and, for the adjoint, the Hessian of f in x) over the state's
// models of order q' with their remainders' hulls:
// the linear part A and the nonlinearity bound of the state's ellipsoid
// and, with the state as the disturbance's carrier, of every sensitivity
// system's (section 4.2 (ii); Table 1: the sensitivity systems' d phi/ds is
// J_x). CVODES evaluates the state system and then every sensitivity
// system at the same (t, y), so the models are computed once per point and
// shared.
#pragma once

#include <memory>
#include <vector>

#include "methods/bounds/verified_arithmetic.hpp"

namespace odesens::bounds {

class SystemBounder;

class StateJacobian {
 public:
  // `hess_x` (may be null): the Hessian entries' function
  // (arith/model_functions.hpp), evaluated alongside J for the adjoint's
  // disturbance Jacobian.
  StateJacobian(const Function& jac_x, const Function* hess_x, const PolyArithmetic& arith,
                const PolyArithmetic& jac_arith, const std::vector<PolyModel>& params_jac,
                std::size_t nx);

  // The models at the state vector y of the state system `reader` (any
  // system of the same layout reads it alike); recomputed only when t or y
  // changed since the last call.
  void update(double t, const double* y, std::size_t size, const SystemBounder& reader);
  // x reduced to order q' (remainder hulls included), and J (nx x nx,
  // column-major) at them.
  const std::vector<PolyModel>& x_models() const { return x_; }
  const std::vector<PolyModel>& jacobian() const { return out_; }
  // The Hessian entries' models at the same point (empty without hess_x),
  // computed at the first call after update() moved: the state system's
  // own steps never need them.
  const std::vector<PolyModel>& hessian();

 private:
  const PolyArithmetic* arith_;
  const PolyArithmetic* jac_arith_;
  PolyEvaluation jac_;
  std::unique_ptr<PolyEvaluation> hess_;
  std::vector<PolyModel> full_, x_, out_, hess_out_;
  bool valid_ = false, hess_valid_ = false;
  double t_ = 0.0;
  std::vector<double> y_;
};

}  // namespace odesens::bounds
