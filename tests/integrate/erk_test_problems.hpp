// Test problems with known solutions for the ERK engine, written for the
// engine's interleaved lane layout (state i of trajectory l at [i*L + l]).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "integrate/erk/erk_system.hpp"

namespace odesens::integrate::testing {

// x' = -2 t x^2, y' = x: nonlinear, non-autonomous and coupled, so that all
// order conditions matter. With c = 1/x0 - t0^2 > 0:
//   x(t) = 1/(c + t^2),  y(t) = y0 + (atan(t/√c) - atan(t0/√c)) / √c.
class RiccatiPair final : public erk::ErkSystem {
 public:
  explicit RiccatiPair(int lanes = 1) : lanes_(lanes) {}
  void rhs(double t, const double* X, double* F) override {
    for (int l = 0; l < lanes_; ++l) {
      const double x = X[l];
      F[l] = -2.0 * t * x * x;
      F[lanes_ + l] = x;
    }
    ++calls;
  }
  static void exact(double t0, double x0, double y0, double t, double* out) {
    const double c = 1.0 / x0 - t0 * t0, r = std::sqrt(c);
    out[0] = 1.0 / (c + t * t);
    out[1] = y0 + (std::atan(t / r) - std::atan(t0 / r)) / r;
  }
  long calls = 0;

 private:
  int lanes_;
};

// x' = x(1 - x), y' = -y + t with x(0) = 0.1, y(0) = 1:
//   x(t) = 1/(1 + 9 e^-t),  y(t) = t - 1 + 2 e^-t.
// Its singularities lie a distance π from the real axis, so measured orders
// reach their asymptotic values at moderate step sizes.
class LogisticAndLinear final : public erk::ErkSystem {
 public:
  void rhs(double t, const double* X, double* F) override {
    F[0] = X[0] * (1.0 - X[0]);
    F[1] = -X[1] + t;
  }
  static void exact(double t, double* out) {
    out[0] = 1.0 / (1.0 + 9.0 * std::exp(-t));
    out[1] = t - 1.0 + 2.0 * std::exp(-t);
  }
};

// Lotka–Volterra x' = a x - b x y, y' = -c y + d x y with per-lane
// parameters: every lane runs a different trajectory.
class LotkaVolterra final : public erk::ErkSystem {
 public:
  explicit LotkaVolterra(int lanes) : lanes_(lanes) {}
  void rhs(double t, const double* X, double* F) override {
    for (int l = 0; l < lanes_; ++l) {
      const double x = X[l], y = X[lanes_ + l];
      const double a = 1.0 + 0.1 * l;
      F[l] = a * x - 0.5 * x * y;
      F[lanes_ + l] = -0.75 * y + 0.25 * x * y + 0.01 * std::sin(t);
    }
  }

 private:
  int lanes_;
};

// Copies trajectory `lane` of an interleaved buffer with n states.
inline std::vector<double> lane_of(const double* X, std::size_t n, int lanes, int lane) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = X[i * static_cast<std::size_t>(lanes) + lane];
  return v;
}

}  // namespace odesens::integrate::testing
