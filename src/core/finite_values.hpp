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

// The first of `columns` columns of n values (column-major) that holds NaN
// or Inf, or npos: which trajectory of a batch left where f has a value.
inline std::size_t first_non_finite_column(const double* values, std::size_t n,
                                           std::size_t columns) {
  for (std::size_t l = 0; l < columns; ++l)
    if (!all_finite(n, values + l * n)) return l;
  return static_cast<std::size_t>(-1);
}

}  // namespace odesens
