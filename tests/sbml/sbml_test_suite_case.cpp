#include "sbml/sbml_test_suite_case.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "expr/expr_model_impl.hpp"
#include "sources/sbml/sbml_import.hpp"
#include "odesens/odesens.hpp"

namespace odesens::sbml_testing {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item = trim(item);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The name to observe for a listed variable: species as the settings ask.
std::string observable_for(const ExprModel& model, const CaseSettings& s, const std::string& v) {
  const auto& names = model.observable_names();
  const char* suffix = contains(s.amount, v) ? ":amount"
                       : contains(s.concentration, v) ? ":concentration" : nullptr;
  if (suffix && contains(names, v + suffix)) return v + suffix;
  return v;
}

std::string format(double v) {
  std::ostringstream s;
  s.precision(10);
  s << v;
  return s.str();
}

}  // namespace

CaseSettings read_settings(const std::string& path) {
  CaseSettings s;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (key == "start") s.start = std::strtod(value.c_str(), nullptr);
    else if (key == "duration") s.duration = std::strtod(value.c_str(), nullptr);
    else if (key == "steps") s.steps = std::atoi(value.c_str());
    else if (key == "variables") s.variables = split_list(value);
    else if (key == "absolute") s.absolute = std::strtod(value.c_str(), nullptr);
    else if (key == "relative") s.relative = std::strtod(value.c_str(), nullptr);
    else if (key == "amount") s.amount = split_list(value);
    else if (key == "concentration") s.concentration = split_list(value);
  }
  return s;
}

ExpectedTable read_expected(const std::string& path) {
  ExpectedTable t;
  std::ifstream in(path);
  std::string line;
  if (std::getline(in, line)) {  // names, even those spelled INF or NaN
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) t.columns.push_back(trim(cell));
  }
  while (std::getline(in, line)) {
    if (trim(line).empty()) continue;
    std::vector<double> row;
    std::stringstream ss(line);
    std::string cell;
    // strtod reads inf, INF, -Inf, nan, NaN... regardless of case.
    while (std::getline(ss, cell, ',')) row.push_back(std::strtod(trim(cell).c_str(), nullptr));
    t.rows.push_back(std::move(row));
  }
  return t;
}

bool passes(double got, double expected, double absolute, double relative) {
  if (std::isnan(expected)) return std::isnan(got);
  if (std::isinf(expected)) return got == expected;
  return std::fabs(got - expected) <= absolute + relative * std::fabs(expected);
}

std::vector<std::string> run_case(const std::string& cases_dir, const std::string& id) {
  const std::string dir = cases_dir + "/" + id + "/";
  const CaseSettings settings = read_settings(dir + id + "-settings.txt");
  const ExpectedTable expected = read_expected(dir + id + "-results.csv");
  const std::string file = id + "-sbml.xml";
  std::vector<std::string> failures;
  try {
    std::shared_ptr<ExprModel> model = make_expr_model(expr::import_sbml(slurp(dir + file), file, {}));
    Problem problem;
    problem.model = model;
    problem.t0 = 0.0;
    for (int k = 0; k <= settings.steps; ++k)
      problem.output_times.push_back(settings.start + settings.duration * k / settings.steps);
    problem.rtol = 1e-10;
    problem.atol = {1e-14};
    problem.max_steps = 1000000;
    const Result result = solve(problem, "cvodes_fsa");
    std::vector<std::string> names;
    for (const auto& v : settings.variables) names.push_back(observable_for(*model, settings, v));
    const auto values = evaluate_observables(problem, result, names);
    for (std::size_t n = 0; n < names.size(); ++n) {
      // From column 1: a variable may be called Time, like the time column.
      const auto col = std::find(expected.columns.begin() + 1, expected.columns.end(),
                                 settings.variables[n]) - expected.columns.begin();
      if (col == static_cast<long>(expected.columns.size())) {
        failures.push_back("case " + id + ": no column '" + settings.variables[n] + "' in the results");
        continue;
      }
      for (std::size_t k = 0; k < expected.rows.size() && k < values[n].size(); ++k) {
        const double want = expected.rows[k][static_cast<std::size_t>(col)], got = values[n][k];
        if (passes(got, want, settings.absolute, settings.relative)) continue;
        failures.push_back("case " + id + ": " + names[n] + " at t = " + format(expected.rows[k][0]) +
                           ": expected " + format(want) + ", got " + format(got));
        break;  // the first failing time of each variable is enough
      }
    }
    if (expected.rows.size() != result.times.size())
      failures.push_back("case " + id + ": " + std::to_string(expected.rows.size()) +
                         " expected rows, " + std::to_string(result.times.size()) + " times");
  } catch (const std::exception& e) {
    failures.push_back("case " + id + ": " + e.what());
  }
  return failures;
}

}  // namespace odesens::sbml_testing
