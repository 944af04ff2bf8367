#include "methods/internal_diff/sensitivity_output.hpp"

#include <algorithm>

namespace odesens::internal_diff {

SensitivityOutput::SensitivityOutput(const Problem& problem, const SensitivityDirections& d)
    : directions_(d),
      nx_(d.nx()),
      builder_(problem, d.nx(), d.np(),
               d.gives_s() ? methods::SensitivityLayout::every_output
                           : methods::SensitivityLayout::none) {
  if (d.gives_sr()) builder_.allocate_directions(d.count());
}

double* SensitivityOutput::s_column(std::size_t k, std::size_t j) {
  if (!directions_.gives_s() || j < directions_.s_first()) return nullptr;
  return builder_.s(k) + (j - directions_.s_first()) * nx_;
}

double* SensitivityOutput::sr_column(std::size_t k, std::size_t j) {
  return directions_.gives_sr() ? builder_.sr(k) + j * nx_ : nullptr;
}

void SensitivityOutput::set_states(std::size_t k, const double* x) { builder_.set_x(k, x); }

void SensitivityOutput::set_direction(std::size_t k, std::size_t j, const double* sigma) {
  for (double* out : {s_column(k, j), sr_column(k, j)})
    if (out) std::copy(sigma, sigma + nx_, out);
}

void SensitivityOutput::set_from_solution(std::size_t k, const double* y, bool with_states) {
  if (with_states) set_states(k, y);
  for (std::size_t j = 0; j < directions_.count(); ++j) set_direction(k, j, y + (j + 1) * nx_);
}

}  // namespace odesens::internal_diff
