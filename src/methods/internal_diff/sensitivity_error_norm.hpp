// The step error test of internal differences (Franz & Kiehl §2.3, (14)),
// as a StepErrorNorm that any engine stepping a bundle calls with the
// embedded estimates of an attempt. With d = η̄ − η the estimate of the
// nominal, d̂_j that of trajectory j, and
//   (14) Δ_j = (d̂_j − d) / ε_j = σ̄_j − σ_j,
// the estimate of the error of σ_j, a step is accepted iff
//   ‖d‖ <= 1 and ‖d̂_j‖ <= 1   weighted by TOL:  atol_i + rtol·|x_i|
//   ‖Δ_j‖ <= 1                 weighted by TOLS: sens_atol + sens_rtol·|σ_i|
//                              + eps_mach·max|x|/ε_j (Δ's rounding floor)
// for every j, on the states only (parameters carry no error, §2.6). The
// norm returned is the largest of these normalized errors, so that one step
// size controller acting on it takes the smallest of the step-size guesses
// the paper computes from each.
//
// Each norm is the engine's own form: the weighted RMS norm, or, when the
// engine gives a second, lower-order estimate (dop853's 3rd-order e3 next to
// e5), DOP853's combination err5²/√(N(err5² + 0.01 err3²)); for Δ both
// estimates are differenced alike. The magnitudes in the weights are the
// larger of the step's two ends, as in error_weights (step_control.hpp).
//
// The estimate's buffers hold the bundle (trajectory_bundle.hpp: nx × L
// interleaved) in their first nx·L values: n = nx and lanes = L for an
// engine with L lanes (Rosenbrock), or any n·lanes >= nx·L for an engine
// that sees the bundle as one flat system, padding at the end (the
// explicit RK engine, erk_bundle_integrator.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/step_control.hpp"
#include "methods/internal_diff/trajectory_bundle.hpp"

namespace odesens::internal_diff {

struct SensitivityTolerances {
  double rtol = 1e-7;  // sens_rtol: relative to |σ_i|
  double atol = 1e-7;  // sens_atol
};

class SensitivityErrorNorm final : public integrate::StepErrorNorm {
 public:
  // state: TOL of every trajectory (atol scalar or per state, nx values);
  // epsilon: the n_s perturbation sizes in use, read at every call (the
  // caller rescales them between steps).
  SensitivityErrorNorm(BundleShape shape, const integrate::Tolerances& state,
                       SensitivityTolerances sensitivity, const double* epsilon);

  double norm(const integrate::StepErrorEstimate& estimate) override;

  // Whether Δ decided the last call (its normalized error was the largest).
  bool sensitivity_decided() const { return sensitivity_decided_; }

  // Over every call so far, the largest rounding floor of Δ_j (see the .cpp)
  // against the largest |σ_j|, j = 1..n_s: above about 1e-3 the differences
  // cannot resolve direction j (a parameter that barely moves x, perturbed
  // by √eps of itself), and its σ_j is noise the error test accepts.
  double floor_over_sigma(std::size_t j) const;

 private:
  double trajectory_error(const integrate::StepErrorEstimate& e, std::size_t l) const;
  double difference_error(const integrate::StepErrorEstimate& e, std::size_t j, double x_max);
  double nominal_max_abs(const integrate::StepErrorEstimate& e) const;

  BundleShape shape_;
  integrate::Tolerances state_;
  SensitivityTolerances sensitivity_;
  const double* epsilon_;
  bool sensitivity_decided_ = false;
  std::vector<double> largest_floor_, largest_sigma_;  // n_s each
};

}  // namespace odesens::internal_diff
