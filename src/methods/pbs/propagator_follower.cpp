#include "methods/pbs/propagator_follower.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace odesens::pbs {

void PropagatorFollower::step_taken(double t, const double* x_end) {
  catch_up();
  // CVODES may report a root a few hundred ulps behind a stop time it
  // returned at before (SBML Test Suite case 01584: the stop at
  // 3.0000000000002096, then the root at 3.0000000000000333); S there is
  // S where the propagator stands, to that rounding. Farther behind is a
  // fault (SensitivityPropagator::advance says so).
  const double behind = propagator_.t() - t;
  if (behind >= 0.0 &&
      behind <= 1024.0 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(t), 1.0))
    return;
  knots_ = 0;
  pending_mid_ok_ = midpoint_state(t, pending_mid_.data());
  pending_t_ = t;
  std::copy(x_end, x_end + pending_x_.size(), pending_x_.begin());
  pending_ = true;
  ++grid_points;
  if (pending_mid_ok_) split_pending(propagator_.plan(t, x_end, pending_mid_.data()));
}

void PropagatorFollower::take_pieces_recorded() {
  const std::size_t nx = pending_x_.size(), m = static_cast<std::size_t>(pieces_);
  if (knot_.size() < m) knot_.resize(m);  // grows to the largest split only
  for (std::size_t i = 0; i < m; ++i) {
    const double* x = piece_x_.data() + i * nx;
    const double* mid = piece_mid_.data() + i * nx;
    propagator_.prepare(piece_t_[i], x, mid);
    propagator_.record_planned_step(knot_[i]);
    propagator_.advance(piece_t_[i], x, mid);
  }
  knots_ = m;
  pending_ = false;
  pieces_ = 1;
}

const double* PropagatorFollower::sensitivity_from_knots(double t) {
  for (std::size_t i = 0; i < knots_; ++i) {
    StepKnot& k = knot_[i];
    if (t == k.t0) return k.s.data();
    if (t < k.t1 && propagator_.interpolate_in(k, t, s_out_.data())) return s_out_.data();
  }
  return propagator_.s();  // at the step's end
}

void PropagatorFollower::split_pending(std::int64_t pieces) {
  pieces_ = pieces;
  if (pieces <= 1) return;
  const std::size_t nx = pending_x_.size(), m = static_cast<std::size_t>(pieces);
  if (piece_t_.size() < m) {  // grows to the largest split only
    piece_t_.resize(m);
    piece_x_.resize(m * nx);
    piece_mid_.resize(m * nx);
  }
  const double t0 = propagator_.t(), h = (pending_t_ - t0) / static_cast<double>(pieces);
  for (std::size_t i = 0; i < m; ++i) {
    const bool last = i + 1 == m;
    piece_t_[i] = last ? pending_t_ : t0 + static_cast<double>(i + 1) * h;
    if (last)
      std::copy(pending_x_.begin(), pending_x_.end(), piece_x_.begin() + i * nx);
    else
      solution_->interpolate(piece_t_[i], piece_x_.data() + i * nx);
    solution_->interpolate(t0 + (static_cast<double>(i) + 0.5) * h, piece_mid_.data() + i * nx);
  }
}

const double* PropagatorFollower::sensitivity_at(double t, const double* x) {
  if (pending_ && t == pending_t_) catch_up();
  return sensitivity_ahead(t, x);
}

const double* PropagatorFollower::sensitivity_ahead(double t, const double* x) {
  if (knots_ > 0 && t >= knot_[0].t0 && t < propagator_.t()) return sensitivity_from_knots(t);
  if (!pending_ || t == propagator_.t()) return propagator_.s();
  // A split step with outputs inside is taken at the first of them, its
  // pieces recorded: the outputs then come from the records, not from a
  // partial update each through the pieces before them.
  if (pieces_ > 1 && propagator_.interpolates()) {
    take_pieces_recorded();
    return sensitivity_from_knots(t);
  }
  if (pieces_ > 1) return sensitivity_in_pieces(t, x);
  if (propagator_.interpolated_sensitivity(t, s_out_.data())) return s_out_.data();
  const bool mid = midpoint_state(t, output_mid_.data());
  propagator_.sensitivity_at(t, x, mid ? output_mid_.data() : nullptr, s_out_.data());
  return s_out_.data();
}

const double* PropagatorFollower::sensitivity_by_update(double t, const double* x) {
  if (knots_ > 0 && t >= knot_[0].t0 && t < propagator_.t()) return sensitivity_from_knots(t);
  if (!pending_ || t == propagator_.t()) return propagator_.s();
  if (pieces_ > 1) return sensitivity_in_pieces(t, x);
  const bool mid = midpoint_state(t, output_mid_.data());
  propagator_.sensitivity_at(t, x, mid ? output_mid_.data() : nullptr, s_out_.data());
  return s_out_.data();
}

const double* PropagatorFollower::sensitivity_in_pieces(double t, const double* x) {
  const std::size_t nx = pending_x_.size();
  std::size_t before = 0;  // pieces that end before t
  while (before + 1 < static_cast<std::size_t>(pieces_) && piece_t_[before] < t) ++before;
  if (before > 0) propagator_.save();
  for (std::size_t i = 0; i < before; ++i)
    propagator_.advance(piece_t_[i], piece_x_.data() + i * nx, piece_mid_.data() + i * nx);
  if (t == propagator_.t()) {
    std::copy(propagator_.s(), propagator_.s() + s_out_.size(), s_out_.begin());
  } else {
    const bool mid = midpoint_state(t, output_mid_.data());
    propagator_.sensitivity_at(t, x, mid ? output_mid_.data() : nullptr, s_out_.data());
  }
  if (before > 0) propagator_.restore();
  return s_out_.data();
}

void PropagatorFollower::catch_up() {
  if (!pending_) return;
  if (pieces_ > 1) {
    const std::size_t nx = pending_x_.size();
    for (std::size_t i = 0; i < static_cast<std::size_t>(pieces_); ++i)
      propagator_.advance(piece_t_[i], piece_x_.data() + i * nx, piece_mid_.data() + i * nx);
  } else {
    propagator_.advance(pending_t_, pending_x_.data(),
                        pending_mid_ok_ ? pending_mid_.data() : nullptr);
  }
  pending_ = false;
  pieces_ = 1;
}

bool PropagatorFollower::midpoint_state(double t, double* out) {
  if (!solution_) return false;
  solution_->interpolate(0.5 * (propagator_.t() + t), out);
  return true;
}

}  // namespace odesens::pbs
