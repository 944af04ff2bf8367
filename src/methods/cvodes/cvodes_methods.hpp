// The two CVODES baselines as seen by the method registry.
#pragma once

#include <vector>

#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::cvodes {

std::vector<OptionSpec> forward_option_specs();
Result solve_forward(const Problem& problem, const MethodOptions& options);

std::vector<OptionSpec> adjoint_option_specs();
Result solve_adjoint(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::cvodes
