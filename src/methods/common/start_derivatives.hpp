// Whether f's derivatives are finite where a solve starts. Methods that
// take S from differences of perturbed trajectories (dopri8s, grk4as) turn
// an infinite derivative (sqrt(p) at p = 0, x^n with n < 1 at x = 0) into a
// finite quotient of about 1/sqrt(eps) that means nothing; the methods that
// use the derivatives fail on it. This check makes them fail too, naming
// the entry, where the model has exact Jacobians.
#pragma once

#include <vector>

#include "odesens/model.hpp"

namespace odesens::methods {

// Throws Error(not_finite) naming the first entry of J_x or J_p that is NaN
// or Inf at (t0, x0, p); `what` names the method for the message. Does
// nothing for a model without exact Jacobians (their differences are the
// method's own).
void require_finite_start_derivatives(const Model& model, double t0, const std::vector<double>& x0,
                                      const std::vector<double>& p, const char* what,
                                      Workspace* ws);

}  // namespace odesens::methods
