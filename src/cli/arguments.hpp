// The tool's command line: the flags of `run` and `compare` declared on a
// CLI11 subcommand, and the value syntaxes the flags share.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

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
  // --integrand NAME,...: one objective per name, psi_m = integral of NAME.
  std::vector<std::string> integrand;
};

// Declares MODEL and the run flags on `command`, parsed into `run`. Each
// occurrence of a flag is checked as it is read (UsageError on a malformed
// value); a repeated flag overrides, except --param, --option, --observe and
// --integrand, which accumulate. `compare` takes --methods a,b instead of
// --method and has no --observe or --integrand.
void add_run_flags(CLI::App& command, RunArguments& run, bool compare);

// What the parser cannot say about a whole command line: throws UsageError
// when MODEL or the method(s) are missing.
void check_run_arguments(const RunArguments& run, bool compare);

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
