// The two CVODES baselines as seen by the method registry.
#pragma once

#include <memory>
#include <vector>

#include "methods/common/prepared_method.hpp"
#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::cvodes {

std::vector<OptionSpec> forward_option_specs();
// cvodes_fsa set up on the problem: its CVODES memory is reused by every run.
std::unique_ptr<methods::PreparedMethod> prepare_forward(const Problem& problem,
                                                         const MethodOptions& options);

std::vector<OptionSpec> adjoint_option_specs();
Result solve_adjoint(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::cvodes
