#include "integrate/implicit/rosenbrock_workspace.hpp"

#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

const RosenbrockTableau* checked(const RosenbrockTableau& tableau, std::size_t n,
                                 std::size_t lanes) {
  if (n == 0) throw Error(Status::invalid_argument, "Rosenbrock workspace: n must be positive");
  if (lanes == 0)
    throw Error(Status::invalid_argument, "Rosenbrock workspace: at least one lane (the nominal)");
  return &tableau;
}

std::vector<const SparsityPattern*> term_patterns(const SparsityPattern* pattern) {
  return {pattern};
}

}  // namespace

RosenbrockWorkspace::RosenbrockWorkspace(const RosenbrockTableau& tableau, std::size_t n,
                                         std::size_t lanes,
                                         const SparsityPattern* jacobian_pattern,
                                         const NewtonMatrixOptions& newton)
    : tableau_(checked(tableau, n, lanes)),
      n_(n),
      lanes_(lanes),
      pattern_(jacobian_pattern ? std::optional<SparsityPattern>(*jacobian_pattern)
                                : std::nullopt),
      jacobian_(jacobian_pattern ? jacobian_pattern->nnz() : n * n),
      newton_(n, term_patterns(jacobian_pattern), newton),
      states_(4 * n * lanes),
      scratch_(6 * n * lanes),
      stage_storage_(2 * static_cast<std::size_t>(tableau.stages) * n * lanes),
      solve_block_(n * lanes),
      lane_states_(n * lanes),
      product_(2 * n) {
  const std::size_t size = n * lanes;
  for (int i = 0; i < tableau.stages; ++i) {
    stages_.push_back(stage_storage_.data() + static_cast<std::size_t>(2 * i) * size);
    stage_rhs_.push_back(stage_storage_.data() + static_cast<std::size_t>(2 * i + 1) * size);
  }
  x_ = states_.data();
  x_candidate_ = states_.data() + size;
  x_low_ = states_.data() + 2 * size;
  x_low_candidate_ = states_.data() + 3 * size;
}

}  // namespace odesens::integrate
