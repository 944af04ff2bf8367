// The largest absolute entry of a vector, and the largest absolute
// difference of two: how far a computed vector is from a reference.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace odesens::testing {

inline double max_abs(const std::vector<double>& a) {
  double d = 0.0;
  for (double v : a) d = std::max(d, std::fabs(v));
  return d;
}

// Over the entries of a (b at least as long).
inline double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

}  // namespace odesens::testing
