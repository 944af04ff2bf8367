// Whether f's derivatives that S uses are finite where a solve starts.
// Methods that take S from differences of perturbed trajectories (dopri8s,
// grk4as) turn an infinite derivative (sqrt(p) at p = 0) into a finite
// quotient of about 1/sqrt(eps) that means nothing; the methods that use the
// derivatives fail on it. This check makes them fail too, naming the entry,
// where the model has exact Jacobians.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::methods {

// Throws Error(not_finite) naming the first entry of J_x or J_p at
// (t0, x0, p) that is NaN or Inf in a column the directions move at t0:
// `directions` is (nx + np) x ns, column-major, each column a direction's
// initial state part and parameter part (for S, column j is dx0/dp_j and
// e_j). An infinite d f/d x_c where no direction moves x_c at t0 (sqrt(x)
// of a state that starts at 0 and does not depend on p) leaves S finite,
// and is left alone. `what` names the method. Does nothing for a model
// without exact Jacobians (their differences are the method's own).
void require_finite_start_derivatives(const Model& model, double t0, const std::vector<double>& x0,
                                      const std::vector<double>& p, const double* directions,
                                      std::size_t ns, const char* what, Workspace* ws);

}  // namespace odesens::methods
