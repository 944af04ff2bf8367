// Result: what a method computed, and what it did to compute it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace odesens {

struct Stats {
  std::int64_t steps = 0;           // internal steps (forward + backward for adjoint methods)
  std::int64_t rhs_evals = 0;       // evaluations of f
  std::int64_t jac_evals = 0;       // evaluations of J_x
  std::int64_t linear_setups = 0;   // factorizations of the Newton matrix
  std::int64_t error_test_failures = 0;
  double wall_seconds = 0.0;
  // Method-specific counters (e.g. "backward_steps", "checkpoints").
  std::map<std::string, double> extra;

  // The fixed statistics by name, in the one order the C ABI (odesens_stat
  // indices), the tool and the bindings use: steps, rhs_evals, jac_evals,
  // linear_setups, error_test_failures, wall_seconds.
  static const std::vector<std::string>& fixed_names();
  std::vector<double> fixed_values() const;  // in the order of fixed_names()
  // Every statistic: the fixed ones, then `extra` in key order.
  std::vector<std::pair<std::string, double>> all() const;
};

// What a set-valued method (bounds_fsa) returns: polynomial models in the
// scaled parameters xi_j = (p_j - box_mid_j) / box_rad_j in [-1, 1] with
// remainder bounds, valid for every p in the box. Each model has
// n_monomials coefficients over the basis functions B_k(xi) (chebyshev:
// prod_j T_{e_kj}(xi_j); taylor: prod_j xi_j^{e_kj}), a remainder interval
// and the hull of its range (polynomial range + remainder). The models of
// x are indexed i + k*nx (output time k), of S i + j*nx + k*nx*np, of the
// objective's gradient j; coefficients of model m are coef[c + m*n_mon],
// its remainder rem[2m], rem[2m+1] (lower, upper), likewise hull.
// The enclosure holds for the exact solution of the bounding ODEs; the
// error of their numerical integration (CVODES, tolerances of the solve)
// is not enclosed.
struct BoundsResult {
  std::string basis;      // "chebyshev" or "taylor"
  std::string remainder;  // "interval" or "ellipsoid"
  int order = 0;
  std::size_t n_monomials = 0;
  std::vector<double> box_lower, box_upper;  // the box as given (np)
  std::vector<double> box_mid, box_rad;      // p_j = mid_j + rad_j xi_j (np)
  std::vector<std::int64_t> exponents;       // n_monomials x np, e_kj = exponents[k*np + j]
  std::vector<double> x_coef, x_rem, x_hull;
  // Ellipsoidal remainders: each output time's shape matrix Q of x
  // (nx x nx, column-major; quadrature states, bounded by intervals, have
  // zero rows and columns). Empty for interval remainders.
  std::vector<double> x_shape;
  std::vector<double> s_coef, s_rem, s_hull;  // empty for bounds_asa (no S)
  std::vector<double> gradient_coef, gradient_rem, gradient_hull;
};

struct Result {
  std::string method;
  // Why "auto" (method_choice.hpp) chose `method`: what was asked, what the
  // stiffness probe found, the rule, and a fallback if there was one. Empty
  // when the method was named.
  std::string method_choice;
  std::size_t nx = 0;
  std::size_t np = 0;

  std::vector<double> times;  // output times (n_t)
  std::vector<double> x;      // states, n_t blocks of nx (x[i + k*nx])

  // Times at which S is given: all output times for forward methods, the
  // final time for adjoint methods (empty when not computed).
  std::vector<double> s_times;
  // S, one nx x np column-major block per s_time: S[i + j*nx + k*nx*np] = dx_i/dp_j.
  std::vector<double> s;

  // S·R for the methods with sensitivity directions R ((nx + np) x ns:
  // Problem::sens_directions, or dopri8s' option directions=states or all):
  // one nx x ns column-major block per output time, sr[i + j*nx + k*nx*ns]
  // = (dx(t_k)/d(x0, p) r_j)_i. ns = 0 and sr empty for the other methods
  // and for directions=params, whose S·R is S itself (in s).
  std::size_t ns = 0;
  std::vector<double> sr;

  // dG/dp for gradient methods, empty otherwise: np values, or np x M
  // column-major for M = Problem::n_objectives objectives
  // (gradient[j + m*np] = dpsi_m/dp_j).
  std::vector<double> gradient;
  // d psi_m / d x(t0) (nx x M, column-major) and the objectives' values
  // psi_m (M), from the methods that report them (erk_adjoint); empty
  // otherwise.
  std::vector<double> gradient_x0;
  std::vector<double> objective_values;

  // Enclosures over a parameter box (set-valued methods); empty otherwise.
  // x and s above then hold the models' values at the box centre.
  BoundsResult bounds;

  Stats stats;

  // What the method has reason to distrust in the numbers above, one
  // sentence each (e.g. an S whose error the method could not keep near the
  // tolerances). Empty when nothing is suspect. The tool prints them on
  // standard error; the C ABI gives them by odesens_result_warning.
  std::vector<std::string> warnings;

  double x_at(std::size_t k, std::size_t i) const { return x[i + k * nx]; }
  double s_at(std::size_t k, std::size_t i, std::size_t j) const {
    return s[i + j * nx + k * nx * np];
  }
  double sr_at(std::size_t k, std::size_t i, std::size_t j) const {
    return sr[i + j * nx + k * nx * ns];
  }
};

}  // namespace odesens
