#include "methods/internal_diff/sensitivity_directions.hpp"

#include <algorithm>
#include <utility>

#include "odesens/status.hpp"

namespace odesens::internal_diff {

DirectionSet parse_direction_set(const std::string& name) {
  if (name == "params") return DirectionSet::params;
  if (name == "states") return DirectionSet::states;
  if (name == "all") return DirectionSet::all;
  throw Error(Status::option_type,
              "option 'directions' must be params, states or all, got '" + name + "'");
}

SensitivityDirections::SensitivityDirections(DirectionSet set, std::size_t nx, std::size_t np,
                                             const std::vector<double>& dx0_dp)
    : set_(set), nx_(nx), np_(np) {
  if (set == DirectionSet::given)
    throw Error(Status::internal_error, "given directions need their matrix");
  const bool with_states = set != DirectionSet::params;
  const bool with_params = set != DirectionSet::states;
  ns_ = (with_states ? nx : 0) + (with_params ? np : 0);
  const std::size_t rows = nx + np;
  r_.assign(rows * ns_, 0.0);
  std::size_t j = 0;
  for (std::size_t i = 0; with_states && i < nx; ++i, ++j) r_[i + j * rows] = 1.0;
  for (std::size_t k = 0; with_params && k < np; ++k, ++j) {
    double* column = r_.data() + j * rows;
    // The total derivative dx/dp_k: x0 moves with p_k.
    for (std::size_t i = 0; !dx0_dp.empty() && i < nx; ++i) column[i] = dx0_dp[i + k * nx];
    column[nx + k] = 1.0;
  }
}

SensitivityDirections::SensitivityDirections(std::vector<double> r, std::size_t nx,
                                             std::size_t np)
    : set_(DirectionSet::given), nx_(nx), np_(np), ns_(r.size() / (nx + np)), r_(std::move(r)) {
  if (r_.size() != ns_ * (nx + np))
    throw Error(Status::invalid_argument, "sensitivity directions must be (nx + np) x n_s");
}

std::vector<double> SensitivityDirections::param_parts() const {
  std::vector<double> parts(np_ * ns_);
  for (std::size_t j = 0; j < ns_; ++j)
    std::copy(param_part(j), param_part(j) + np_, parts.begin() + static_cast<std::ptrdiff_t>(j * np_));
  return parts;
}

}  // namespace odesens::internal_diff
