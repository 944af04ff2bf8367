// The method `odesd` as seen by the method registry: Gonnet, Dimopoulos,
// Widmer, Stelling (2012), "A specialized ODE integrator for the efficient
// computation of parameter sensitivities" (papers/odesd-second-derivative-integrator.txt).
#pragma once

#include <vector>

#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::odesd {

std::vector<OptionSpec> option_specs();
Result solve(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::odesd
