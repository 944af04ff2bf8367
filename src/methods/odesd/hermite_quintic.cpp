#include "methods/odesd/hermite_quintic.hpp"

namespace odesens::odesd {

std::array<double, 6> quintic_hermite_weights(double theta) {
  const double t = theta, t2 = t * t, t3 = t2 * t, t4 = t3 * t, t5 = t4 * t;
  return {
      1.0 - 10.0 * t3 + 15.0 * t4 - 6.0 * t5,     // y_a
      t - 6.0 * t3 + 8.0 * t4 - 3.0 * t5,         // H y'_a
      0.5 * t2 - 1.5 * t3 + 1.5 * t4 - 0.5 * t5,  // H² y''_a
      10.0 * t3 - 15.0 * t4 + 6.0 * t5,           // y_b
      -4.0 * t3 + 7.0 * t4 - 3.0 * t5,            // H y'_b
      0.5 * t3 - t4 + 0.5 * t5,                   // H² y''_b
  };
}

void quintic_hermite(std::size_t len, double theta, double H, const double* y_a,
                     const double* yd_a, const double* ydd_a, const double* y_b,
                     const double* yd_b, const double* ydd_b, double* out) {
  const std::array<double, 6> w = quintic_hermite_weights(theta);
  const double w1 = w[1] * H, w2 = w[2] * H * H, w4 = w[4] * H, w5 = w[5] * H * H;
  for (std::size_t i = 0; i < len; ++i)
    out[i] = w[0] * y_a[i] + w1 * yd_a[i] + w2 * ydd_a[i] + w[3] * y_b[i] + w4 * yd_b[i] +
             w5 * ydd_b[i];
}

}  // namespace odesens::odesd
