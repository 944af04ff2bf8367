// erk_adjoint's gradient and S(T) are the exact derivatives of its discrete
// solution, so they are as far from the true ones as that solution's
// global error lets them be, which the local error control bounds only
// where errors do not grow along the solution. On Giordano_Nature2020 (an
// epidemic grown from a seed below atol) the states at the defaults were
// off by about 1200 times their tolerances and S(T) by 4.4e-3, with no
// word. The check solves the states again with the same tableau at
// tolerances 10 times tighter (keeping the step sequence alone, or the
// states too for models with events) and weighs
// the difference at the output times as the error control does,
// |dx_i| / (rtol |x_i| + atol_i): the global error in units of the
// tolerance, which the other methods' state check
// (methods/common/state_error_ratio.hpp) measures the same way, with the
// same limit (methods::kStateErrorRatioLimit).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/tableau.hpp"
#include "odesens/model.hpp"
#include "odesens/problem.hpp"

namespace odesens::erk_adjoint {

// The ratio for states x (nt x nx, at the problem's output times) from a
// solve with `settings`, x0 and params p; NaN when the tighter solve fails
// (then nothing is known).
double state_error_ratio(const Problem& problem, const double* p, const std::vector<double>& x0,
                         const integrate::erk::Tableau& tableau,
                         const integrate::erk::ErkSettings& settings, const double* x);

// The warning for a ratio above the limit; empty below it.
std::string state_error_warning(double ratio, double rtol);

}  // namespace odesens::erk_adjoint
