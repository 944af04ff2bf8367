// Reference values for method tests: sensitivities by central differences
// of tightly solved trajectories, and comparison helpers.
#pragma once

#include <string>
#include <vector>

#include "odesens/odesens.hpp"

namespace odesens::testing {

// S at every output time of `problem` by central differences in each
// parameter, h_j = rel_step * max(|p_j|, 1e-3); the trajectories are
// integrated alone (no sensitivities) at rtol 1e-12, atol 1e-14, whatever
// the problem's own tolerances. Same layout as Result::s.
std::vector<double> central_difference_sensitivities(const Problem& problem,
                                                     double rel_step = 1e-4);

// max |a - b| / max |b| (max |a - b| when b is zero).
double relative_max_difference(const std::vector<double>& a, const std::vector<double>& b);

// For each parameter j, over all output times and states: the largest
// |S_ref| of column j and the largest |S - S_ref| in it (r and ref with the
// same outputs).
struct ColumnError {
  double scale = 0, error = 0;
};
std::vector<ColumnError> column_errors(const Result& r, const Result& ref);

// The largest |S_ij - S_ref,ij| over the outputs r gives S at (the last
// ones of ref's), each relative to the larger of the largest |S_ref| of its
// column and of its row, and to no less than 1e-6 of the largest |S_ref| of
// all (bench_method_matrix's measure).
double matrix_error(const Result& r, const Result& ref);

// cvodes_fsa on `problem` at rtol 1e-10, atol 1e-12: a reference for S.
Result tight_reference(const Problem& problem);

// A shared SBML model (expr_testing::sbml_model_path) over its own span
// with n equally spaced outputs.
Problem sbml_problem(const std::string& name, std::size_t n_outputs);

// The same problem on a built-in model with the given output times.
Problem builtin_problem(const std::string& spec, std::vector<double> times);

// A .ode model given as text with the output times and tolerances.
Problem ode_text_problem(const std::string& text, std::vector<double> times, double rtol,
                         double atol);

// Whether one of r's warnings contains `text`.
bool warns(const Result& r, const std::string& text);

// n equally spaced times from a to b.
std::vector<double> linspace(double a, double b, std::size_t n);

}  // namespace odesens::testing
