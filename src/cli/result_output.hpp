// Writing a Result as the tool's JSON or CSV document.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "odesens/model.hpp"
#include "odesens/result.hpp"

namespace odesens::cli {

struct RunDescription {
  std::string model_spec;  // as given on the command line
  bool gradient_method = false;
  // --observe: the names as given and their values at the output times
  // (values[n][k]); no names, no observables in the output.
  std::vector<std::string> observable_names;
  std::vector<std::vector<double>> observable_values;
  // Objectives differentiated (Problem::n_objectives; --integrand).
  std::size_t n_objectives = 1;
};

// JSON fields: method, model, nx, np, states, parameters, times, x, S_times,
// S (S[k][i][j] = dx_i/dp_j at S_times[k]), for methods with sensitivity
// directions R other than the parameters (dopri8s with directions=states or
// all, or given ones) ns and SR (SR[k][i][j] = (dx(t_k)/d(x0, p) r_j)_i at
// times[k], j from 0 to ns - 1), stats {steps, rhs_evals,
// jac_evals, wall_seconds}, for gradient methods gradient (np values dG/dp
// for one objective; for M > 1 objectives M lists of np, gradient[m][j] =
// dpsi_m/dp_j), from the methods that give them gradient_x0 (likewise nx
// values, or M lists of nx: dpsi_m/dx_i(t0)) and objectives (the M values
// psi_m), and with --observe observables {NAME: [value at each time], ...}.
// One line, no
// spaces; numbers read back to the same double: integral values as integers
// ("2", not "2.0"; -0 as -0.0), others in shortest round-trip form, NaN and
// Inf (which JSON cannot express) as null; invalid UTF-8 in names as U+FFFD.
void write_json(std::ostream& out, const Model& model, const Result& result,
                const RunDescription& run);

// CSV: a header `t,<states>,d<state>/d<param>...,d<state>/dr<j>...,<observables>`
// and one row per output time (sensitivity cells empty where S is not given
// at that time; the S·R columns d<state>/dr1.. only with Result::ns > 0,
// direction slowest); for gradient methods a blank line and a `parameter,gradient` table
// follow (`parameter,gradient_1,...,gradient_M` for M > 1 objectives), and
// from the methods that give objective values another blank line and an
// `objective,value` table (objectives numbered from 1).
void write_csv(std::ostream& out, const Model& model, const Result& result,
               const RunDescription& run);

// Shortest decimal form of d that reads back to the same double (%g style:
// "0.1", "2", "1e-07"), for the CSV and text outputs.
std::string format_double(double d);

}  // namespace odesens::cli
