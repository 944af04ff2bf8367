#include "cli/arguments.hpp"

#include <CLI/CLI.hpp>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "core/number_text.hpp"
#include "odesens/problem.hpp"

namespace odesens::cli {
namespace {


// Unlike CLI11's delimiter(), keeps empty parts so that they can be reported.
std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    const auto pos = text.find(sep, start);
    parts.push_back(text.substr(start, pos - start));
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  return parts;
}

}  // namespace

// A flag taking one value, handed to `read` at each occurrence in command-line
// order (so a repeated flag overrides or accumulates as `read` decides). An
// empty value (--out "", from an unset shell variable, say) is refused rather
// than taken as "not given".
void add_flag(CLI::App& command, const std::string& flag,
              std::function<void(const std::string&)> read) {
  command
      .add_option_function<std::string>(flag,
                                        [flag, read = std::move(read)](const std::string& v) {
                                          if (v.empty())
                                            throw UsageError{flag + " needs a value, got ''"};
                                          read(v);
                                        })
      ->trigger_on_parse();
}

namespace {

// The NAME=VALUE items of a comma list, each handed to `read` with its
// name and value.
void for_each_assignment(const std::string& list, const std::string& flag,
                         const std::function<void(const std::string&, const std::string&)>& read) {
  for (const auto& item : split(list, ',')) {
    const auto [name, value] = split_assignment(item, flag);
    read(name, value);
  }
}

BoxBound parse_box_bound(const std::string& name, const std::string& range) {
  const auto ends = split(range, ':');
  const std::string what = "--box " + name;
  if (ends.size() != 2)
    throw UsageError{what + " expects LOWER:UPPER, got '" + range + "'"};
  BoxBound b{name, parse_number(ends[0], what + " lower bound"),
             parse_number(ends[1], what + " upper bound")};
  if (b.lower > b.upper)
    throw UsageError{what + ": the lower bound " + ends[0] + " is above the upper bound " +
                     ends[1]};
  return b;
}

}  // namespace

