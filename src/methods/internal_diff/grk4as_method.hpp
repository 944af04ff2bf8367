// The method `grk4as` as seen by the method registry: S·R by internal
// differences on the Rosenbrock engine with GRK4A (Franz & Kiehl's GRK4AS),
// for stiff problems: one exact J_x and one LU of I − hγJ (their (15)) per
// step, shared by all 1 + n_s trajectories (§2.5).
#pragma once

#include <vector>

#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::grk4as {

std::vector<OptionSpec> option_specs();
Result solve(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::grk4as
