// Parsing of the tool's command line into a run request.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace odesens::cli {

struct RunArguments {
  std::string model;
  std::string method;
  std::vector<std::string> methods;  // compare: --methods a,b,...
  std::optional<double> rtol, atol, t0;
  std::optional<long long> max_steps;
  std::string tout;  // "a:b:n" or "t1,t2,..."; empty: model's span, 101 points
  std::vector<std::pair<std::string, std::string>> params;   // NAME=VALUE
  std::vector<std::pair<std::string, std::string>> options;  // KEY=VALUE
  std::string format = "json";
  std::string out;  // empty: standard output
  // --sens-params a,b,c (SBML models): unset means the model's default set.
  std::optional<std::vector<std::string>> sens_params;
  std::vector<std::string> observe;  // --observe NAME[:amount|:concentration],...
};

// Throws UsageError on anything malformed. `compare` takes --methods a,b
// instead of --method.
RunArguments parse_run_arguments(const std::vector<std::string>& args, bool compare = false);

// Output times from "a:b:n" (n equally spaced points, n >= 2) or a comma list.
std::vector<double> parse_time_grid(const std::string& text);

// The ids of --sens-params ID,...; "" is the empty list (no sensitivity
// parameters).
std::vector<std::string> parse_sens_params(const std::string& list);

// A whole-string finite number, or throws UsageError naming `what`.
double parse_number(const std::string& text, const std::string& what);

struct UsageError {
  std::string message;
};

}  // namespace odesens::cli
