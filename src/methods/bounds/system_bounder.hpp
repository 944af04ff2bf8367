// The right-hand side of one bounding system: the ODEs of the polynomial
// coefficients and of the remainder bounds of the state (Table 1, "State"),
// of one parameter's sensitivities s_j (Table 1, "FSA") or of the adjoint
// lambda in reversed time (Table 1, "ASA"); the last two are driven by the
// state, whose remainder is their disturbance w (section 4).
//
//   interval remainders   (21) with (31)-(32) by section 4.1: each r_i's
//                         bound is the model of f_i with x_i's remainder
//                         fixed at that bound, the others full, measured
//                         against the full-remainder polynomial;
//   ellipsoidal           (21) and (45) by section 4.2: (56) with zero
//                         remainders gives the coefficients and R0; the
//                         Jacobian models of order q' give A = C and
//                         Omega = R0 + B(J - C) hull E(Q) (+ B(J_w - C_w) R_w);
//                         nu and kappa from the scaled traces (2)-(3).
//   quadratures           (section 3.3) components nothing reads: interval
//                         bounds (51)-(52), outside the ellipsoid.
//
// All model and interval work runs under directed rounding (interval.hpp);
// the caller opens the UpwardRounding scope.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "methods/bounds/bounds_settings.hpp"
#include "methods/bounds/state_jacobian.hpp"
#include "methods/bounds/system_layout.hpp"
#include "methods/bounds/verified_arithmetic.hpp"

namespace odesens::bounds {

// The parameters as models p_j = mid_j + rad_j xi_j in both arithmetics.
struct ParameterModels {
  std::vector<PolyModel> order_q, order_jac;
};

class SystemBounder {
 public:
  // `driver`: the state system of a sensitivity or adjoint system (whose
  // vector rhs() then receives), null for the state system itself.
  // Ellipsoidal remainders read J_x from `jacobian` (shared by all systems
  // of a solve).
  SystemBounder(const SystemFunctions& tapes, const SystemBounder* driver,
                const PolyArithmetic& arith, const PolyArithmetic& jac_arith,
                const BoundsSettings& settings, const ParameterModels& params,
                StateJacobian* jacobian);

  const SystemLayout& layout() const { return layout_; }
  bool is_quadrature(std::size_t i) const { return (*quadrature_)[i]; }

  // y from models of the initial values (paper (22), (33)-(34), (46)).
  void initial(const std::vector<PolyModel>& init, double* y) const;
  // ydot at (t, y); `state` is the state system's vector for sensitivity
  // systems (null for the state system).
  void rhs(double t, const double* y, const double* state, double* ydot);
  // The models at y: coefficients and the interval hull of the remainder.
  void models(const double* y, std::vector<PolyModel>& out) const;
  // The same with the remainders the ellipsoid holds left out (0): only
  // interval remainders (all of them, or the quadratures') remain.
  void models_outside_ellipsoid(const double* y, std::vector<PolyModel>& out) const;
  // A transition y(t_k-) -> y(t_k+) = y + jump (paper (23), (35)-(36) and
  // (47) with A = I): `jump` holds the models of the added values; when the
  // driver's remainders are ellipsoidal, the jump also adds gain_i * e_i
  // with e in the driver's ellipsoid at driver_y, which the jump's own
  // remainders leave out (models_outside_ellipsoid). gain empty: none.
  void add_jump(double* y, const std::vector<PolyModel>& jump, const double* driver_y,
                const std::vector<double>& gain) const;
  // The interval hull of component i's remainder at y.
  Interval remainder_hull(const double* y, std::size_t i) const;

 private:
  // A function's evaluation site and its outputs.
  struct Run {
    std::unique_ptr<PolyEvaluation> eval;
    std::vector<PolyModel> out;
  };
  Run prepare(const Function& f, const std::vector<PolyModel>& params) const;
  // Evaluates run at t with the inputs: own models at own_offset_, the driver's at 0.
  void evaluate(Run& run, double t, const std::vector<PolyModel>& own,
                const std::vector<PolyModel>* state) const;
  void rhs_interval(double t, const double* y, const double* state, double* ydot);
  void rhs_ellipsoid(double t, const double* y, const double* state, double* ydot);
  // Omega_i and the Jacobian constants for the ellipsoid: fills C_, Omega_.
  void jacobian_bounds(double t, const double* y, const double* state);
  // The ellipsoid's shape matrix Q' by the paper's (45), in parts.
  void shape_derivative(const double* y, const double* state, double* ydot);
  void shape_scales();
  double scaled_trace(const std::vector<double>& M) const;
  double input_shape(const double* state, double root_trace);
  void disturbance_jacobian();  // fills dist_ (driven systems)

  const SystemBounder* driver_;
  bool transposed_jacobian_;
  const PolyArithmetic* arith_;
  const PolyArithmetic* jac_arith_;
  BoundsSettings settings_;
  SystemLayout layout_;
  const std::vector<bool>* quadrature_;
  std::size_t own_offset_;  // input index of the first own component (the driver's n)

  Run full_;
  std::vector<Run> each_;
  StateJacobian* jacobian_;
  // Driven systems, ellipsoidal remainders: d phi / dx (n x n) from the
  // state's second derivative models.
  const std::vector<HessianEntry>* hessian_ = nullptr;
  const std::vector<HessianEntry>* mixed_ = nullptr;
  std::size_t parameter_ = 0;
  std::vector<PolyModel> dist_;
  PolyModel dist_term_;

  // Scratch, sized once.
  std::vector<PolyModel> own_, state_models_, own_jac_;
  PolyModel poly_only_;
  std::vector<double> C_, Cw_;          // n x n, n x nx (column-major)
  std::vector<Interval> omega_;         // n
  std::vector<double> Q_, Qw_, AQ_, BBt_, CwQw_;  // dense n x n work
  std::vector<double> scale_;                     // s_i of (2)-(3), n
};

}  // namespace odesens::bounds
