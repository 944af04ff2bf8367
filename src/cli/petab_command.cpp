// The petab command (petab_command.hpp).
#include "cli/petab_command.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/arguments.hpp"
#include "cli/command_help.hpp"
#include "cli/petab_outputs.hpp"
#include "cli/problem_from_arguments.hpp"
#include "io/format_double.hpp"
#include "io/json_values.hpp"
#include "io/output_file.hpp"
#include "odesens/methods.hpp"
#include "odesens/options.hpp"
#include "odesens/petab.hpp"

namespace odesens::cli {
namespace {

io::Json stats_json(const PetabResult& r) {
  io::Json s = io::Json::object();
  s["experiments"] = r.n_experiments;
  s["steps"] = r.stats.steps;
  s["rhs_evals"] = r.stats.rhs_evals;
  s["jac_evals"] = r.stats.jac_evals;
  s["linear_setups"] = r.stats.linear_setups;
  s["wall_seconds"] = io::number(r.stats.wall_seconds);
  return s;
}

io::Json result_json(const PetabProblem& problem, const PetabResult& r, const PetabArguments& a) {
  io::Json j = io::Json::object();
  j["problem"] = io::text(problem.file());
  j["method"] = io::text(r.method);
  j["llh"] = io::number(r.llh);
  j["nllh"] = io::number(r.nllh);
  j["chi2"] = io::number(r.chi2);
  if (r.has_priors) {
    j["log_prior"] = io::number(r.log_prior);
    j["nlpost"] = io::number(r.nlpost);
  }
  j["parameter_ids"] = io::texts(r.parameter_ids);
  j["parameter_scales"] = io::texts(problem.parameter_scales());
  if (a.hierarchical) j["point"] = io::numbers(r.point);
  if (!r.gradient.empty()) j["gradient"] = io::numbers(r.gradient);
  if (!r.fim.empty()) {
    const std::size_t n = r.parameter_ids.size();
    j["fim"] = io::nested(r.fim, {{n, n}, {n, 1}});
  }
  j["simulations"] = io::numbers(r.simulations);
  j["stats"] = stats_json(r);
  j["warnings"] = io::texts(r.warnings);
  return j;
}

// A hierarchical evaluation's inner parameters: the values it chose.
void write_inner(std::ostream& out, const PetabProblem& problem, const PetabResult& r) {
  if (problem.inner_parameters().empty()) {
    out << "inner parameters: none (docs/petab.md, \"Hierarchical evaluation\")\n";
    return;
  }
  out << "inner parameters at their optimum (scaled):\n";
  for (std::size_t i : problem.inner_parameters())
    out << "  " << r.parameter_ids[i] << "\t" << io::format_double(r.point[i]) << "\n";
}

void write_text(std::ostream& out, const PetabProblem& problem, const PetabResult& r,
                const PetabArguments& a) {
  out << "llh    " << io::format_double(r.llh) << "\n";
  out << "chi2   " << io::format_double(r.chi2) << "\n";
  if (r.has_priors) out << "nlpost " << io::format_double(r.nlpost) << "\n";
  if (a.hierarchical) write_inner(out, problem, r);
  const std::size_t n = r.parameter_ids.size();
  if (!r.gradient.empty()) {
    out << "gradient of " << (r.has_priors ? "nlpost" : "nllh") << " (scaled parameters):\n";
    for (std::size_t i = 0; i < n; ++i)
      out << "  " << r.parameter_ids[i] << "\t" << io::format_double(r.gradient[i]) << "\n";
  }
  if (!r.fim.empty()) {
    out << "fim (" << n << " x " << n << ", rows in the gradient's order):\n";
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t k = 0; k < n; ++k) out << (k ? "\t" : "  ") << io::format_double(r.fim[i * n + k]);
      out << "\n";
    }
  }
  out << "experiments " << r.n_experiments << ", steps " << r.stats.steps << ", "
      << io::format_double(r.stats.wall_seconds) << " s\n";
}

}  // namespace

void add_simulation_flags(CLI::App& command, SimulationArguments& a) {
  command.add_option("--method", a.method);
  command.add_option_function<std::string>(
      "--rtol", [&a](const std::string& v) { a.rtol = parse_number(v, "--rtol"); });
  command.add_option_function<std::string>(
      "--atol", [&a](const std::string& v) { a.atol = parse_number(v, "--atol"); });
  command.add_option_function<std::string>(
      "--max-steps", [&a](const std::string& v) { a.max_steps = parse_max_steps(v); });
  // Each --option as it is parsed: let_repeated_flags_override keeps only
  // the last value of an option with a policy (a second --option used to
  // replace the first without a word).
  add_flag(command, "--option",
           [&a](const std::string& v) { a.options.push_back(split_assignment(v, "--option")); });
}

