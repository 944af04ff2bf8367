#include "methods/internal_diff/sensitivity_error_norm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "odesens/status.hpp"

namespace odesens::internal_diff {
namespace {

// The engine's norm from the sums of squares of the weighted estimates:
// RMS, or DOP853's combination when a lower-order estimate exists (HNW I
// §II.10): it behaves like the RMS of e5 but stays reliable where e3 is
// much larger.
double combined(double sum5, double sum3, bool has_low, std::size_t n) {
  const double count = static_cast<double>(n);
  if (!has_low) return std::sqrt(sum5 / count);
  const double deno = sum5 + 0.01 * sum3;
  return deno > 0 ? sum5 / std::sqrt(count * deno) : 0.0;
}

}  // namespace

SensitivityErrorNorm::SensitivityErrorNorm(BundleShape shape, const integrate::Tolerances& state,
                                           SensitivityTolerances sensitivity,
                                           const double* epsilon)
    : shape_(shape),
      state_(state),
      sensitivity_(sensitivity),
      epsilon_(epsilon),
      largest_floor_(shape.ns, 0.0),
      largest_sigma_(shape.ns, 0.0) {
  state_.validate(shape.nx);
}

double SensitivityErrorNorm::floor_over_sigma(std::size_t j) const {
  const double floor = largest_floor_[j - 1], sigma = largest_sigma_[j - 1];
  return sigma > 0 ? floor / sigma : (floor > 0 ? std::numeric_limits<double>::infinity() : 0.0);
}

// ‖d̂_l‖ (‖d‖ for l = 0) with the weights of TOL.
double SensitivityErrorNorm::trajectory_error(const integrate::StepErrorEstimate& e,
                                              std::size_t l) const {
  const std::size_t nx = shape_.nx, L = shape_.trajectories();
  double sum5 = 0.0, sum3 = 0.0;
  for (std::size_t i = 0; i < nx; ++i) {
    const std::size_t q = i * L + l;
    const double scale = std::max(std::fabs(e.x_old[q]), std::fabs(e.x_new[q]));
    const double w = 1.0 / (state_.atol_of(i) + state_.rtol * scale);
    const double v5 = e.err[q] * w;
    sum5 += v5 * v5;
    if (e.err_low) {
      const double v3 = e.err_low[q] * w;
      sum3 += v3 * v3;
    }
  }
  return combined(sum5, sum3, e.err_low != nullptr, nx);
}

// The part of Δ_j's error that no step size reduces: the trajectories'
// states and stages are rounded at eps_mach |x|, and (14) divides their
// differences by ε_j, so Δ_j is noise below eps_mach max_i |x_i| / ε_j
// (normwise, as the perturbations are: about sqrt(eps_mach) max_i |σ_ji|).
// A sens_atol below it cannot be met: on Boehm_JProteomeRes2014 (stiff,
// σ up to 1e4 next to components of 1e-3) grk4as took 100000 steps to
// t = 0.1 of 240 at the default sens_atol = 1e-6 and finishes in 2041
// (cvodes_fsa 477) with the floor added, S within 4e-6 of the reference.
// The floor's max_i |x_i|: the nominal's, at both ends of the step, taken
// once per call of norm() and scaled by eps_mach / ε_j for each direction.
double SensitivityErrorNorm::nominal_max_abs(const integrate::StepErrorEstimate& e) const {
  const std::size_t nx = shape_.nx, L = shape_.trajectories();
  double x_max = 0.0;
  for (std::size_t i = 0; i < nx; ++i)
    x_max = std::max({x_max, std::fabs(e.x_old[i * L]), std::fabs(e.x_new[i * L])});
  return x_max;
}

// ‖Δ_j‖, (14), with the weights of TOLS at σ_j at both ends of the step,
// and the rounding floor added to sens_atol.
double SensitivityErrorNorm::difference_error(const integrate::StepErrorEstimate& e,
                                              std::size_t j, double x_max) {
  const std::size_t nx = shape_.nx, L = shape_.trajectories();
  const double inv = 1.0 / epsilon_[j - 1];
  const double floor = std::numeric_limits<double>::epsilon() * x_max * inv;
  largest_floor_[j - 1] = std::max(largest_floor_[j - 1], floor);
  double sum5 = 0.0, sum3 = 0.0;
  for (std::size_t i = 0; i < nx; ++i) {
    const std::size_t q = i * L + j, q0 = i * L;  // trajectory j, the nominal
    const double s_old = (e.x_old[q] - e.x_old[q0]) * inv;
    const double s_new = (e.x_new[q] - e.x_new[q0]) * inv;
    largest_sigma_[j - 1] = std::max(largest_sigma_[j - 1], std::fabs(s_new));
    const double w =
        1.0 / (sensitivity_.atol + floor + sensitivity_.rtol * std::max(std::fabs(s_old), std::fabs(s_new)));
    const double v5 = (e.err[q] - e.err[q0]) * inv * w;
    sum5 += v5 * v5;
    if (e.err_low) {
      const double v3 = (e.err_low[q] - e.err_low[q0]) * inv * w;
      sum3 += v3 * v3;
    }
  }
  return combined(sum5, sum3, e.err_low != nullptr, nx);
}

double SensitivityErrorNorm::norm(const integrate::StepErrorEstimate& estimate) {
  if (estimate.n * estimate.lanes < shape_.size())
    throw Error(Status::internal_error, "step error estimate smaller than the trajectory bundle");
  double worst = 0.0;
  for (std::size_t l = 0; l < shape_.trajectories(); ++l) {
    const double err = trajectory_error(estimate, l);
    if (!(err <= worst)) worst = err;  // NaN wins: never mistaken for a small error
  }
  double worst_difference = 0.0;
  const double x_max = shape_.ns > 0 ? nominal_max_abs(estimate) : 0.0;
  for (std::size_t j = 1; j <= shape_.ns; ++j) {
    const double err = difference_error(estimate, j, x_max);
    if (!(err <= worst_difference)) worst_difference = err;
  }
  if (std::isnan(worst)) {
    sensitivity_decided_ = false;
    return worst;
  }
  sensitivity_decided_ = !(worst_difference <= worst);  // a NaN in Δ wins too
  return sensitivity_decided_ ? worst_difference : worst;
}

}  // namespace odesens::internal_diff
