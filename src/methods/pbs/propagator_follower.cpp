#include "methods/pbs/propagator_follower.hpp"

#include <algorithm>

namespace odesens::pbs {

void PropagatorFollower::step_taken(double t, const double* x_end) {
  catch_up();
  pending_mid_ok_ = midpoint_state(t, pending_mid_.data());
  pending_t_ = t;
  std::copy(x_end, x_end + pending_x_.size(), pending_x_.begin());
  pending_ = true;
  ++grid_points;
}

const double* PropagatorFollower::sensitivity_at(double t, const double* x) {
  if (pending_ && t == pending_t_) catch_up();
  return sensitivity_ahead(t, x);
}

const double* PropagatorFollower::sensitivity_ahead(double t, const double* x) {
  if (!pending_ || t == propagator_.t()) return propagator_.s();
  const bool mid = midpoint_state(t, output_mid_.data());
  propagator_.sensitivity_at(t, x, mid ? output_mid_.data() : nullptr, s_out_.data());
  return s_out_.data();
}

void PropagatorFollower::catch_up() {
  if (!pending_) return;
  propagator_.advance(pending_t_, pending_x_.data(),
                      pending_mid_ok_ ? pending_mid_.data() : nullptr);
  pending_ = false;
}

bool PropagatorFollower::midpoint_state(double t, double* out) {
  if (!solution_) return false;
  solution_->interpolate(0.5 * (propagator_.t() + t), out);
  return true;
}

}  // namespace odesens::pbs