void set_simulation_options(const SimulationArguments& a, PetabOptions& options) {
  options.method = a.method;
  options.rtol = a.rtol;
  if (a.atol) options.atol = {*a.atol};
  if (a.max_steps) options.max_steps = *a.max_steps;
  // Options given with "auto" are cvodes_fsa's, and keep it (docs/petab.md).
  const MethodInfo& info = method_info(a.method == "auto" ? "cvodes_fsa" : a.method);
  for (const auto& [key, value] : a.options) set_option(options.options, info, key, value);
  // Checked before the problem is read, and named as the command line's
  // (each experiment's solve would name its condition).
  static_cast<void>(MethodOptions(info.id, info.options, options.options));
}

void add_petab_flags(CLI::App& command, PetabArguments& a) {
  command.add_option("PROBLEM", a.problem);
  command.add_flag("-h,--help", a.help);
  add_value_flag(command, "--at", a.at);
  add_simulation_flags(command, a.simulation);
  command.add_flag("--gradient", a.gradient);
  command.add_flag("--fim", a.fim);
  command.add_flag("--hierarchical", a.hierarchical);
  command.add_flag("--no-state-check", a.no_state_check);
  command.add_option_function<std::string>(
      "--threads", [&a](const std::string& v) { a.threads = parse_threads(v, true); });
  add_value_flag(command, "--simulations", a.simulations);
  command.add_option("--format", a.format)->check(CLI::IsMember({"text", "json", "h5"}));
  add_value_flag(command, "--out", a.out);
  let_repeated_flags_override(command);
}

namespace {

class ThreadedPetab final : public PetabRunner {
 public:
  std::optional<PetabResult> evaluate(const PetabProblem& problem, const std::vector<double>& x,
                                      const PetabOptions& options) override {
    return problem.evaluate(x, options);
  }
};

}  // namespace

int run_petab(const PetabArguments& a) {
  ThreadedPetab threads;
  return run_petab(a, threads);
}

int run_petab(const PetabArguments& a, PetabRunner& runner) {
  if (a.help) {
    write_petab_help(std::cout);
    return 0;
  }
  if (a.problem.empty())
    throw UsageError{"petab: no problem given (odesens petab PROBLEM.yaml [flags]; "
                     "odesens petab --help lists them)"};
  if (a.format == "h5" && a.out.empty())
    throw UsageError{"petab: --format h5 needs --out FILE.h5 (HDF5 is not written to standard "
                     "output)"};
  PetabOptions options;
  set_simulation_options(a.simulation, options);
  auto problem = PetabProblem::load(a.problem);
  if (runner.writes_output()) {
    const OutputFlag out{"--out", a.out};
    PetabOutputs outputs{{{"--simulations", a.simulations}}, {}, {}, {a.at}, {}};
    (a.format == "h5" ? outputs.hdf5 : outputs.files).push_back(out);
    check_petab_outputs(*problem, outputs);
  }
  options.gradient = a.gradient;
  options.fim = a.fim;
  options.hierarchical = a.hierarchical;
  options.state_check = !a.no_state_check;
  options.threads = a.threads;
  const std::vector<double> x =
      a.at.empty() ? problem->nominal_scaled() : read_petab_parameter_values(*problem, a.at);
  const std::optional<PetabResult> evaluation = runner.evaluate(*problem, x, options);
  if (!evaluation) return 0;
  const PetabResult& r = *evaluation;
  for (const std::string& w : r.warnings) std::cerr << "odesens: warning: " << w << '\n';
  if (!a.simulations.empty()) problem->write_simulations(r, a.simulations);
  if (a.format == "h5") {
    problem->write_h5(r, r.point, a.out);
    return 0;
  }
  std::ostringstream text;
  if (a.format == "json") text << result_json(*problem, r, a).dump(1) << '\n';
  else write_text(text, *problem, r, a);
  if (a.out.empty()) {
    std::cout << text.str();
  } else {
    io::OutputFile file(a.out, io::OutputFileOptions{true});
    file.stream() << text.str();
    file.commit();
  }
  return 0;
}

}  // namespace odesens::cli
