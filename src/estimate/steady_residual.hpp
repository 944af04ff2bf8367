// The weighted norm of steady states (steady_state.hpp):
// sqrt(mean_i (v_i / (rtol |x_i| + atol))^2), CVODES' weighted RMS norm
// with the weights of x.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::estimate {

struct NormTolerances {
  double rtol;
  double atol;
};

double weighted_norm(std::size_t n, const double* v, const double* x, NormTolerances tol);

// f(t, x, p) into `f` (nx) and its weighted norm; NaN or Inf in f gives Inf.
double residual_norm(const Model& model, double t, const double* x, const double* p,
                     NormTolerances tol, std::vector<double>& f, Workspace* ws);

}  // namespace odesens::estimate
