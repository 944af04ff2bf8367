// The propagator's planning of a step (sensitivity_propagator.hpp): the
// error estimate and the pieces a step is split into, the step's knot for
// outputs inside it from its Jacobians, and the save/restore point of a
// split step.
#include <algorithm>
#include <cmath>
#include <limits>

#include "methods/pbs/sensitivity_propagator.hpp"

namespace odesens::pbs {

void SensitivityPropagator::control_error(const ErrorControlSettings& control) {
  control_ = control;
  error_.reset();
  if (control.mode == ErrorControl::off || np_ == 0 || constant_jacobians_) return;
  error_ = std::make_unique<UpdateError>(shape_, control.rtol, control.atol, p_);
  error_->exponential_form(exponential_.ramp(), exponential_.jx_change());
  interpolates_ = settings_.interpolate_outputs;
  if (!interpolates_) return;
  out_mid_ = left_;
  out_right_ = left_;
  out_s_.resize(nx_ * np_);
  out_next_.resize(nx_ * np_);
  // The spectral form takes the step's own form (J_p linear, J_x's change):
  // other settings keep the exponential form, which follows them.
  if (settings_.spectral_outputs && !shape_.sparse && exponential_.ramp() &&
      exponential_.jx_change())
    spectral_ = std::make_unique<SpectralOutputs>(nx_, np_, control.rtol);
  if (control.mode != ErrorControl::refine) return;
  saved_x_.resize(nx_);
  saved_s_.resize(nx_ * np_);
  saved_left_ = left_;
}

void SensitivityPropagator::prepare(double t1, const double* x1, const double* x_mid) {
  evaluate(t1, x1, right_);
  evaluate(t_ + 0.5 * (t1 - t_), x_mid, mid_);
  planned_ = true;
  planned_t_ = t1;
  knot_recorded_ = false;
}

void SensitivityPropagator::record_planned_step(StepKnot& knot) const {
  knot.id = ++knots_recorded_;
  knot.t0 = t_;
  knot.t1 = planned_t_;
  knot.s = s_;
  knot.left = left_;
  knot.mid = mid_;
  knot.right = right_;
}

// The exponential update (Eq. 18) over [t0, t], J_x at its midpoint and
// J_p at t from the knot: what a partial update computes, without the two
// model evaluations it needs.
bool SensitivityPropagator::interpolate_in(const StepKnot& knot, double t, double* s_out) {
  if (!interpolates_ || !(t > knot.t0) || !(t < knot.t1)) return false;
  if (spectral_interpolation(knot, t, s_out)) return true;
  const double theta = (t - knot.t0) / (knot.t1 - knot.t0);
  interpolate_jacobians(knot, 0.5 * theta, /*with_jx=*/true, out_mid_);
  interpolate_jacobians(knot, theta, /*with_jx=*/true, out_right_);
  std::copy(knot.s.begin(), knot.s.end(), out_s_.begin());
  exponential_.step(out_mid_, knot.left, out_right_, t - knot.t0, {out_s_, out_next_}, counters_,
                    ExponentialUpdate::Frozen::at_midpoint);
  std::copy(out_s_.begin(), out_s_.end(), s_out);
  ++counters_.output_interpolations;
  return true;
}

std::size_t SensitivityPropagator::outputs_inside(const StepKnot& knot) const {
  if (!output_times_) return kSpectralOutputsPerStep;
  const auto first = std::upper_bound(output_times_->begin(), output_times_->end(), knot.t0);
  const auto end = std::lower_bound(first, output_times_->end(), knot.t1);
  return static_cast<std::size_t>(end - first);
}

bool SensitivityPropagator::spectral_interpolation(const StepKnot& knot, double t,
                                                   double* s_out) {
  if (!spectral_ || outputs_inside(knot) < kSpectralOutputsPerStep) return false;
  const bool prepared = spectral_->prepare(knot);
  counters_.output_decompositions = spectral_->decompositions();
  counters_.output_decompositions_refused = spectral_->refusals();
  if (!prepared || !spectral_->evaluate(knot, t, s_out)) return false;
  ++counters_.output_interpolations;
  ++counters_.output_spectral;
  return true;
}

// Local error ~ h^3 (update_error.hpp): m pieces of h / m bring a step's
// estimate e to e / m^3 each; 10 % more for the estimate's own error.
std::int64_t SensitivityPropagator::plan(double t1, const double* x1, const double* x_mid) {
  planned_ = false;
  const double dt = t1 - t_;
  if (!error_ || !x_mid || !(dt > 0.0)) return 1;
  prepare(t1, x1, x_mid);
  std::int64_t n_int = 1;
  const bool frozen_jp = settings_.exp_jp == ExpJp::frozen;
  const UpdateKind kind =
      use_exponential(dt, n_int) ? UpdateKind::exponential : UpdateKind::peano_baker;
  double e = error_->estimate(left_, mid_, right_, dt, s_, kind, frozen_jp, n_int);
  ErrorCounters& c = error_counters_;
  bool e_is_exponential = false;
  // Splitting a Peano-Baker step does not shorten its sub-steps (c h |J| of
  // them in each piece), so their truncation stays: such a step, and its
  // pieces, take the exponential update where that estimates less.
  // (Not with force_pbs: every step is then Peano-Baker, and is judged so.)
  if (kind == UpdateKind::peano_baker && e > 1.0 && control_.mode == ErrorControl::refine &&
      !settings_.force_pbs) {
    const double e_exp =
        error_->estimate(left_, mid_, right_, dt, s_, UpdateKind::exponential, frozen_jp);
    if (e_exp < e) {
      e = e_exp;
      e_is_exponential = true;
      exponential_until_ = t1;
      ++c.steps_to_exponential;
    }
  }
  ++c.steps_estimated;
  c.largest = std::max(c.largest, std::isfinite(e) ? e : INFINITY);
  if (e <= 1.0) return 1;
  ++c.steps_over;
  if (control_.mode != ErrorControl::refine) return 1;
  const double wanted = std::isfinite(e) ? std::ceil(1.1 * std::cbrt(e)) : INFINITY;
  std::int64_t m = wanted >= static_cast<double>(control_.max_pieces)
                       ? control_.max_pieces
                       : static_cast<std::int64_t>(wanted);
  // Pieces must stay distinct in floating point (steps near a time's
  // resolution: Laske_PLOSComputBiol2019 at its switches).
  const double resolution = 16.0 * std::numeric_limits<double>::epsilon() *
                            std::max(std::fabs(t_), std::fabs(t1));
  while (m > 1 && dt / static_cast<double>(m) <= resolution) m /= 2;
  if (m <= 1) return 1;
  planned_ = false;  // the pieces need Jacobians of their own
  // The pieces take the update estimated: a piece of an exponential step is
  // short enough for pbsr's switching rule to give it Peano-Baker sub-steps
  // whose truncation no estimate saw (2.2e-4 on pka.ode at rtol 1e-8).
  if (kind == UpdateKind::exponential || e_is_exponential) exponential_until_ = t1;
  const double after = e / (static_cast<double>(m) * m * m);
  if (after > 1.0) {
    ++c.steps_left_over;
    c.largest_left_over = std::max(c.largest_left_over, after);
  }
  ++c.steps_refined;
  c.pieces += m;
  return m;
}

bool SensitivityPropagator::interpolated_sensitivity(double t, double* s_out) {
  if (!interpolates_ || !planned_ || !(t > t_) || !(t < planned_t_)) return false;
  // Recorded once for all the outputs inside the step.
  if (!knot_recorded_ || planned_knot_.t0 != t_ || planned_knot_.t1 != planned_t_) {
    record_planned_step(planned_knot_);
    knot_recorded_ = true;
  }
  return interpolate_in(planned_knot_, t, s_out);
}

void SensitivityPropagator::save() {
  saved_t_ = t_;
  saved_x_ = x_;
  saved_s_ = s_;
  saved_left_ = left_;
}

void SensitivityPropagator::restore() {
  t_ = saved_t_;
  x_ = saved_x_;
  s_ = saved_s_;
  left_ = saved_left_;
  planned_ = false;
}

}  // namespace odesens::pbs
