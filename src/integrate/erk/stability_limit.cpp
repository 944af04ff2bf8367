#include "integrate/erk/stability_limit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace odesens::integrate::erk {

namespace {
// A margin below the boundary: ρ is an estimate.
constexpr double kSafety = 0.9;
// Power iterations at the first step, before the vector has converged.
constexpr int kFirstIterations = 4;
// Steps between two iterations once the vector has settled: ρ(J) moves
// with the state, slowly over a few steps, and one J v on every step cost
// up to 17 % on three-state models (chua) where the bound never binds.
constexpr long kEvery = 4;

double norm2(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
}
}  // namespace

StabilityLimit::StabilityLimit(const Model& model, const double* p, Workspace* ws, double boundary,
                               Role role, std::size_t stride)
    : model_(model),
      p_(p),
      ws_(ws),
      boundary_(boundary),
      role_(role),
      stride_(stride),
      v_(model.nx()),
      w_(model.nx()),
      gathered_(stride > 1 ? model.nx() : 0),
      shifted_(role == Role::measure ? 2 * model.nx() : 0) {}

void StabilityLimit::product(double t, const double* x) {
  if (role_ == Role::bound) {
    model_.jvp(t, x, p_, 1, v_.data(), w_.data(), ws_);
    return;
  }
  // w = (f(x + δv) − f(x)) / δ, ‖v‖ = 1, δ = √eps · max(1, ‖x‖).
  const std::size_t n = v_.size();
  double xnorm = 0;
  for (std::size_t i = 0; i < n; ++i) xnorm += x[i] * x[i];
  const double delta = std::sqrt(std::numeric_limits<double>::epsilon()) * std::max(1.0, std::sqrt(xnorm));
  double* f0 = shifted_.data() + n;
  for (std::size_t i = 0; i < n; ++i) shifted_[i] = x[i] + delta * v_[i];
  model_.rhs(t, shifted_.data(), p_, w_.data(), ws_);
  model_.rhs(t, x, p_, f0, ws_);
  for (std::size_t i = 0; i < n; ++i) w_[i] = (w_[i] - f0[i]) / delta;
}

// One power iteration: w = J v, ρ ≈ ‖w‖ (‖v‖ = 1), v ← w / ‖w‖. A v that J
// maps to 0 (or to NaN) starts again from the diagonal direction.
double StabilityLimit::iterate(double t, const double* x) {
  product(t, x);
  const double rho = norm2(w_);
  if (rho > 0 && std::isfinite(rho)) {
    for (std::size_t i = 0; i < v_.size(); ++i) v_[i] = w_[i] / rho;
    return rho;
  }
  const double e = 1.0 / std::sqrt(static_cast<double>(v_.size()));
  for (double& vi : v_) vi = e;
  return 0.0;
}

double StabilityLimit::largest_step(double t, const double* x) {
  if (v_.empty() || !(boundary_ > 0)) return std::numeric_limits<double>::infinity();
  if (stride_ > 1) {
    for (std::size_t i = 0; i < gathered_.size(); ++i) gathered_[i] = x[i * stride_];
    x = gathered_.data();
  }
  if (calls_ == 0) {  // a start away from any special direction
    const double e = 1.0 / std::sqrt(static_cast<double>(v_.size()));
    for (std::size_t i = 0; i < v_.size(); ++i) v_[i] = e * (1.0 + 0.1 * static_cast<double>(i % 7));
    for (int i = 1; i < kFirstIterations; ++i) iterate(t, x);
  }
  if (calls_++ % kEvery == 0) rho_ = iterate(t, x);
  if (role_ == Role::measure) return std::numeric_limits<double>::infinity();
  return rho_ > 0 ? kSafety * boundary_ / rho_ : std::numeric_limits<double>::infinity();
}

double StabilityLimit::h_lambda(double h) const { return std::fabs(h) * rho_; }

}  // namespace odesens::integrate::erk
