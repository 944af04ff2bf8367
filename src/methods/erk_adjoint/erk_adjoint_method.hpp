// The method `erk_adjoint` as seen by the method registry: the discrete
// adjoint of an adaptive explicit Runge-Kutta solve (Martins & Lakshtanov
// 2024, Algorithm 1), the exact gradient of the discrete solution for its
// accepted step sequence.
#pragma once

#include <vector>

#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::erk_adjoint {

std::vector<OptionSpec> option_specs();
Result solve(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::erk_adjoint
