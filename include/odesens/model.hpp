// Model: the ODE system dx/dt = f(t, x, p), x(t0) = x0(p), and the
// derivative services the methods need.
//
// A Model knows its sizes, names, nominal parameters and right-hand side.
// Everything else has a default implementation in terms of simpler services
// (dense Jacobians by central differences, products by dense matrix algebra),
// so a model source overrides exactly what it can do better. Methods ask
// `has_analytic_jacobians()` to decide whether to trust J_x and J_p or let
// their integrator approximate them.
//
// Conventions: dense matrices are column-major. J_x is nx x nx, J_p is
// nx x np, dx0/dp is nx x np. Several vectors at once are passed as the
// columns of a column-major block.
//
// Thread safety: all evaluation functions are const and may be called from
// several threads at once, provided the user functions behind the model allow
// it. Default implementations use thread-local scratch space.
//
// Errors: evaluation functions throw odesens::Error (callback_failed when a
// user function reports failure).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "odesens/sparsity.hpp"

namespace odesens {

class Model {
 public:
  virtual ~Model() = default;

  virtual std::size_t nx() const = 0;
  virtual std::size_t np() const = 0;
  virtual const std::vector<std::string>& state_names() const = 0;
  virtual const std::vector<std::string>& param_names() const = 0;
  virtual std::vector<double> nominal_params() const = 0;
  // Short description used by `odesens info` and in results.
  virtual std::string name() const = 0;

  // Time span the model is meant for, used when the caller gives none.
  virtual double default_t0() const { return 0.0; }
  virtual double default_t_end() const { return 1.0; }

  // x0(p) and dx0/dp (nx x np). The defaults: x0 is model data and
  // independent of p (dx0/dp = 0).
  virtual void initial_state(const double* p, double* x0) const = 0;
  virtual void initial_sensitivity(const double* p, double* dx0_dp) const;

  virtual void rhs(double t, const double* x, const double* p, double* xdot) const = 0;

  // True when jac_x / jac_p are exact (analytic or symbolic), false when
  // they fall back to finite differences.
  virtual bool has_analytic_jacobians() const { return false; }

  // True when J_x and J_p depend on neither t nor x (f affine in x with
  // coefficients independent of t), so that methods may evaluate them once.
  virtual bool has_constant_jacobians() const { return false; }

  // Dense J_x (nx x nx, column-major). Default: central differences of rhs,
  // see finite_difference_step() for the step rule.
  virtual void jac_x(double t, const double* x, const double* p, double* J) const;

  // Sparsity of J_x, or nullptr when the model does not know it.
  virtual const SparsityPattern* jac_x_pattern() const { return nullptr; }
  // Values of J_x in the order of jac_x_pattern(). Default: gathered from
  // jac_x(), or, when the model has a pattern but no analytic Jacobian, from
  // central differences with columns grouped so that structurally
  // orthogonal columns share one pair of rhs evaluations.
  virtual void jac_x_values(double t, const double* x, const double* p, double* values) const;

  // Dense J_p (nx x np). Default: central differences of rhs in p.
  virtual void jac_p(double t, const double* x, const double* p, double* Jp) const;

  // out (nx x nv) = J_x V for V (nx x nv).
  virtual void jvp(double t, const double* x, const double* p, std::size_t nv,
                   const double* V, double* out) const;
  // out (nx x nw) = J_x^T W for W (nx x nw).
  virtual void vjp_x(double t, const double* x, const double* p, std::size_t nw,
                     const double* W, double* out) const;
  // out (np x nw) = J_p^T W for W (nx x nw).
  virtual void vjp_p(double t, const double* x, const double* p, std::size_t nw,
                     const double* W, double* out) const;
};

// The step used by every finite-difference fallback for the variable with
// value v: h = cbrt(machine epsilon) * max(|v|, 1), the step that balances
// truncation and rounding error of central differences for unit-scaled
// variables. Variables of very small scale should be given analytically.
double finite_difference_step(double v);

}  // namespace odesens
