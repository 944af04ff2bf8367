// A Result as the JSON result document (`odesens run`, odesens_result_write).
#pragma once

#include <ostream>

#include "io/run_description.hpp"
#include "odesens/model.hpp"
#include "odesens/result.hpp"

namespace odesens::io {

// JSON fields: method, model, nx, np, states, parameters, times, x, S_times,
// S (S[k][i][j] = dx_i/dp_j at S_times[k]), for methods with sensitivity
// directions R other than the parameters (dopri8s with directions=states or
// all, or given ones) ns and SR (SR[k][i][j] = (dx(t_k)/d(x0, p) r_j)_i at
// times[k], j from 0 to ns - 1), stats {steps, rhs_evals,
// jac_evals, wall_seconds}, for gradient methods gradient (np values dG/dp
// for one objective; for M > 1 objectives M lists of np, gradient[m][j] =
// dpsi_m/dp_j), from the methods that give them gradient_x0 (likewise nx
// values, or M lists of nx: dpsi_m/dx_i(t0)) and objectives (the M values
// psi_m), and with observables observables {NAME: [value at each time], ...}.
// One line, no
// spaces; numbers read back to the same double: integral values as integers
// ("2", not "2.0"; -0 as -0.0), others in shortest round-trip form, NaN and
// Inf (which JSON cannot express) as null; invalid UTF-8 in names as U+FFFD.
void write_json(std::ostream& out, const Model& model, const Result& result,
                const RunDescription& run);

}  // namespace odesens::io
