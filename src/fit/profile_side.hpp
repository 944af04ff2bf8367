// One side of one parameter's profile (profile.hpp): from the best point
// towards one bound, re-optimizing the other parameters at each value.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include "odesens/profile.hpp"

namespace odesens::fitting {

struct SideTrace {
  std::vector<ProfilePoint> points;  // in the order reached (away from the start)
  ProfileEnd end = ProfileEnd::crossed;
  double limit = 0.0;  // the crossing (interpolated) or the last value reached
  std::string failure;  // ended failed: the value tried and why its re-optimization failed
};

// direction -1 traces towards the lower bound, +1 towards the upper one.
// best_nlpost is nlpost at `best`; points do not include `best` itself.
SideTrace trace_side(const PetabProblem& problem, const std::vector<double>& best,
                     double best_nlpost, std::size_t parameter, int direction,
                     const ProfileOptions& options, double threshold,
                     const std::atomic<bool>* stop);

}  // namespace odesens::fitting
