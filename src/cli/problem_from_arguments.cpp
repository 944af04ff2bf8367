#include "cli/problem_from_arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <variant>

#include "core/quoted_text.hpp"
#include "io/data_table.hpp"
#include "io/format_double.hpp"
#include "odesens/method_choice.hpp"

namespace odesens::cli {

LoadOptions load_options(const std::optional<std::vector<std::string>>& sens_params) {
  LoadOptions options;
  options.sbml_sensitivity_params = sens_params;
  return options;
}

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

namespace {

// The first 20 of `names`, printable, and how many more there are.
std::string some_names(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  std::vector<std::string> printable(names.size());
  std::transform(names.begin(), names.end(), printable.begin(),
                 [](const std::string& name) { return printable_text(name); });
  return first_names(printable, 20);
}

// The index of `name` among the model's parameters or states (`what`), or
// UsageError from `flag` that lists them. Parameters are the sensitivity
// parameters only: the model's other constants are folded in.
std::size_t index_of(const std::vector<std::string>& names, const std::string& name,
                     const std::string& flag, const Model& model, const char* what) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
  const bool parameter = std::string(what) == "parameter";
  throw UsageError{flag + ": model " + model.name() + " has no " +
                   (parameter ? "sensitivity parameter" : what) + " '" + printable_text(name) +
                   "' (its " + what + "s: " + some_names(names) + ")" +
                   (parameter ? "; its other constants are folded in: name them with "
                                "--sens-params to set or bound them"
                              : "")};
}

// A flag of the set-valued or gradient methods given to another method.
void require_capability(bool has, const std::string& flag, const MethodInfo& info,
                        const char* takers) {
  if (!has)
    throw UsageError{flag + ": method " + info.id + " does not take it (" + takers + " do)"};
}

// --box: the named parameters' intervals, the others held at their values.
void set_box(Problem& problem, const std::vector<BoxBound>& box) {
  problem.param_lower = problem.params;
  problem.param_upper = problem.params;
  for (const auto& b : box) {
    const Model& model = *problem.model;
    const std::size_t j = index_of(model.param_names(), b.name, "--box", model, "parameter");
    problem.param_lower[j] = b.lower;
    problem.param_upper[j] = b.upper;
  }
}

// --weights: G = sum_i w_i x_i(t_final), the other states weighted 0.
void set_weights(Problem& problem, const std::vector<std::pair<std::string, double>>& weights) {
  const Model& model = *problem.model;
  const std::size_t nx = model.nx(), last = problem.output_times.size() - 1;
  problem.adjoint_weights.assign(nx * (last + 1), 0.0);
  for (const auto& [name, w] : weights)
    problem.adjoint_weights[index_of(model.state_names(), name, "--weights", model, "state") +
                            last * nx] = w;
}

// --data: the least-squares objective's data, NaN where a state has no
// column or an empty cell. Its t column gives the output times, or must
// agree with those of --tout (already in problem.output_times).
void set_objective_data(Problem& problem, const std::string& path) {
  io::DataTableOptions options;
  options.flag = "--data";
  options.times = problem.output_times;
  options.times_flag = "--tout";
  io::Measurements data = io::read_measurements(path, *problem.model, options);
  problem.output_times = std::move(data.times);
  problem.objective_data = std::move(data.values);
}

}  // namespace

namespace {

// cvodes_fsa and odesd without sensitivities (option sensitivities=0) give
// no gradient and no objective: an objective asked for would be dropped
// without a word.
void refuse_objective_without_sensitivities(const Problem& problem, const RunArguments& a) {
  const auto it = problem.options.values().find("sensitivities");
  if (it == problem.options.values().end()) return;
  const auto* on = std::get_if<std::int64_t>(&it->second);
  if (!on || *on != 0) return;
  if (!a.weights.empty() || problem.objective || !a.data_file.empty())
    throw UsageError{"--weights and --data ask for a gradient, which sensitivities=0 turns off"};
}

}  // namespace

Problem build_problem(const RunArguments& a, const std::shared_ptr<Model>& model,
                      const MethodInfo& info, bool only_declared) {
  Problem problem;
  problem.model = model;
  problem.params = model->nominal_params();
  for (const auto& [name, value] : a.params)
    problem.params[index_of(model->param_names(), name, "--param", *model, "parameter")] =
        parse_number(value, "--param " + name);
  problem.t0 = a.t0.value_or(model->default_t0());
  if (!a.tout.empty()) problem.output_times = parse_time_grid(a.tout);
  if (!a.data_file.empty()) {
    const MethodCapabilities& c = info.capabilities;
    require_capability(c.bounds || c.gradient || c.s_trajectory, "--data", info,
                       "the methods that give S or a gradient");
    set_objective_data(problem, a.data_file);
    // The set-valued methods enclose the least-squares objective of the
    // data themselves; the others differentiate it as Problem::objective.
    // "auto" encloses only over a --box.
    const bool encloses = c.bounds && (info.id != kAutomaticMethod || !a.box.empty());
    if (!encloses) {
      if (!a.weights.empty())
        throw UsageError{"--data and --weights are two objectives; give one"};
      problem.objective =
          least_squares_objective(model, {}, std::move(problem.objective_data));
      problem.objective_data.clear();
    }
  }
  if (problem.output_times.empty()) {
    if (!(model->default_t_end() > problem.t0))
      throw UsageError{"--t0 " + io::format_double(problem.t0) +
                       " is not before the model's end time " +
                       io::format_double(model->default_t_end()) + ": give --tout"};
    std::ostringstream grid;
    grid << io::format_double(problem.t0) << ':' << io::format_double(model->default_t_end())
         << ":101";
    problem.output_times = parse_time_grid(grid.str());
  }
  if (!a.box.empty()) {
    // auto takes a box as the set-valued methods do: it then encloses.
    require_capability(info.capabilities.parameter_box || info.id == kAutomaticMethod, "--box",
                       info, "bounds_fsa, bounds_asa and auto");
    set_box(problem, a.box);
  }
  if (!a.weights.empty()) {
    require_capability(info.capabilities.gradient || info.capabilities.s_trajectory, "--weights",
                       info, "the methods that give S or a gradient");
    set_weights(problem, a.weights);
  }
  if (a.rtol) problem.rtol = *a.rtol;
  if (a.atol) problem.atol = {*a.atol};
  if (a.max_steps) problem.max_steps = *a.max_steps;
  for (const auto& [key, value] : a.options)
    if (!only_declared || declares_option(info, key)) set_option(problem.options, info, key, value);
  refuse_objective_without_sensitivities(problem, a);
  return problem;
}


}  // namespace odesens::cli
