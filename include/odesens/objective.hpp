// Objective: the function of the solution whose gradient the methods give.
//
//   psi(p) = sum_k phi_k(x(t_k), p)  [+ integral of R(t, x, p): Problem::integrand]
//
// over the output times t_k. Every method that computes S or a gradient
// reads it through Problem::objective:
//   - the forward methods (S at every output time) give
//     dpsi/dp = sum_k (dphi_k/dx S(t_k) + dphi_k/dp);
//   - the adjoint methods (cvodes_asa, erk_adjoint) seed their backward
//     problems with dphi_k/dx evaluated at the forward solution's x(t_k),
//     so phi_k may depend on x nonlinearly, and add sum_k dphi_k/dp.
// Result::objective_values and Result::gradient hold psi and dpsi/dp from
// every such method, so that any two can be compared on one objective.
//
// Without an objective (null), the objective is the Problem's
// adjoint_weights: G = sum_k w_k^T x(t_k), by default G = sum_i x_i(t_final)
// (default_objective_weights()).
//
// An Objective is immutable once built and may be shared by threads; it
// evaluates with the model's Workspace of the calling thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens {

class Objective {
 public:
  virtual ~Objective() = default;
  // What it is, in one line ("linear", "least squares over 3 observables").
  virtual std::string description() const = 0;
  // Throws Error(invalid_argument) when it does not fit n_times output
  // times of a model with nx states and np parameters.
  virtual void check_sizes(std::size_t n_times, std::size_t nx, std::size_t np) const = 0;
  // phi_k at output k (time t, state x (nx), parameters p (np)); adds
  // dphi_k/dx to g_x (nx) and dphi_k/dp to g_p (np) where they are not null.
  virtual double term(std::size_t k, double t, const double* x, const double* p, double* g_x,
                      double* g_p, Workspace* ws) const = 0;
};

// phi_k = w_k^T x(t_k): n_t blocks of nx weights, time slowest (w[i + k*nx]).
std::shared_ptr<const Objective> linear_objective(std::vector<double> weights, std::size_t nx);

// Least squares: phi_k = sum_j ((y_kj - h_j(t_k, x(t_k), p)) / sigma_kj)^2
// over observables h_j (any name check_observables accepts: states, .ode
// lets and outputs, SBML ids; empty names: the states in order), with
// derivatives exact (as observable_integrand). data: n_t x n_obs values,
// time slowest (y[j + k*n_obs]); NaN where h_j is not observed at t_k.
// sigma: empty (all 1), n_obs values (per observable) or n_t x n_obs, all
// finite and > 0. With sigma the standard deviations of normally
// distributed data, psi/2 + sum (1/2) log(2 pi sigma^2) is their negative
// log-likelihood. Throws Error for unknown names, bad sizes or values.
std::shared_ptr<const Objective> least_squares_objective(std::shared_ptr<const Model> model,
                                                         std::vector<std::string> observables,
                                                         std::vector<double> data,
                                                         std::vector<double> sigma = {});

}  // namespace odesens
