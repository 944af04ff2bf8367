// Observables: named quantities of a model evaluated along a solution.
//
// A method computes states (and their sensitivities); what a modeller
// measures is often something else: a species' concentration when the
// state is its amount, a rule variable, an .ode `let`. Observables are
// functions of (t, x, p), so they are computed after the solve from the
// states a Result holds, at its output times; no method needs to know.
//
// Names: any state; for ExprModels also every name in
// ExprModel::observable_names(): .ode lets and outputs; every SBML id with a
// value (species, parameters, compartments, rule variables, species
// references with an id, reactions as their rates). A species is reported
// as the model declares it (a concentration unless it has only substance
// units); ID:amount and ID:concentration choose.
#pragma once

#include <string>
#include <vector>

#include "odesens/model.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens {

// Throws Error(invalid_argument) naming the first name the model does not
// have (and saying why when only the :amount / :concentration suffix is
// wrong).
void check_observables(const Model& model, const std::vector<std::string>& names);

// values[n][k] = observable names[n] at result.times[k], with the
// parameters of `problem` (effective_params). Checks the names first.
std::vector<std::vector<double>> evaluate_observables(const Problem& problem,
                                                      const Result& result,
                                                      const std::vector<std::string>& names);

}  // namespace odesens
