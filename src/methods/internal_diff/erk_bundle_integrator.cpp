#include "methods/internal_diff/erk_bundle_integrator.hpp"

#include <algorithm>

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

integrate::erk::ErkSettings engine_settings(const BundleStepSettings& s) {
  if (!s.h_fixed && !s.error_norm)
    throw Error(Status::internal_error, "an adaptive bundle needs its error norm");
  integrate::erk::ErkSettings e;
  // The engine's view mixes the states of all trajectories, so its own
  // tolerances (read only by the starting-step guess) take the smallest atol.
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
  return e;
}

}  // namespace

void ErkBundleIntegrator::PaddedSystem::rhs(double t, const double* X, double* F) {
  rhs_.evaluate(t, X, F);
  std::fill(F + rhs_.shape().size(), F + padded_, 0.0);
}

ErkBundleIntegrator::ErkBundleIntegrator(const integrate::erk::Tableau& tableau, BundleRhs& rhs,
                                         const BundleStepSettings& settings)
    : size_(rhs.shape().size()),
      system_(rhs, padded_size(size_)),
      workspace_(tableau, padded_size(size_) / static_cast<std::size_t>(view_width()),
                 view_width()),
      engine_(system_, workspace_, engine_settings(settings)),
      padded_(padded_size(size_), 0.0) {}

void ErkBundleIntegrator::start(double t0, const double* X0, double t_end) {
  std::copy(X0, X0 + size_, padded_.begin());
  engine_.reset(t0, padded_.data(), t_end);
}

void ErkBundleIntegrator::replace_states(const double* X) {
  std::copy(X, X + size_, padded_.begin());
  engine_.replace_state(padded_.data());
}

void ErkBundleIntegrator::interpolate(double t, double* X) {
  engine_.interpolate(t, padded_.data());
  std::copy(padded_.begin(), padded_.begin() + static_cast<std::ptrdiff_t>(size_), X);
}

BundleCounts ErkBundleIntegrator::counts() const {
  const auto& s = engine_.stats();
  BundleCounts c;
  c.steps = s.steps;
  c.accepted = s.accepted;
  c.rejected = s.rejected;
  return c;
}

ErkBundleIntegratorFactory::ErkBundleIntegratorFactory(integrate::erk::TableauId id)
    : tableau_(integrate::erk::tableau(id)) {}

std::unique_ptr<BundleIntegrator> ErkBundleIntegratorFactory::make(
    BundleRhs& rhs, const BundleStepSettings& settings) const {
  return std::make_unique<ErkBundleIntegrator>(tableau_, rhs, settings);
}

}  // namespace odesens::internal_diff
