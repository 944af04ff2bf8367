// Problems and the error measure shared by the tests of the internal-
// difference methods (dopri8s, grk4as): models from the shared .ode files or
// from text, and the mixed error of Franz & Kiehl's tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "expr/expr_test_support.hpp"
#include "odesens/odesens.hpp"

namespace odesens::testing {

// max |a - b| / (|b| + 1): relative where S is large, absolute where small
// (the measure, and what sens_rtol = sens_atol asks for). Infinite
// when the sizes differ.
inline double mixed_error(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double e = 0.0;
  for (std::size_t q = 0; q < a.size(); ++q)
    e = std::max(e, std::fabs(a[q] - b[q]) / (std::fabs(b[q]) + 1.0));
  return e;
}

// A shared .ode model (../shared/models/ode/FILE) with these output times.
inline Problem ode_problem(const std::string& file, std::vector<double> times) {
  Problem p;
  p.model = load_model(expr_testing::ode_model_path(file));
  p.output_times = std::move(times);
  return p;
}

// A model from .ode text with these output times.
inline Problem text_problem(const std::string& text, std::vector<double> times) {
  Problem p;
  p.model = load_ode_text(text, "test.ode");
  p.output_times = std::move(times);
  return p;
}

}  // namespace odesens::testing
