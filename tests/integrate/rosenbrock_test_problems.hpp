// Test problems for the Rosenbrock engine, written for its interleaved lane
// layout (state i of lane l at [i*m + l]) with exact Jacobians, products and
// ∂f/∂t.
#pragma once

#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "integrate/implicit/rosenbrock_system.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate::testing {

// x' = -2 t x^2, y' = x: nonlinear and non-autonomous, so that the h² f_t
// term of every stage matters. With c = 1/x0 - t0^2 > 0:
//   x(t) = 1/(c + t^2),  y(t) = y0 + (atan(t/√c) - atan(t0/√c)) / √c.
// Every lane runs the same equations. `ignore_time` makes the system claim
// to be autonomous (a wrong claim, for the test that notices it).
class RiccatiSystem final : public RosenbrockSystem {
 public:
  explicit RiccatiSystem(std::size_t lanes = 1, bool ignore_time = false)
      : m_(lanes), ignore_time_(ignore_time) {}
  void rhs(double t, const double* X, double* F) override {
    for (std::size_t l = 0; l < m_; ++l) {
      const double x = X[l];
      F[l] = -2.0 * t * x * x;
      F[m_ + l] = x;
    }
  }
  void jacobian(double t, const double* x, double* J) override {
    J[0] = -4.0 * t * x[0];
    J[1] = 1.0;
    J[2] = 0.0;
    J[3] = 0.0;
  }
  void jvp(std::size_t, double t, const double* x, const double* v, double* out) override {
    out[0] = -4.0 * t * x[0] * v[0];
    out[1] = v[0];
  }
  void dfdt(double, const double* X, double* D) override {
    for (std::size_t l = 0; l < m_; ++l) {
      D[l] = -2.0 * X[l] * X[l];
      D[m_ + l] = 0.0;
    }
  }
  bool autonomous() const override { return ignore_time_; }

  static void exact(double t0, double x0, double y0, double t, double* out) {
    const double c = 1.0 / x0 - t0 * t0, r = std::sqrt(c);
    out[0] = 1.0 / (c + t * t);
    out[1] = y0 + (std::atan(t / r) - std::atan(t0 / r)) / r;
  }

 private:
  std::size_t m_;
  bool ignore_time_;
};

// x' = diag(λ_1..λ_n) x with given eigenvalues: J is constant and known, so
// a test can make I − hγJ exactly singular for chosen step sizes.
class DiagonalSystem final : public RosenbrockSystem {
 public:
  explicit DiagonalSystem(std::vector<double> lambda) : lambda_(std::move(lambda)) {}
  void rhs(double, const double* X, double* F) override {
    for (std::size_t i = 0; i < lambda_.size(); ++i) F[i] = lambda_[i] * X[i];
  }
  void jacobian(double, const double*, double* J) override {
    const std::size_t n = lambda_.size();
    for (std::size_t k = 0; k < n * n; ++k) J[k] = 0.0;
    for (std::size_t i = 0; i < n; ++i) J[i + i * n] = lambda_[i];
  }
  bool constant_jacobian() const override { return true; }
  void jvp(std::size_t, double, const double*, const double* v, double* out) override {
    for (std::size_t i = 0; i < lambda_.size(); ++i) out[i] = lambda_[i] * v[i];
  }
  void dfdt(double, const double*, double* D) override {
    for (std::size_t i = 0; i < lambda_.size(); ++i) D[i] = 0.0;
  }
  bool autonomous() const override { return true; }

 private:
  std::vector<double> lambda_;
};

// x' = -x until t = 0.5, then f is NaN.
class NaNAfterHalf final : public RosenbrockSystem {
 public:
  void rhs(double t, const double* X, double* F) override {
    F[0] = t < 0.5 ? -X[0] : std::numeric_limits<double>::quiet_NaN();
  }
  void jacobian(double, const double*, double* J) override { J[0] = -1.0; }
  void jvp(std::size_t, double, const double*, const double* v, double* out) override {
    out[0] = -v[0];
  }
  void dfdt(double, const double*, double* D) override { D[0] = 0.0; }
  bool autonomous() const override { return true; }
};

// The status an Error carries out of run (ok when nothing was thrown), and
// its message.
inline Status status_of(const std::function<void()>& run, std::string* message = nullptr) {
  try {
    run();
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.status();
  }
  return Status::ok;
}

// Lane `lane` of an interleaved n×m buffer.
inline std::vector<double> lane_of(const double* X, std::size_t n, std::size_t m,
                                   std::size_t lane) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = X[i * m + lane];
  return v;
}

}  // namespace odesens::integrate::testing
