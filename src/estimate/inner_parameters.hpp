// Hierarchical evaluation of a PEtab problem (PetabOptions::hierarchical,
// docs/petab.md "Hierarchical evaluation"): the estimated parameters that
// enter only observable and noise formulas, in a way whose optimum with the
// others held has a closed form, are set to that optimum after the
// simulations and before the likelihood is summed (the inner problem of
// Loos et al. 2018, Bioinformatics 34:4266, and Schmiester et al. 2020,
// Bioinformatics 36:3185). The simulations do not depend on them, so the
// optimum costs a sum over the measurements; with it the outer problem has
// fewer parameters, and the gradient in the others is that of the profile
// of nllh over the inner ones (their own entries are zero at an optimum
// inside the bounds).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "estimate/petab_experiment.hpp"

namespace odesens::petab {

struct InnerParameter {
  // affine: every observable it enters is a + b s in it (scaling, offset),
  // on the linear scale with normal noise, and no noise formula of those
  // rows depends on it; the optimum is a weighted least-squares one.
  // scaling: every observable it enters is b s in it, on a log or log10
  // scale with normal noise (log(b s) = log b + log s: an offset there),
  // and no noise formula of those rows depends on it.
  // sigma: every noise formula it enters is the parameter itself, and no
  // observable of those rows depends on it; the optimum is the root mean
  // square (normal noise) or mean absolute (Laplace noise) of the
  // differences on the transformed scale.
  enum class Kind { affine, scaling, sigma };
  Kind kind = Kind::affine;
  std::size_t estimated = 0;  // index among Definition::estimated
  // The measurements it enters, and in each the model parameters set to it.
  std::vector<std::size_t> measurements;
  std::vector<std::vector<int>> params;
};

// Decided once per problem from the formulas' form (expr/affine.hpp), so
// that every evaluation has the same inner parameters: the affine and
// scaling ones first, then the sigma ones. A parameter with a prior, one
// that any condition sets in the dynamics, or an affine or scaling one
// whose rows also depend on another such inner parameter or whose noise
// comes from more than one sigma inner parameter stays outer.
std::vector<InnerParameter> find_inner_parameters(const Definition& def);

// Sets each inner parameter whose `hold` entry (per estimated parameter;
// empty: none held) is false to its optimum within its bounds given the
// values of the others: in theta (linear values), x (scaled) and the
// simulation conditions' values the solutions hold. solutions: every
// experiment's, at theta. A parameter whose optimum is not defined (its
// rows do not depend on it at this point, or the sums are not finite)
// keeps its value.
void optimize_inner(const Definition& def, const std::vector<InnerParameter>& inner,
                    const std::vector<bool>& hold, std::vector<ExperimentSolution>& solutions,
                    std::vector<double>& theta, std::vector<double>& x);

}  // namespace odesens::petab
