// Integrand: running costs of adjoint objectives.
//
// A gradient method that supports them (MethodCapabilities::integrands)
// differentiates M objectives at once,
//
//   psi_m = sum_k w_{k,m}^T x(t_k) + integral_{t0}^{t_final} R_m(t, x(t), p) dt,
//
// m = 0 .. M-1, M = Problem::n_objectives = Integrand::count(). The
// integral is the method's own quadrature of its discrete solution (for
// erk_adjoint: q_{n+1} = q_n + h sum_i b_i R(t_n + c_i h, Y_i, p), the
// adjoint paper's Eq. 41-42), so its gradient is as exact as the rest.
//
// An Integrand is immutable once built and evaluated with the model's
// Workspace (the caller's, one per thread), like the model itself.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens {

class Integrand {
 public:
  virtual ~Integrand() = default;
  // M, the number of running costs (one per objective).
  virtual std::size_t count() const = 0;
  // r (M) = R(t, x, p); r_x (nx x M) = dR/dx and r_p (np x M) = dR/dp,
  // column m for R_m, column-major. Any output may be null (not wanted).
  virtual void evaluate(double t, const double* x, const double* p, double* r, double* r_x,
                        double* r_p, Workspace* ws) const = 0;
  // A switch of some R_m that moves with t or x, named with its running
  // cost ("integrand 'w': 'lt' comparison `t < T1`"); empty where none is
  // known. Across such a switch R jumps, and a quadrature that steps across
  // it is of low order and its gradient lacks the jump's term: methods
  // refuse such running costs (an integral of R is a state, dz/dt = R, whose
  // switches the methods locate). Default: empty (a function cannot tell).
  virtual std::string moving_switch() const { return {}; }
};

// Running costs that are observables of the model, by name (any name
// check_observables accepts: a state, an .ode let or output, an SBML id
// with a value): R_m = observable names[m]. Derivatives are exact (the
// model's ObservableSet gives them; a model without one observes its
// states). Throws Error(invalid_argument) for an unknown name or no names,
// Error(unsupported) when the model cannot differentiate its observables.
std::shared_ptr<const Integrand> observable_integrand(std::shared_ptr<const Model> model,
                                                      const std::vector<std::string>& names);

// Running costs from a C++ function: fn(t, x, p, r, r_x, r_p) as
// Integrand::evaluate (outputs possibly null). It is called from the
// solving thread, concurrently for concurrent solves.
using IntegrandFunction = std::function<void(double t, const double* x, const double* p,
                                             double* r, double* r_x, double* r_p)>;
std::shared_ptr<const Integrand> function_integrand(std::size_t count, IntegrandFunction fn);

}  // namespace odesens
