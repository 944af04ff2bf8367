// The quintic Hermite polynomial through (y, y', y'') at both ends of an
// interval [t_a, t_a + H]: odeSD's dense output (states and S, which carry
// their first and second derivatives) and, evaluated beyond the interval,
// its predictor.
#pragma once

#include <array>
#include <cstddef>

namespace odesens::odesd {

// Weights of y_a, H y'_a, H² y''_a, y_b, H y'_b, H² y''_b at θ = (t − t_a)/H
// (any θ: θ > 1 extrapolates).
std::array<double, 6> quintic_hermite_weights(double theta);

// out = Σ w_k · (the six data above), for vectors of length len.
void quintic_hermite(std::size_t len, double theta, double H, const double* y_a,
                     const double* yd_a, const double* ydd_a, const double* y_b,
                     const double* yd_b, const double* ydd_b, double* out);

}  // namespace odesens::odesd
