// Where the parts of one bounding system sit in the vector CVODES
// integrates: the polynomial coefficients of every component (component
// slowest), then the ellipsoid's shape matrix Q (packed lower triangle,
// column by column; ellipsoidal remainders only), then the interval
// remainder bounds r_lo, r_hi (interval remainders, and the quadrature
// components of ellipsoidal ones, section 3.3).
#pragma once

#include <cstddef>

namespace odesens::bounds {

struct SystemLayout {
  std::size_t n = 0;      // components
  std::size_t n_mon = 0;  // coefficients per component
  bool ellipsoid = false;

  std::size_t coef(std::size_t i) const { return i * n_mon; }
  std::size_t shape_offset() const { return n * n_mon; }
  std::size_t shape_size() const { return ellipsoid ? n * (n + 1) / 2 : 0; }
  // Q(i, k) for i >= k.
  std::size_t shape(std::size_t i, std::size_t k) const {
    return shape_offset() + k * n - k * (k + 1) / 2 + i;
  }
  std::size_t lower(std::size_t i) const { return shape_offset() + shape_size() + i; }
  std::size_t upper(std::size_t i) const { return lower(n) + i; }
  std::size_t size() const { return lower(n) + n; }
};

}  // namespace odesens::bounds
