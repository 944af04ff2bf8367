// Reaching a problem's output times with the solution of a bundle
// (bundle_solution.hpp, or the same under the model's events): with dense
// output the integrator steps freely and each output is interpolated in the
// step that covers it; without, every step is clipped to land on the next
// output time (grk4as). Output times are strictly increasing and >= t0
// (validate_problem); those equal to t0 are the caller's (initial values).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "integrate/output_grid.hpp"
#include "odesens/status.hpp"

namespace odesens::internal_diff {

class OutputCursor {
 public:
  // Starts at the first output time after t0; dense: the solution's dense
  // output is fit for output times.
  OutputCursor(const std::vector<double>& times, double t0, bool dense)
      : times_(times), dense_(dense) {
    while (next_ < times_.size() && times_[next_] <= t0) ++next_;
    first_ = next_;
  }

  // Output times at t0 (before the first step): [0, first_after_start()).
  std::size_t first_after_start() const { return first_; }
  bool done() const { return next_ == times_.size(); }

  // Where the next step may end on its way to t_target; interpolate:
  // whether the dense output is fit for outputs inside that step
  // (BundleIntegrator::dense_output_fits_next_step).
  double limit(double t_target, bool interpolate = true) const {
    if ((dense_ && interpolate) || done()) return t_target;
    return std::min(t_target, times_[next_]);
  }

  // After a step: visit(k, y) with the solution y at times[k] for every
  // output time in (t_previous, t]. buffer holds one solution. Reaching an
  // output begins the solution's next output interval (max_steps).
  template <typename Visit>
  void collect(integrate::SteppedSolution& solution, double* buffer, Visit&& visit) {
    const double t = solution.t();
    if (next_ < times_.size() && times_[next_] <= t) solution.begin_output_interval();
    for (; next_ < times_.size() && times_[next_] <= t; ++next_) {
      if (times_[next_] == t) {
        visit(next_, solution.x());
        continue;
      }
      if (!dense_)
        throw Error(Status::internal_error, "a step without dense output passed an output time");
      solution.interpolate(times_[next_], buffer);
      visit(next_, static_cast<const double*>(buffer));
    }
  }

 private:
  const std::vector<double>& times_;
  bool dense_;
  std::size_t next_ = 0;
  std::size_t first_ = 0;
};

}  // namespace odesens::internal_diff
