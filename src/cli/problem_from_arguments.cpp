#include "cli/problem_from_arguments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

#include "cli/parameter_table.hpp"
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

// The index of `name` among the model's parameters or states (`what`), or
// UsageError from `flag`.
std::size_t index_of(const std::vector<std::string>& names, const std::string& name,
                     const std::string& flag, const Model& model, const char* what) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw UsageError{flag + ": model " + model.name() + " has no " + what + " '" + name + "'"};
  return static_cast<std::size_t>(it - names.begin());
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

// The table of --data: a column t and any of the model's states.
ParameterTable read_data_table(const std::string& path, const Model& model) {
  TableSchema schema;
  schema.flag = "--data";
  schema.column = "state";
  schema.names = model.state_names();
  schema.names.insert(schema.names.begin(), "t");
  schema.owner = "model " + model.name();
  schema.row = "output time";
  schema.max_rows = max_output_times;
  schema.too_many = "rows (output times)";
  schema.empty_is_nan = true;
  return read_table(path, schema);
}

// --data: the least-squares objective's data, NaN where a state has no
// column or an empty cell. Its t column gives the output times, or must
// agree with those of --tout (`times`, non-empty).
void set_objective_data(Problem& problem, const std::string& path) {
  const ParameterTable table = read_data_table(path, *problem.model);
  const std::size_t n_columns = table.columns.size(), nx = problem.model->nx();
  const auto t_column = std::find(table.columns.begin(), table.columns.end(), 0);
  if (t_column == table.columns.end())
    throw UsageError{"--data: " + path + ": no column 't' (the output times)"};
  const auto c_t = static_cast<std::size_t>(t_column - table.columns.begin());
  std::vector<double>& times = problem.output_times;
  if (!times.empty() && times.size() != table.rows)
    throw UsageError{"--data: " + path + " has " + std::to_string(table.rows) +
                     " rows, but --tout gives " + std::to_string(times.size()) +
                     " output times (one row each)"};
  const bool from_file = times.empty();
  problem.objective_data.assign(table.rows * nx, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t k = 0; k < table.rows; ++k) {
    const double* row = table.values.data() + k * n_columns;
    const double t = row[c_t];
    if (std::isnan(t))
      throw UsageError{"--data: " + path + ": row " + std::to_string(k + 1) + " has no t"};
    if (from_file) times.push_back(t);
    if (!(std::fabs(t - times[k]) <= 1e-12 * std::max(1.0, std::fabs(times[k]))))
      throw UsageError{"--data: " + path + ": row " + std::to_string(k + 1) + " has t = " +
                       format_double(t) + ", not the output time " + format_double(times[k])};
    for (std::size_t c = 0; c < n_columns; ++c) {
      if (c == c_t) continue;
      if (std::isinf(row[c]))  // a usage error, as every other bad cell of the file
        throw UsageError{"--data: " + path + ": row " + std::to_string(k + 1) + ", column " +
                         std::to_string(c + 1) + ": " + format_double(row[c]) +
                         " is not a measurement (NaN or an empty cell marks a missing one)"};
      problem.objective_data[table.columns[c] - 1 + k * nx] = row[c];
    }
  }
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
    if (!c.bounds) {
      if (!a.weights.empty())
        throw UsageError{"--data and --weights are two objectives; give one"};
      problem.objective =
          least_squares_objective(model, {}, std::move(problem.objective_data));
      problem.objective_data.clear();
    }
  }
  if (problem.output_times.empty()) {
    std::ostringstream grid;
    grid << format_double(problem.t0) << ':' << format_double(model->default_t_end()) << ":101";
    problem.output_times = parse_time_grid(grid.str());
  }
  if (!a.box.empty()) {
    require_capability(info.capabilities.parameter_box, "--box", info, "bounds_fsa");
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
    if (!only_declared || declares(info, key)) set_option(problem.options, info, key, value);
  return problem;
}


}  // namespace odesens::cli
