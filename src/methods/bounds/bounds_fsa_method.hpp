// bounds_fsa: enclosures of x(t_k), S(t_k) and dF/dp over a parameter box
// (set-valued sensitivity paper, section 4, Table 1 "State" and "FSA"):
// the state bounding system is CVODES' state, each parameter's sensitivity
// bounding system one of its sensitivity vectors, with an analytic
// right-hand side (fS1), the simultaneous corrector and error control on
// (section 4 (i): difference quotients or staggered Jacobian reuse would
// break the bounds).
#pragma once

#include <vector>

#include "odesens/methods.hpp"
#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::bounds {

std::vector<OptionSpec> bounds_fsa_option_specs();
Result solve_bounds_fsa(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::bounds
