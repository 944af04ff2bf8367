#include "cli/arguments.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace odesens::cli {
namespace {

std::pair<std::string, std::string> split_assignment(const std::string& text,
                                                     const std::string& flag) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError{flag + " expects NAME=VALUE, got '" + text + "'"};
  return {text.substr(0, eq), text.substr(eq + 1)};
}

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

double parse_number(const std::string& text, const std::string& what) {
  if (text.empty()) throw UsageError{what + ": empty number"};
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw UsageError{what + ": '" + text + "' is not a finite number"};
  return v;
}

std::vector<double> parse_time_grid(const std::string& text) {
  const auto colon = split(text, ':');
  if (colon.size() == 3) {
    const double a = parse_number(colon[0], "--tout start");
    const double b = parse_number(colon[1], "--tout end");
    const double n_real = parse_number(colon[2], "--tout count");
    if (n_real < 2 || n_real != std::floor(n_real) || n_real > 1e8)
      throw UsageError{"--tout a:b:n needs an integer n >= 2, got '" + colon[2] + "'"};
    if (!(b > a)) throw UsageError{"--tout a:b:n needs b > a"};
    const auto n = static_cast<std::size_t>(n_real);
    std::vector<double> t(n);
    for (std::size_t k = 0; k < n; ++k)
      t[k] = k + 1 == n ? b : a + (b - a) * static_cast<double>(k) / static_cast<double>(n - 1);
    return t;
  }
  if (colon.size() != 1) throw UsageError{"--tout expects a:b:n or t1,t2,..., got '" + text + "'"};
  std::vector<double> t;
  for (const auto& part : split(text, ',')) t.push_back(parse_number(part, "--tout"));
  return t;
}

std::vector<std::string> parse_sens_params(const std::string& list) {
  if (list.empty()) return {};
  std::vector<std::string> ids = split(list, ',');
  for (const auto& id : ids)
    if (id.empty()) throw UsageError{"--sens-params: empty id in '" + list + "'"};
  return ids;
}

RunArguments parse_run_arguments(const std::vector<std::string>& args, bool compare) {
  RunArguments run;
  std::size_t i = 0;
  auto value_of = [&](const std::string& flag) -> std::string {
    if (i + 1 >= args.size()) throw UsageError{flag + " needs a value"};
    return args[++i];
  };
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--method" && !compare) run.method = value_of(a);
    else if (a == "--methods" && compare) run.methods = split(value_of(a), ',');
    else if (a == "--rtol") run.rtol = parse_number(value_of(a), a);
    else if (a == "--atol") run.atol = parse_number(value_of(a), a);
    else if (a == "--t0") run.t0 = parse_number(value_of(a), a);
    else if (a == "--max-steps") {
      const double v = parse_number(value_of(a), a);
      if (v < 1 || v != std::floor(v) || v > 9e18) throw UsageError{"--max-steps needs a positive integer"};
      run.max_steps = static_cast<long long>(v);
    }
    else if (a == "--tout") run.tout = value_of(a);
    else if (a == "--param") run.params.push_back(split_assignment(value_of(a), a));
    else if (a == "--option") run.options.push_back(split_assignment(value_of(a), a));
    else if (a == "--format") {
      run.format = value_of(a);
      if (run.format != "json" && run.format != "csv")
        throw UsageError{"--format must be json or csv, got '" + run.format + "'"};
    }
    else if (a == "--out") run.out = value_of(a);
    else if (a == "--sens-params") run.sens_params = parse_sens_params(value_of(a));
    else if (a == "--observe" && !compare) {
      const std::string list = value_of(a);
      for (const auto& name : split(list, ',')) {
        if (name.empty()) throw UsageError{"--observe: empty name in '" + list + "'"};
        run.observe.push_back(name);
      }
    }
    else if (!a.empty() && a[0] == '-') throw UsageError{"unknown flag '" + a + "'"};
    else if (run.model.empty()) run.model = a;
    else throw UsageError{"unexpected argument '" + a + "'"};
  }
  if (run.model.empty()) throw UsageError{"run: no model given"};
  if (!compare && run.method.empty())
    throw UsageError{"run: --method ID is required (see 'odesens methods')"};
  if (compare && run.methods.size() < 2)
    throw UsageError{"compare: --methods needs at least two ids, e.g. --methods cvodes_fsa,cvodes_asa"};
  return run;
}

}  // namespace odesens::cli
