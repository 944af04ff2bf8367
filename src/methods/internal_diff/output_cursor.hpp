// Reaching a problem's output times with a BundleIntegrator: with dense
// output the integrator steps freely and each output is interpolated in the
// step that covers it; without, every step is clipped to land on the next
// output time (grk4as). Output times are strictly increasing and >= t0
// (validate_problem); those equal to t0 are the caller's (initial values).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "methods/internal_diff/bundle_integrator.hpp"
#include "odesens/status.hpp"

namespace odesens::internal_diff {

class OutputCursor {
 public:
  // Starts at the first output time after t0.
  OutputCursor(const std::vector<double>& times, double t0) : times_(times) {
    while (next_ < times_.size() && times_[next_] <= t0) ++next_;
    first_ = next_;
  }

  // Output times at t0 (before the first step): [0, first_after_start()).
  std::size_t first_after_start() const { return first_; }
  bool done() const { return next_ == times_.size(); }

  // Where the next step of `integrator` may end on its way to t_target.
  double limit(const BundleIntegrator& integrator, double t_target) const {
    if (integrator.has_dense_output() || done()) return t_target;
    return std::min(t_target, times_[next_]);
  }

  // After a step: visit(k, X) with the bundle X at times[k] for every
  // output time in (t_previous, t]. buffer holds one bundle.
  template <typename Visit>
  void collect(BundleIntegrator& integrator, double* buffer, Visit&& visit) {
    const double t = integrator.t();
    for (; next_ < times_.size() && times_[next_] <= t; ++next_) {
      if (times_[next_] == t) {
        visit(next_, integrator.x());
        continue;
      }
      if (!integrator.has_dense_output())
        throw Error(Status::internal_error, "a step without dense output passed an output time");
      integrator.interpolate(times_[next_], buffer);
      visit(next_, static_cast<const double*>(buffer));
    }
  }

 private:
  const std::vector<double>& times_;
  std::size_t next_ = 0;
  std::size_t first_ = 0;
};

}  // namespace odesens::internal_diff
