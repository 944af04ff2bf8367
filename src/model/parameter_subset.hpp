// A model whose parameters are some of another model's, the others held at
// given values: methods then carry S, J_p and the adjoint's dG/dp for the
// chosen parameters only. A PEtab experiment needs S for the parameters
// that estimated ones set, not for the fixed rows of the parameter table
// nor the condition table's numbers (Laske_PLOSComputBiol2019: 13 of 39).
//
// Every evaluation copies the free values into the held ones and evaluates
// the full model; outputs in the parameters (dx0/dp, J_p, J_p^T W, the
// events' dg/dp, dd/dp, dh/dp, the observables' gradients) are the full
// model's columns or rows of the free parameters. The subset model offers
// the full model's events, observables and second derivatives (odeSD's
// da/dp restricted as J_p is); not batched f or retained values (their
// users fall back to plain evaluations).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "odesens/model.hpp"

namespace odesens {

// free: indices of the full model's parameters that stay parameters, in
// the order of the subset model's (distinct, each < full->np()). values:
// all np of the full model's parameter values, of which those outside
// `free` are held (the entries at `free` are not read). The subset model's
// nominal values are the full model's at `free`. Throws
// Error(invalid_argument) otherwise.
std::shared_ptr<const Model> parameter_subset(std::shared_ptr<const Model> full,
                                              std::vector<std::size_t> free,
                                              std::vector<double> values);

}  // namespace odesens
