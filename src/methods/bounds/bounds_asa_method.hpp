// bounds_asa: enclosures of x(t_k) and of the objective's gradient dF/dp
// over a parameter box by adjoint bounding (set-valued sensitivity paper,
// section 4 (ii), Table 1 "State" and "ASA"): the state bounding system
// runs forward under CVODES' checkpointing (CVodeF, Hermite interpolation);
// the adjoint bounding system (13), its terminal value (14) and its jumps
// (15) at the output times, and the gradient's integral of (12) as
// backward quadratures, run backward (CVodeB) on the interpolated state
// bounds; dF/dp = integral + dx0/dp^T lambda(t0) is enclosed as (55). One
// forward and one backward bounding pass, whatever the number of
// parameters; no S.
#pragma once

#include <vector>

#include "odesens/methods.hpp"
#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::bounds {

std::vector<OptionSpec> bounds_asa_option_specs();
Result solve_bounds_asa(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::bounds
