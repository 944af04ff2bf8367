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

// The same problem on a built-in model with the given output times.
Problem builtin_problem(const std::string& spec, std::vector<double> times);

// A .ode model given as text with the output times and tolerances.
Problem ode_text_problem(const std::string& text, std::vector<double> times, double rtol,
                         double atol);

// n equally spaced times from a to b.
std::vector<double> linspace(double a, double b, std::size_t n);

}  // namespace odesens::testing
