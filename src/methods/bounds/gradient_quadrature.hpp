// The adjoint gradient's integral (paper (12), Table 1 "ASA", quadrature
// functions): theta = J_p^T lambda, integrated over [t0, t_N] alongside the
// adjoint's backward pass and bounded as a quadrature (section 3.3): the
// polynomial part by (50), interval remainder bounds by (51)-(52), with the
// remainders of x and lambda (the hulls of ellipsoidal ones) as the
// disturbance. Like the adjoint system it runs in reversed time tau = -t,
// so Q(tau = -t0) is the integral over [t0, t_N].
// Call rhs() inside an UpwardRounding scope.
#pragma once

#include <vector>

#include "methods/bounds/system_bounder.hpp"
#include "methods/bounds/system_layout.hpp"
#include "methods/bounds/verified_arithmetic.hpp"

namespace odesens::bounds {

class GradientQuadrature {
 public:
  // `theta`: np outputs on the states [x; lambda]; `state` and `adjoint`
  // read the vectors rhs() receives.
  GradientQuadrature(const Function& theta, const SystemBounder& state,
                     const SystemBounder& adjoint, const PolyArithmetic& arith,
                     const std::vector<PolyModel>& params);

  const SystemLayout& layout() const { return layout_; }
  // dQ/dtau at actual time t, from the state's and the adjoint's vectors.
  void rhs(double t, const double* lambda, const double* state, double* qdot);
  // The integrals' models at q: coefficients and [r_lo, r_hi].
  void models(const double* q, std::vector<PolyModel>& out) const;

 private:
  const SystemBounder* state_;
  const SystemBounder* adjoint_;
  PolyEvaluation theta_;
  SystemLayout layout_;
  std::vector<PolyModel> x_, lambda_, out_;
};

}  // namespace odesens::bounds
