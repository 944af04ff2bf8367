// An experiment's negative log-likelihood as an Objective (objective.hpp),
// for the adjoint methods: phi_k = sum of the nllh terms of the
// measurements at output time k, with dphi_k/dx from the observable and
// noise formulas, so the backward problems are seeded with the exact
// derivatives of the likelihood. It is an objective of Definition::dynamics:
// dphi_k/dp holds the partials of the dynamics' parameters; those of the
// observable table's parameters and the placeholders (whose settings differ
// from row to row) are added per measurement by add_measurements.
#pragma once

#include <memory>

#include "estimate/petab_experiment.hpp"
#include "odesens/objective.hpp"

namespace odesens::petab {

// free: the dynamics' parameters the solver's p holds, in its order (all
// of them, or a subset model's: model/parameter_subset.hpp).
std::shared_ptr<const Objective> experiment_objective(const Definition& def, const Experiment& e,
                                                      const std::vector<double>& theta,
                                                      std::vector<std::size_t> free);

// log(2 pi): the constant term of a normal density's negative logarithm
// (the noise model, the priors and the least-squares form share it).
inline constexpr double kLog2Pi = 1.8378770664093453;

// The nllh of one measurement and its derivatives in h (on the transformed
// scale) and sigma, shared with the forward sums.
struct Term {
  double h = 0.0, sigma = 0.0, residual = 0.0, nllh = 0.0;
  double by_h = 0.0;      // d nllh / d h (untransformed h: the transformation's derivative included)
  double by_sigma = 0.0;  // d nllh / d sigma
};
Term measurement_term(const Observable& ob, double y, double h, double sigma);

// The rows' model parameters, one row at a time: the condition's with the
// row's placeholders set. The condition's values are copied once, not per
// row (Beer_MolBioSystems2014 has 27 000 rows): each call undoes the
// previous row's placeholders and sets this row's.
class RowParams {
 public:
  RowParams(const std::vector<double>& condition_params, const std::vector<double>& theta)
      : condition_(condition_params), theta_(theta), p_(condition_params) {}
  // Both are kept by reference: no temporaries.
  RowParams(std::vector<double>&&, const std::vector<double>&) = delete;
  RowParams(const std::vector<double>&, std::vector<double>&&) = delete;
  // Valid until the next call.
  const double* of(const Measurement& m);

 private:
  const std::vector<double>& condition_;
  const std::vector<double>& theta_;
  std::vector<double> p_;
  const Measurement* last_ = nullptr;
};

}  // namespace odesens::petab
