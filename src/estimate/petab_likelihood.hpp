// The terms of a PEtab problem's objective: each measurement's negative
// log-likelihood with its gradient and Fisher information in the scaled
// estimated parameters (petab.hpp gives the formulas), and the priors'.
#pragma once

#include <vector>

#include "estimate/petab_experiment.hpp"

namespace odesens::petab {

// What the sums need of the parameters: each parameter-table row's index
// among the estimated ones (-1: fixed) and dp/dx of the estimated ones.
struct Chain {
  std::vector<int> estimated_index;  // per parameter-table row
  std::vector<double> dp_dx;         // per estimated parameter
};
Chain make_chain(const Definition& def, const std::vector<double>& x);

struct LeastSquaresLayout;

// The states at measurement m's time in its experiment's solution, and in
// *S the sensitivities there (null where not solved).
const double* measurement_states(const Definition& def, const ExperimentSolution& sol,
                                 const Measurement& m, const double** S);

// Adds the experiment's measurements to r (nllh, chi2, simulations,
// sigmas, residuals; gradient and fim when they are sized; with a layout,
// their rows of the least-squares form, and of its Jacobian when sized).
void add_measurements(const Definition& def, const Experiment& e, const ExperimentSolution& sol,
                      const std::vector<double>& theta, const Chain& chain,
                      const LeastSquaresLayout* layout, PetabResult& r);

// Adds the priors of the estimated parameters (objectivePriorType) to
// log_prior, and their negative log-density's gradient and Hessian to the
// gradient and fim when they are sized; with a layout, their residuals of
// the least-squares form (and Jacobian rows when sized).
void add_priors(const Definition& def, const std::vector<double>& x,
                const LeastSquaresLayout* layout, PetabResult& r);

}  // namespace odesens::petab
