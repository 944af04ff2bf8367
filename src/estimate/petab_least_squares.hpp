// The least-squares form of a PEtab objective (petab.hpp): which residuals
// there are, and each measurement's rows of r and dr/dx.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "estimate/petab_objective.hpp"
#include "odesens/petab.hpp"
#include "sources/petab/petab_problem.hpp"

namespace odesens::petab {

// The rows of r: the data residuals of the measurements (rows 0..n_m-1),
// then the sigma residuals, then the priors'. Decided once per problem, so
// that every evaluation has the same rows.
struct LeastSquaresLayout {
  std::string refusal;          // why there is no least-squares form; empty: there is
  std::vector<int> sigma_row;   // per measurement: row of its sigma residual, -1: none
  std::vector<int> prior_row;   // per estimated parameter: row of its prior's, -1: none
  std::size_t n_rows = 0;
};

LeastSquaresLayout least_squares_layout(const Definition& def);

// Measurement mi's rows: its data residual and, when the layout gives it
// one, its sigma residual; their Jacobian rows when r.residual_jacobian is
// sized, from dh (of h on the observable's transformed scale) and dsigma
// in the scaled parameters. Error(not_finite) naming the measurement when
// log(2 pi sigma^2) + kPetabResidualOffset <= 0.
void add_measurement_rows(const LeastSquaresLayout& layout, std::size_t mi,
                          const Measurement& m, const Term& t, const std::vector<double>& dh,
                          const std::vector<double>& dsigma, PetabResult& r);

}  // namespace odesens::petab
