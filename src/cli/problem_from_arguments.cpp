#include "cli/problem_from_arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

#include "cli/result_output.hpp"

namespace odesens::cli {

LoadOptions load_options(const std::optional<std::vector<std::string>>& sens_params) {
  LoadOptions options;
  options.sbml_sensitivity_params = sens_params;
  return options;
}

namespace {

// Option value typed by the method's declaration of KEY.
void set_option(Options& options, const MethodInfo& info, const std::string& key,
                const std::string& text) {
  for (const auto& spec : info.options) {
    if (spec.key != key) continue;
    if (spec.type == OptionType::text) {
      options.set(key, text);
    } else {
      const double v = parse_number(text, "--option " + key);
      if (spec.type == OptionType::integer) {
        if (v != std::floor(v) || std::fabs(v) > 9e15)
          throw UsageError{"--option " + key + " needs an integer, got '" + text + "'"};
        options.set(key, static_cast<std::int64_t>(v));
      } else {
        options.set(key, v);
      }
    }
    return;
  }
  options.set(key, text);  // unknown key: let the method's validation name it
}

}  // namespace

bool declares(const MethodInfo& info, const std::string& key) {
  for (const auto& spec : info.options)
    if (spec.key == key) return true;
  return false;
}

Problem build_problem(const RunArguments& a, const std::shared_ptr<Model>& model,
                      const MethodInfo& info, bool only_declared) {
  Problem problem;
  problem.model = model;
  problem.params = model->nominal_params();
  for (const auto& [name, value] : a.params) {
    const auto& names = model->param_names();
    auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
      throw UsageError{"--param: model " + model->name() + " has no parameter '" + name + "'"};
    problem.params[static_cast<std::size_t>(it - names.begin())] =
        parse_number(value, "--param " + name);
  }
  problem.t0 = a.t0.value_or(model->default_t0());
  if (!a.tout.empty()) {
    problem.output_times = parse_time_grid(a.tout);
  } else {
    std::ostringstream grid;
    grid << format_double(problem.t0) << ':' << format_double(model->default_t_end()) << ":101";
    problem.output_times = parse_time_grid(grid.str());
  }
  if (a.rtol) problem.rtol = *a.rtol;
  if (a.atol) problem.atol = {*a.atol};
  if (a.max_steps) problem.max_steps = *a.max_steps;
  for (const auto& [key, value] : a.options)
    if (!only_declared || declares(info, key)) set_option(problem.options, info, key, value);
  return problem;
}


}  // namespace odesens::cli
