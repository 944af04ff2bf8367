// The methods `pbsr` and `exp` as seen by the method registry.
#pragma once

#include <vector>

#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::pbs {

std::vector<OptionSpec> pbsr_option_specs();
std::vector<OptionSpec> exp_option_specs();
Result solve_pbsr(const Problem& problem, const MethodOptions& options);
Result solve_exp(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::pbs
