// One case of the SBML Test Suite (../shared/sbml-test-suite/README.md):
// its settings, its expected time course, and a run that applies the
// suite's pass rule and says what failed.
#pragma once

#include <string>
#include <vector>

namespace odesens::sbml_testing {

struct CaseSettings {
  double start = 0.0, duration = 0.0;
  int steps = 0;
  std::vector<std::string> variables, amount, concentration;
  double absolute = 0.0, relative = 0.0;
};

// Columns by name; rows[k][c] is column c at row k (column 0 is time).
struct ExpectedTable {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

CaseSettings read_settings(const std::string& path);
ExpectedTable read_expected(const std::string& path);

// |got - expected| <= absolute + relative |expected|, where an expected
// INF, -INF or NaN must be matched exactly.
bool passes(double got, double expected, double absolute, double relative);

// Runs case `id` (five digits) from `cases_dir`: imports the SBML, solves
// with cvodes_fsa at tight tolerances, observes the listed variables and
// compares. Returns one message per failure (empty: the case passes).
std::vector<std::string> run_case(const std::string& cases_dir, const std::string& id);

}  // namespace odesens::sbml_testing
