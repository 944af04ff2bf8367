#include "methods/internal_diff/erk_bundle_integrator.hpp"

#include <algorithm>
#include <cmath>

#include "integrate/erk/lane_kernels.hpp"
#include "odesens/status.hpp"

namespace odesens::internal_diff {
namespace {

// The widest stage-combination kernel this CPU runs natively.
int view_width() {
  if (integrate::erk::erk_lane_kernels_avx512()) return 8;
  return 4;  // AVX2, or the portable kernels of width 4
}

std::size_t padded_size(std::size_t size) {
  const std::size_t w = static_cast<std::size_t>(view_width());
  return (size + w - 1) / w * w;
}

integrate::erk::ErkSettings engine_settings(const BundleStepSettings& s,
                                            integrate::erk::StepLimit* stiffness_measure) {
  if (!s.h_fixed && !s.error_norm)
    throw Error(Status::internal_error, "an adaptive bundle needs its error norm");
  integrate::erk::ErkSettings e;
  // The engine's view mixes the states of all trajectories and its own
  // tolerances are never read (the norm judges steps, the first step is
  // guessed here): the smallest atol keeps them valid.
  e.tolerances.rtol = s.tolerances.rtol;
  e.tolerances.atol = s.tolerances.atol;
  if (!s.tolerances.atol_per_state.empty())
    e.tolerances.atol = *std::min_element(s.tolerances.atol_per_state.begin(),
                                          s.tolerances.atol_per_state.end());
  e.error_norm = s.error_norm;
  e.h0 = s.h0;
  e.h_max = s.h_max;
  e.h_fixed = s.h_fixed;
  e.max_steps = s.max_steps;
  e.detect_stiffness = s.detect_stiffness;
  if (s.detect_stiffness && !s.h_fixed) e.step_limit = stiffness_measure;
  // σ = (x̂ − x)/ε magnifies the states' rounding by 1/ε: accumulate them
  // compensated, as the Rosenbrock engine does.
  e.compensated = true;
  return e;
}

// TOL for every value of the bundle: the states' atol repeated per trajectory.
integrate::Tolerances bundle_tolerances(const integrate::Tolerances& tol, BundleShape shape) {
  integrate::Tolerances out;
  out.rtol = tol.rtol;
  out.atol_per_state.resize(shape.size());
  for (std::size_t q = 0; q < shape.size(); ++q) out.atol_per_state[q] = tol.atol_of(q % shape.nx);
  return out;
}

}  // namespace

void ErkBundleIntegrator::PaddedSystem::rhs(double t, const double* X, double* F) {
  rhs_.evaluate(t, X, F);
  std::fill(F + rhs_.shape().size(), F + padded_, 0.0);
}

ErkBundleIntegrator::ErkBundleIntegrator(const integrate::erk::Tableau& tableau, BundleRhs& rhs,
                                         const BundleStepSettings& settings)
    : size_(rhs.shape().size()),
      rhs_(rhs),
      settings_(settings),
      guess_tolerances_(bundle_tolerances(settings.tolerances, rhs.shape())),
      system_(rhs, padded_size(size_)),
      workspace_(tableau, padded_size(size_) / static_cast<std::size_t>(view_width()),
                 view_width()),
      stiffness_measure_(rhs.model(), rhs.params(0), &rhs.workspace(),
                         integrate::erk::cached_stability_boundary(tableau),
                         integrate::erk::StabilityLimit::Role::measure, rhs.shape().trajectories()),
      engine_(system_, workspace_, engine_settings(settings, &stiffness_measure_)),
      padded_(padded_size(size_), 0.0),
      padded_low_(padded_size(size_), 0.0),
      guess_scratch_(4 * size_) {}

void ErkBundleIntegrator::start(double t0, const double* X0, const double* X0_low, double t_end) {
  // As the engine would, before f sees them.
  for (std::size_t q = 0; q < size_; ++q)
    if (!std::isfinite(X0[q])) throw Error(Status::not_finite, "x0 has NaN or Inf values");
  std::copy(X0, X0 + size_, padded_.begin());
  if (started_) {  // a restart (after an event): the engine's counts start again
    const auto& s = engine_.stats();
    before_restart_.steps += s.steps;
    before_restart_.accepted += s.accepted;
    before_restart_.rejected += s.rejected;
  }
  started_ = true;
  const bool guess = !settings_.h_fixed && !(settings_.h0 > 0);
  engine_.reset(t0, padded_.data(), t_end, guess ? first_step(t0, t_end) : 0.0);
  if (X0_low) {
    std::copy(X0_low, X0_low + size_, padded_low_.begin());
    engine_.set_state_low(padded_low_.data());
  }
}

// HNW I §II.4 over the bundle, from padded_ (x0). One more f evaluation
// than the engine's own guess (f0 again in reset): once per solve. 0 when
// f is not finite at x0 or the guess is not: the engine then decides.
double ErkBundleIntegrator::first_step(double t0, double t_end) {
  double* f0 = guess_scratch_.data();
  rhs_.evaluate(t0, padded_.data(), f0);
  // NaN or Inf in f: no guess, and the engine's reset names the failure.
  for (std::size_t q = 0; q < size_; ++q)
    if (!std::isfinite(f0[q])) return 0.0;
  integrate::InitialStepInput in;
  in.n = size_;
  in.lanes = 1;
  in.t0 = t0;
  in.x0 = padded_.data();
  in.f0 = f0;
  in.direction = t_end > t0 ? 1.0 : -1.0;
  in.order = engine_.tableau().order;
  in.h_max = settings_.h_max;
  const integrate::InitialStepScratch scratch{f0 + size_, f0 + 2 * size_, f0 + 3 * size_};
  const double h = integrate::initial_step(
      guess_tolerances_, in, [this](double t, const double* x, double* f) { rhs_.evaluate(t, x, f); },
      scratch);
  return std::isfinite(h) ? std::fabs(h) : 0.0;  // 0: the engine guesses
}

void ErkBundleIntegrator::replace_states(const double* X, const double* X_low) {
  std::copy(X, X + size_, padded_.begin());
  if (!X_low) {
    engine_.replace_state(padded_.data());
    return;
  }
  std::copy(X_low, X_low + size_, padded_low_.begin());
  engine_.replace_state(padded_.data(), padded_low_.data());
}

void ErkBundleIntegrator::interpolate(double t, double* X) {
  engine_.interpolate(t, padded_.data());
  std::copy(padded_.begin(), padded_.begin() + static_cast<std::ptrdiff_t>(size_), X);
}

// dop853's dense output is a degree-7 polynomial in the step fraction, fit
// to the step's stages; on a mode e^{λt} with z = hλ real and negative it
// follows the mode to about 1e-6 of its size at |z| = 1, 1.5e-4 at 2, 3e-3
// at 3 and 0.9 at 5, some 30 times the step's own error at its end (y' =
// -1000 y + 1 on fixed steps). Accuracy alone can hold steps at |z| of 2 to
// 5 on a stiff mode that sits on its slow manifold (Van der Pol, mu = 1000,
// over [0, 0.5]: h·ρ 2.5 to 5); S's component along the mode then came out
// of the interpolant up to 25 % off (3.8e-2 of max |S|). Landing on the
// output times where h·ρ > 2: 3.8e-4, with 400 steps instead of 330.
// ρ is that of the stiffness measure (every fourth step; 0 when the
// stiffness test is off or steps are fixed: the dense output is used then).
constexpr double kDenseOutputLimit = 2.0;

bool ErkBundleIntegrator::dense_output_fits_next_step() const {
  return std::fabs(engine_.h_next()) * stiffness_measure_.spectral_radius() <= kDenseOutputLimit;
}

BundleCounts ErkBundleIntegrator::counts() const {
  const auto& s = engine_.stats();
  BundleCounts c;
  c.steps = before_restart_.steps + s.steps;
  c.accepted = before_restart_.accepted + s.accepted;
  c.rejected = before_restart_.rejected + s.rejected;
  c.rhs_calls = rhs_.calls();  // the starting-step guesses' included
  return c;
}

ErkBundleIntegratorFactory::ErkBundleIntegratorFactory(integrate::erk::TableauId id)
    : tableau_(integrate::erk::tableau(id)) {}

std::unique_ptr<BundleIntegrator> ErkBundleIntegratorFactory::make(
    BundleRhs& rhs, const BundleStepSettings& settings) const {
  return std::make_unique<ErkBundleIntegrator>(tableau_, rhs, settings);
}

}  // namespace odesens::internal_diff
