// Latin hypercube starts (fit.hpp). The generator is std::mt19937_64, whose
// sequence the standard fixes; the strata are shuffled and the points drawn
// from its raw output here rather than by the standard distributions, whose
// algorithms differ between libraries: the same seed gives the same starts
// everywhere.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "odesens/fit.hpp"

namespace odesens {
namespace {

// Uniform in [0, 1) from the top 53 bits.
double uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace

std::vector<std::vector<double>> latin_hypercube(const std::vector<double>& lower,
                                                 const std::vector<double>& upper,
                                                 std::size_t n, std::uint64_t seed) {
  const std::size_t d = lower.size();
  for (std::size_t i = 0; i < d; ++i)
    if (!std::isfinite(lower[i]) || !std::isfinite(upper[i]) || lower[i] > upper[i])
      throw Error(Status::invalid_argument,
                  "fit: starts are drawn in a finite box, and parameter " + std::to_string(i + 1) +
                      " has bounds [" + std::to_string(lower[i]) + ", " +
                      std::to_string(upper[i]) + "]: give the starts instead");
  std::mt19937_64 rng(seed);
  std::vector<std::vector<double>> points(n, std::vector<double>(d));
  std::vector<std::size_t> strata(n);
  for (std::size_t i = 0; i < d; ++i) {
    std::iota(strata.begin(), strata.end(), std::size_t{0});
    for (std::size_t k = n; k > 1; --k) std::swap(strata[k - 1], strata[rng() % k]);  // Fisher-Yates
    for (std::size_t k = 0; k < n; ++k) {
      const double u = (static_cast<double>(strata[k]) + uniform(rng)) / static_cast<double>(n);
      // Weighted, not lower + u (upper - lower): the width of a box near
      // the largest doubles overflows to inf (every start at the bound).
      points[k][i] = std::clamp((1.0 - u) * lower[i] + u * upper[i], lower[i], upper[i]);
    }
  }
  return points;
}

}  // namespace odesens
