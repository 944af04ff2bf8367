// Whether an array holds only finite numbers (no NaN, no Inf): the check
// the integrators make on states and stages before they use them.
#pragma once

#include <cmath>
#include <cstddef>

namespace odesens {

// True when v[0..n) are all finite.
inline bool all_finite(std::size_t n, const double* v) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

}  // namespace odesens
