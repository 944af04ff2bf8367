#include "integrate/erk/erk_workspace.hpp"

#include <string>

#include "odesens/status.hpp"

namespace odesens::integrate::erk {

ErkWorkspace::ErkWorkspace(const Tableau& tableau, std::size_t n, int lanes)
    : tableau_(&tableau), n_(n), lanes_(lanes), dense_weights_(tableau) {
  if (n == 0) throw Error(Status::invalid_argument, "an ERK workspace needs at least one state");
  if (lanes != 1 && lanes != 4 && lanes != 8)
    throw Error(Status::invalid_argument, "lane width must be 1, 4 or 8, got " + std::to_string(lanes));
  const std::size_t ds = static_cast<std::size_t>(tableau.dense_stages);
  stage_storage_.assign(ds * size(), 0.0);
  state_storage_.assign(6 * size(), 0.0);
  scratch_.assign(4 * size(), 0.0);
  coefficients_.assign(ds, 0.0);
  lane_sums_.assign(2 * static_cast<std::size_t>(lanes), 0.0);
  stages_.resize(ds);
  for (std::size_t j = 0; j < ds; ++j) stages_[j] = stage_storage_.data() + j * size();
  x_previous_ = state_storage_.data();
  x_ = state_storage_.data() + size();
  x_candidate_ = state_storage_.data() + 2 * size();
  x_low_previous_ = state_storage_.data() + 3 * size();
  x_low_ = state_storage_.data() + 4 * size();
  x_low_candidate_ = state_storage_.data() + 5 * size();
}

}  // namespace odesens::integrate::erk
