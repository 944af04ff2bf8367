// The tool's command line: the flags of `run` and `compare` declared on a
// CLI11 subcommand, and the value syntaxes the flags share.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace odesens::cli {

// --box NAME=LOWER:UPPER: one parameter's interval.
struct BoxBound {
  std::string name;
  double lower = 0.0, upper = 0.0;
};

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
  // Set-valued methods (run): --box NAME=LO:HI,... (the other parameters
  // held at their values), --weights STATE=W,... (objective sum_i w_i
  // x_i(t_final)), --data FILE.csv|FILE.tsv (least-squares objective).
  std::vector<BoxBound> box;
  std::vector<std::pair<std::string, double>> weights;
  std::string data_file;
  // ensemble: --params FILE.csv|FILE.tsv and --threads N.
  std::string params_file;
  unsigned threads = 1;
  // compare: --plot FILE, the work–precision diagram drawn by the Python
  // module (python_compare.hpp).
  std::string plot;
  // --help, -h: the command's flags (and the method's options) instead of a run.
  bool help = false;
};

// The commands that solve: run, compare, ensemble.
enum class SolveCommand { run, compare, ensemble };

// The most worker threads of `ensemble --threads`.
inline constexpr unsigned max_threads = 1024;

// --threads: a whole number up to max_threads, from 0 (one per core) where
// the command takes 0, else from 1; UsageError otherwise.
unsigned parse_threads(const std::string& text, bool zero_is_one_per_core);

// Declares MODEL and the flags of `command` on it (and --help), parsed into `run`. Each
// occurrence of a flag is checked as it is read (UsageError on a malformed
// value); a repeated flag overrides, except --param, --option, --observe,
// --integrand, --box and --weights, which accumulate. `compare` takes --methods a,b instead of
// --method and has no --observe or --integrand (--format and --out are
// refused: it prints a table); `ensemble` takes --params and --threads instead of --param, and has no
// --observe, --integrand or --format (its output is HDF5).
void add_run_flags(CLI::App& command, RunArguments& run, SolveCommand kind);

// What the parser cannot say about a whole command line: throws UsageError
// when MODEL or the method(s) are missing, when ensemble lacks --params or
// --out, or when --format h5 lacks --out or comes with --observe or
// --integrand.
void check_run_arguments(const RunArguments& run, SolveCommand kind);

// Output times from "a:b:n" (n equally spaced points, n >= 2) or a comma list.
std::vector<double> parse_time_grid(const std::string& text);

// The ids of --sens-params ID,...; "" is the empty list (no sensitivity
// parameters).
std::vector<std::string> parse_sens_params(const std::string& list);

// KEY=VALUE (KEY not empty), or throws UsageError naming `flag`.
std::pair<std::string, std::string> split_assignment(const std::string& text,
                                                     const std::string& flag);

// A flag taking one value, handed to `read` at each occurrence in
// command-line order (a repeated flag accumulates or overrides as `read`
// decides); an empty value is refused.
void add_flag(CLI::App& command, const std::string& flag,
              std::function<void(const std::string&)> read);

// A flag taking one value into `target` (a path or a list): a repeated
// flag overrides, an empty value (--out "", from an unset shell variable)
// is refused rather than taken as "not given".
void add_value_flag(CLI::App& command, const std::string& flag, std::string& target);

// After a command's flags are declared: a repeated flag that takes a value
// overrides the earlier one (as in `run`), instead of failing the parse.
void let_repeated_flags_override(CLI::App& command);

// A whole-string finite number, or throws UsageError naming `what`.
double parse_number(const std::string& text, const std::string& what);
// The value of --max-steps: a positive integer, or throws UsageError.
long long parse_max_steps(const std::string& text);

struct UsageError {
  std::string message;
};

}  // namespace odesens::cli