void let_repeated_flags_override(CLI::App& command) {
  for (CLI::Option* option : command.get_options())
    if (option->nonpositional() && option->get_type_size() != 0)
      option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

void add_value_flag(CLI::App& command, const std::string& flag, std::string& target) {
  add_flag(command, flag, [&target](const std::string& v) { target = v; });
}

unsigned parse_threads(const std::string& text, bool zero_is_one_per_core) {
  const double v = parse_number(text, "--threads");
  const double lowest = zero_is_one_per_core ? 0.0 : 1.0;
  if (!(v >= lowest && v <= max_threads) || v != std::floor(v))
    throw UsageError{"--threads needs a whole number from " +
                     std::string(zero_is_one_per_core ? "0 (one per core)" : "1") + " to " +
                     std::to_string(max_threads) + ", got '" + text + "'"};
  return static_cast<unsigned>(v);
}

// strtod rather than CLI11's conversion, which reads a long double and rounds
// it again to double.
double parse_number(const std::string& text, const std::string& what) {
  if (text.empty()) throw UsageError{what + ": empty number"};
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  // strtod also says ERANGE for a subnormal result (1e-320), which is a
  // number like any other (files accept it); overflow and an underflow to
  // 0 are refused.
  const bool underflow = errno == ERANGE && v == 0.0;
  if (*end != '\0' || !decimal_number_text(text) || (!std::isfinite(v) && !underflow))
    throw UsageError{what + ": '" + text + "' is not a finite number"};
  if (underflow)
    throw UsageError{what + ": '" + text + "' is below the smallest double (it would read as 0)"};
  return v;
}

long long parse_max_steps(const std::string& text) {
  const double v = parse_number(text, "--max-steps");
  if (v < 1 || v != std::floor(v) || v > 9e18)
    throw UsageError{"--max-steps needs a positive integer"};
  return static_cast<long long>(v);
}

std::vector<double> parse_time_grid(const std::string& text) {
  const auto colon = split(text, ':');
  if (colon.size() == 3) {
    const double a = parse_number(colon[0], "--tout start");
    const double b = parse_number(colon[1], "--tout end");
    const double n_real = parse_number(colon[2], "--tout count");
    if (n_real < 2 || n_real != std::floor(n_real) ||
        n_real > static_cast<double>(max_output_times))
      throw UsageError{"--tout a:b:n needs an integer n from 2 to " +
                       std::to_string(max_output_times) + " (output times), got '" + colon[2] +
                       "'"};
    if (!(b > a)) throw UsageError{"--tout a:b:n needs b > a"};
    const auto n = static_cast<std::size_t>(n_real);
    // b - a, or (b - a) k, overflows for ends near the largest doubles
    // (-1e308:1e308, 0:1e308:101): the points are then weighted means of
    // the ends, which cannot.
    const bool span_finite = std::isfinite((b - a) * static_cast<double>(n - 1));
    std::vector<double> t(n);
    for (std::size_t k = 0; k < n; ++k) {
      const double s = static_cast<double>(k) / static_cast<double>(n - 1);
      t[k] = k + 1 == n      ? b
             : span_finite ? a + (b - a) * static_cast<double>(k) / static_cast<double>(n - 1)
                           : a * (1.0 - s) + b * s;
    }
    return t;
  }
  if (colon.size() != 1) throw UsageError{"--tout expects a:b:n or t1,t2,..., got '" + text + "'"};
  std::vector<double> t;
  for (const auto& part : split(text, ',')) t.push_back(parse_number(part, "--tout"));
  if (t.size() > max_output_times)
    throw UsageError{"--tout: " + std::to_string(t.size()) + " output times, at most " +
                     std::to_string(max_output_times)};
  return t;
}

std::vector<std::string> parse_sens_params(const std::string& list) {
  if (list.empty()) return {};
  std::vector<std::string> ids = split(list, ',');
  for (const auto& id : ids)
    if (id.empty()) throw UsageError{"--sens-params: empty id in '" + list + "'"};
  return ids;
}

void add_run_flags(CLI::App& command, RunArguments& run, SolveCommand kind) {
  command.add_option("MODEL", run.model);
  command.add_flag("-h,--help", run.help);
  if (kind == SolveCommand::compare)
    add_flag(command, "--methods", [&run](const std::string& v) { run.methods = split(v, ','); });
  else
    add_flag(command, "--method", [&run](const std::string& v) { run.method = v; });
  add_flag(command, "--rtol",
           [&run](const std::string& v) { run.rtol = parse_number(v, "--rtol"); });
  add_flag(command, "--atol",
           [&run](const std::string& v) { run.atol = parse_number(v, "--atol"); });
  add_flag(command, "--t0", [&run](const std::string& v) { run.t0 = parse_number(v, "--t0"); });
  add_flag(command, "--max-steps",
           [&run](const std::string& text) { run.max_steps = parse_max_steps(text); });
  add_flag(command, "--tout", [&run](const std::string& v) { run.tout = v; });
  add_flag(command, "--option", [&run](const std::string& v) {
    run.options.push_back(split_assignment(v, "--option"));
  });
  if (kind != SolveCommand::compare)
    add_flag(command, "--out", [&run](const std::string& v) { run.out = v; });
  // "" is a value here: no sensitivity parameters.
  command
      .add_option_function<std::string>(
          "--sens-params", [&run](const std::string& v) { run.sens_params = parse_sens_params(v); })
      ->trigger_on_parse();
  if (kind == SolveCommand::ensemble) {
    add_flag(command, "--params", [&run](const std::string& v) { run.params_file = v; });
    add_flag(command, "--threads",
             [&run](const std::string& text) { run.threads = parse_threads(text, true); });
    return;
  }
  add_flag(command, "--param",
           [&run](const std::string& v) { run.params.push_back(split_assignment(v, "--param")); });
  if (kind != SolveCommand::compare)
    add_flag(command, "--format", [&run](const std::string& v) {
      if (v != "json" && v != "csv" && v != "h5")
        throw UsageError{"--format must be json, csv or h5, got '" + v + "'"};
      run.format = v;
    });
  if (kind == SolveCommand::compare) {
    add_flag(command, "--plot", [&run](const std::string& v) { run.plot = v; });
    // Accepted and unused, they left a user who asked for a file without one.
    for (const char* flag : {"--out", "--format"})
      add_flag(command, flag, [flag](const std::string&) -> void {
        throw UsageError{std::string("compare takes no ") + flag +
                         ": it prints its table to standard output (redirect it to a file: "
                         "> FILE), or draws it with --plot FILE.png"};
      });
    return;
  }
  add_flag(command, "--observe", [&run](const std::string& list) {
    for (const auto& name : split(list, ',')) {
      if (name.empty()) throw UsageError{"--observe: empty name in '" + list + "'"};
      run.observe.push_back(name);
    }
  });
  add_flag(command, "--integrand", [&run](const std::string& list) {
    for (const auto& name : split(list, ',')) {
      if (name.empty()) throw UsageError{"--integrand: empty name in '" + list + "'"};
      if (run.integrand.size() == max_objectives)
        throw UsageError{"--integrand: more than " + std::to_string(max_objectives) +
                         " names (objectives)"};
      run.integrand.push_back(name);
    }
  });
  add_flag(command, "--box", [&run](const std::string& list) {
    for_each_assignment(list, "--box", [&run](const std::string& name, const std::string& range) {
      run.box.push_back(parse_box_bound(name, range));
    });
  });
  add_flag(command, "--weights", [&run](const std::string& list) {
    for_each_assignment(list, "--weights", [&run](const std::string& name, const std::string& w) {
      run.weights.emplace_back(name, parse_number(w, "--weights " + name));
    });
  });
  add_flag(command, "--data", [&run](const std::string& v) { run.data_file = v; });
}

void check_run_arguments(const RunArguments& run, SolveCommand kind) {
  const char* name = kind == SolveCommand::ensemble  ? "ensemble"
                     : kind == SolveCommand::compare ? "compare"
                                                     : "run";
  if (run.model.empty()) throw UsageError{std::string(name) + ": no model given"};
  if (kind != SolveCommand::compare && run.method.empty())
    throw UsageError{std::string(name) + ": --method ID is required (see 'odesens methods')"};
  if (kind == SolveCommand::compare && run.methods.size() < 2)
    throw UsageError{
        "compare: --methods needs at least two ids, e.g. --methods cvodes_fsa,cvodes_asa"};
  if (kind == SolveCommand::ensemble) {
    if (run.params_file.empty())
      throw UsageError{"ensemble: --params FILE.csv|FILE.tsv is required (one row of "
                       "parameter values per member)"};
    if (run.out.empty())
      throw UsageError{"ensemble: --out FILE.h5 is required (the output is HDF5, written "
                       "to a file)"};
  }
  if (kind == SolveCommand::run && run.format == "h5") {
    if (run.out.empty())
      throw UsageError{"--format h5 needs --out FILE.h5: HDF5 is not written to standard "
                       "output"};
    if (!run.observe.empty() || !run.integrand.empty())
      throw UsageError{std::string("--format h5 does not take ") +
                       (run.observe.empty() ? "--integrand" : "--observe") +
                       " (use --format json or csv)"};
  }
}

std::pair<std::string, std::string> split_assignment(const std::string& text,
                                                     const std::string& flag) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError{flag + " expects NAME=VALUE, got '" + text + "'"};
  return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace odesens::cli
