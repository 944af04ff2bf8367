// The Result of an internal-difference solve: states at the output times,
// and S·R by (11), σ_j = (η̂_j − η)/ε_j, sorted by the directions into
// Result::s (the dx/dp columns) and Result::sr (all columns, unless the
// directions are the parameters, whose S·R is S).
#pragma once

#include <cstddef>

#include "methods/common/result_builder.hpp"
#include "methods/internal_diff/sensitivity_directions.hpp"
#include "odesens/problem.hpp"

namespace odesens::internal_diff {

class SensitivityOutput {
 public:
  SensitivityOutput(const Problem& problem, const SensitivityDirections& directions);

  void set_states(std::size_t k, const double* x);
  // Column j of S·R at output k (nx values).
  void set_direction(std::size_t k, std::size_t j, const double* sigma);
  // From a solution y = [x, σ_1, ..., σ_ns] (bundle_solution.hpp) at
  // output k: the directions, and x when with_states.
  void set_from_solution(std::size_t k, const double* y, bool with_states);

  const double* states(std::size_t k) { return builder_.x(k); }
  methods::ResultBuilder& builder() { return builder_; }
  Result take() { return builder_.take(); }

 private:
  // Where column j of output k goes; null when it goes nowhere of the two.
  double* s_column(std::size_t k, std::size_t j);
  double* sr_column(std::size_t k, std::size_t j);

  const SensitivityDirections& directions_;
  std::size_t nx_;
  methods::ResultBuilder builder_;
};

}  // namespace odesens::internal_diff
