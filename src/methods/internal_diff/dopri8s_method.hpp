// The method `dopri8s` as seen by the method registry: S·R by internal
// differences on the explicit RK engine with dop853 (Franz & Kiehl's
// DOPRI8S), for non-stiff problems.
#pragma once

#include <vector>

#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::dopri8s {

std::vector<OptionSpec> option_specs();
Result solve(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::dopri8s
