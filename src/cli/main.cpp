// odesens: the command-line tool.
//
//   odesens methods [--markdown ID]
//   odesens options METHOD
//   odesens info MODEL [--sens-params ID,...]
//   odesens run MODEL --method ID [--rtol R] [--atol A] [--t0 T]
//                [--tout a:b:n | --tout t1,t2,...] [--param NAME=VALUE ...]
//                [--option KEY=VALUE ...] [--max-steps N]
//                [--sens-params ID,...] [--observe NAME[:amount|:concentration],...]
//                [--integrand NAME,...] [--format json|csv|h5] [--out FILE]
//                [--box NAME=LO:HI,...] [--weights STATE=W,...] [--data FILE.csv]
//   odesens compare MODEL --methods ID1,ID2[,...] [the run flags]
//   odesens compare MODEL --methods ID1,ID2[,...] --plot FILE [--tout ...] [--sens-params ...]
//   odesens ensemble MODEL --method ID --params FILE.csv|FILE.tsv --out FILE.h5
//                [--threads N] [--rtol R] [--atol A] [--t0 T] [--tout ...]
//                [--option KEY=VALUE ...] [--max-steps N] [--sens-params ID,...]
//   odesens run|compare|ensemble [--method ID | --methods ID1,ID2] --help
//
// Exit status: 0 on success, 2 when the command line or what it names is
// wrong (a flag, a value out of range, an unknown method, option or model,
// malformed model text or parameter file), 1 when valid input fails (the
// solve, a callback, an unsupported model feature, memory, writing the
// output); any error is one line on standard error. ensemble: 3 when some
// members failed (the file has their statuses), 128 + N when signal N
// stopped it (130 for Ctrl-C; the file has the members done).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <csignal>
#include <optional>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/arguments.hpp"
#include "cli/command_help.hpp"
#include "cli/ensemble_command.hpp"
#include "cli/fit_command.hpp"
#include "cli/profile_command.hpp"
#include "cli/petab_command.hpp"
#include "cli/petab_outputs.hpp"
#include "cli/exit_status.hpp"
#include "cli/method_listing.hpp"
#include "cli/problem_from_arguments.hpp"
#include "cli/python_compare.hpp"
#include "io/format_double.hpp"
#include "io/output_file.hpp"
#include "io/result_file.hpp"
#include "io/result_h5.hpp"
#include "methods/choice/method_choice.hpp"
#include "odesens/odesens.hpp"

namespace {

using namespace odesens;
using namespace odesens::cli;
using io::format_double;

// odesens methods: the table of methods, or with --markdown ID the
// generated part of docs/methods/ID.md.
int list_methods(const std::string& markdown_method) {
  if (markdown_method.empty())
    write_method_table(std::cout);
  else
    write_option_markdown(std::cout, method_info(markdown_method));
  return 0;
}

// What --method auto runs on the model's own problem (its time span, 101
// outputs, default tolerances), for S at every output and for a gradient.
void print_automatic_choices(const std::shared_ptr<Model>& model) {
  for (const char* goal : {"s", "gradient"}) {
    Problem problem;
    problem.model = model;
    problem.t0 = model->default_t0();
    const double t_end = model->default_t_end();
    // Weighted, not t0 + (t_end - t0) k / 100: a span beyond the largest
    // double (t0 = -1e308, t_end = 1e308) gave NaN times, and the message
    // blamed them instead of the span.
    for (int k = 0; k <= 100; ++k)
      problem.output_times.push_back(problem.t0 * ((100 - k) / 100.0) + t_end * (k / 100.0));
    problem.options.set("goal", goal);
    std::cout << "auto, " << (goal[0] == 's' ? "S at every output" : "a gradient") << ": ";
    try {
      const MethodChoice choice = choose_method(problem);
      std::cout << choice.method << " (" << choice.reason << ")\n";
    } catch (const Error& e) {
      std::cout << "no choice (" << e.what() << ")\n";
    }
  }
}

int show_info(const std::string& spec,
              const std::optional<std::vector<std::string>>& sens_params) {
  auto model = load_model(spec, load_options(sens_params));
  const auto p = model->nominal_params();
  std::cout << "model: " << model->name() << '\n'
            << "states (" << model->nx() << "):";
  for (const auto& s : model->state_names()) std::cout << ' ' << s;
  std::cout << "\nparameters (" << model->np() << "):";
  for (std::size_t j = 0; j < model->np(); ++j)
    std::cout << ' ' << model->param_names()[j] << '=' << format_double(p[j]);
  std::cout << "\ntime span: [" << format_double(model->default_t0()) << ", "
            << format_double(model->default_t_end()) << "]\n";
  for (const auto& [what, value] : model->source_details())
    std::cout << what << ": " << value << '\n';
  std::cout << "exact Jacobians: " << (model->has_analytic_jacobians() ? "yes" : "no") << '\n';
  if (const auto* pattern = model->jac_x_pattern())
    std::cout << "J_x non-zeros: " << pattern->nnz() << '\n';
  else
    std::cout << "J_x non-zeros: dense (" << model->nx() * model->nx() << ")\n";
  if (const auto* events = model->event_system()) {
    std::size_t switches = 0;
    for (const auto& r : events->roots()) switches += r.switches_rhs;
    std::cout << "events: " << events->events().size() << " (run by cvodes_fsa; docs/events.md)\n"
              << "switches of f: " << switches
              << " (comparisons, floor and ceil of t or the states)\n";
  }
  print_automatic_choices(model);
  return 0;
}

// compare: each --option goes to the methods that declare it; one that no
// method declares is an error.
void check_compare_options(const RunArguments& a) {
  for (const auto& [key, value] : a.options) {
    bool used = false;
    for (const auto& id : a.methods) used = used || declares_option(method_info(id), key);
    if (!used) throw UsageError{"--option " + key + ": none of the compared methods has it"};
  }
}

// A warning is part of the answer: it goes to standard error whatever the
// output format (and into the JSON document as well).
void print_warnings(const Result& result) {
  if (!result.method_choice.empty())
    std::cerr << "odesens: auto chose " << result.method << ": " << result.method_choice << '\n';
  for (const auto& w : result.warnings) std::cerr << "odesens: warning: " << w << '\n';
}

// An observable that is not finite at some output (sqrt of a negative
// state, log of 0) is written as null or nan: said, with its first time.
void warn_non_finite_observables(const Problem& problem, const io::RunDescription& run) {
  for (std::size_t n = 0; n < run.observable_values.size(); ++n) {
    const std::vector<double>& values = run.observable_values[n];
    const auto bad = std::find_if(values.begin(), values.end(),
                                  [](double v) { return !std::isfinite(v); });
    if (bad == values.end()) continue;
    const auto count = std::count_if(values.begin(), values.end(),
                                     [](double v) { return !std::isfinite(v); });
    const auto k = static_cast<std::size_t>(bad - values.begin());
    std::cerr << "odesens: warning: observable '" << run.observable_names[n] << "' is "
              << (std::isnan(*bad) ? "NaN" : "infinite") << " at t = "
              << io::format_double(problem.output_times[k]) << " (at " << count << " of "
              << values.size() << " output times)\n";
  }
}

// run --format h5: the ensemble layout with one member. A failed solve is
// the run's error, as with the other formats: no file is left.
int run_h5(const RunArguments& a, const Model& model, const Problem& problem) {
  io::ResultH5File file(
      a.out, {a.model, a.method, model.state_names(), model.param_names(), problem.output_times},
      problem.params, "--out");
  const Result result = solve(problem, a.method);
  print_warnings(result);
  file.write(result);
  return 0;
}

int run(const RunArguments& a) {
  refuse_output_over_inputs("--out", a.out, {a.model, a.data_file});
  const MethodInfo& info = method_info(a.method);
  auto model = load_model(a.model, load_options(a.sens_params));
  try {
    check_observables(*model, a.observe);
  } catch (const Error& e) {
    throw UsageError{std::string("--observe: ") + e.what()};
  }
  try {
    check_observables(*model, a.integrand);
  } catch (const Error& e) {
    throw UsageError{std::string("--integrand: ") + e.what()};
  }
  Problem problem = build_problem(a, model, info);
  // One objective per name, without weights: psi_m = integral of R_m (the
  // default weights are zero once there is an integrand). A method that
  // takes no integrands refuses them in solve, saying which does.
  if (!a.integrand.empty()) {
    problem.n_objectives = a.integrand.size();
    problem.integrand = observable_integrand(model, a.integrand);
  }
  if (a.format == "h5") {
    // The HDF5 layout has no place for enclosures yet: refused before the
    // work rather than written without them.
    const bool encloses =
        a.method == kAutomaticMethod ? methods::automatic_encloses(problem)
                                     : info.capabilities.bounds;
    if (encloses)
      throw UsageError{"--format h5 does not hold the enclosures of " + a.method +
                       " (its polynomial models and hulls): use --format json or csv"};
    return run_h5(a, *model, problem);
  }
  // Before the solve, so that a folder that cannot be written is reported
  // before the work, not after it.
  std::optional<io::OutputFile> file;
  if (!a.out.empty()) file.emplace(a.out, io::OutputFileOptions{true});
  const Result result = solve(problem, a.method);
  print_warnings(result);

  // The method that ran (auto's choice may give S and no gradient, as on a
  // model without states).
  const bool gradient_method =
      !result.gradient.empty() ||
      (result.method.empty() ? info : method_info(result.method)).capabilities.gradient;
  io::RunDescription run{a.model, gradient_method, a.observe, {}, problem.n_objectives};
  if (!a.observe.empty()) {
    run.observable_values = evaluate_observables(problem, result, a.observe);
    warn_non_finite_observables(problem, run);
  }
  std::ostream& out = file ? file->stream() : std::cout;
  io::write_result_text(out, io::result_format(a.format, a.out), *model, result, run);
  if (file) {
    file->commit();
    return 0;
  }
  out.flush();
  if (!out) throw Error(Status::io_error, "writing the result to standard output failed");
  return 0;
}

// Largest |S_a - S_b| over the times both give S, relative to max |S_b|;
// none where no time has S from both (a method that gave S·R, or its
// states alone): 0 there would read as agreement.
std::optional<double> relative_s_difference(const Result& a, const Result& b) {
  double diff = 0.0, scale = 0.0;
  bool compared = false;
  // Both increasing: one pass pairs them (a search per time was quadratic).
  std::size_t kb = 0;
  for (std::size_t ka = 0; ka < a.s_times.size(); ++ka) {
    while (kb < b.s_times.size() && b.s_times[kb] < a.s_times[ka]) ++kb;
    if (kb == b.s_times.size() || b.s_times[kb] != a.s_times[ka]) continue;
    if (a.s.empty() || b.s.empty() || a.nx != b.nx || a.np != b.np) continue;
    compared = compared || (a.nx > 0 && a.np > 0);
    for (std::size_t i = 0; i < a.nx; ++i)
      for (std::size_t j = 0; j < a.np; ++j) {
        diff = std::max(diff, std::fabs(a.s_at(ka, i, j) - b.s_at(kb, i, j)));
        scale = std::max(scale, std::fabs(b.s_at(kb, i, j)));
      }
  }
  if (!compared) return std::nullopt;
  return scale > 0.0 ? diff / scale : diff;
}

// Runs several methods on one problem and prints a table against the first.
int compare(const RunArguments& a) {
  auto model = load_model(a.model, load_options(a.sens_params));
  check_compare_options(a);
  std::vector<Result> results;
  for (const auto& id : a.methods)
    results.push_back(solve(build_problem(a, model, method_info(id), true), id));
  std::printf("model %s: nx = %zu, np = %zu, %zu output times\n", model->name().c_str(),
              model->nx(), model->np(), results[0].times.size());
  std::printf("%-14s %12s %8s %10s %10s %22s\n", "method", "wall [s]", "steps", "rhs evals",
              "jac evals", ("max|dS| vs " + a.methods[0]).c_str());
  for (const auto& r : results) {
    const std::optional<double> ds = relative_s_difference(r, results[0]);
    char column[32];
    if (ds) std::snprintf(column, sizeof column, "%.3e", *ds);
    else std::snprintf(column, sizeof column, "no S to compare");
    std::printf("%-14s %12.6f %8lld %10lld %10lld %22s\n", r.method.c_str(),
                r.stats.wall_seconds, static_cast<long long>(r.stats.steps),
                static_cast<long long>(r.stats.rhs_evals), static_cast<long long>(r.stats.jac_evals),
                column);
  }
  std::printf("(max|dS|: largest difference of S at the common S times, relative to max|S|; "
              "\"no S to compare\" where one of the two gave no S)\n");
  for (const auto& r : results)
    for (const auto& w : r.warnings) std::cerr << "odesens: warning: " << r.method << ": " << w << '\n';
  return 0;
}

std::string wrong_arguments(const std::string& command) {
  return "unknown command or wrong arguments: '" + command + "' (see odesens --help)";
}

// CLI11's error as the tool's one-line message for `args` (without argv[0]).
std::string usage_message(const CLI::App& app, const CLI::Error& error,
                          const std::vector<std::string>& args) {
  const CLI::App* command = app.get_subcommands().empty() ? nullptr : app.get_subcommands()[0];
  if (command == nullptr) return wrong_arguments(args.empty() ? "" : args[0]);
  const std::string& name = command->get_name();
  if (name == "methods" && dynamic_cast<const CLI::ArgumentMismatch*>(&error))
    return "--markdown needs a method id, e.g. methods --markdown cvodes_fsa";
  // methods, options and a bare command: the message main always gave.
  if (name == "methods" || name == "options" || args.size() == 1) return wrong_arguments(name);
  if (name == "info") return "info takes MODEL [--sens-params ID,...] (see odesens --help)";
  // run and compare: the flag that lacks its value is the last argument;
  // otherwise name the first argument nothing took.
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error)) return args.back() + " needs a value";
  const auto extras = app.remaining(true);
  if (!extras.empty()) {
    const std::string& first = extras.front();
    return (!first.empty() && first[0] == '-' ? "unknown flag '" : "unexpected argument '") +
           first + "'";
  }
  return error.what();
}

// The subcommands and what their flags are read into.
struct Commands {
  CLI::App* methods = nullptr;
  CLI::Option* markdown = nullptr;
  std::string markdown_method;
  CLI::App* options = nullptr;
  std::string method;
  CLI::App* info = nullptr;
  std::string model;
  std::optional<std::vector<std::string>> sens_params;
  CLI::App *run = nullptr, *compare = nullptr, *ensemble = nullptr;
  RunArguments run_args, compare_args, ensemble_args;
  CLI::App* petab = nullptr;
  PetabArguments petab_args;
  CLI::App* fit = nullptr;
  FitArguments fit_args;
  CLI::App* profile = nullptr;
  ProfileArguments profile_args;
};

void declare_commands(CLI::App& app, Commands& c) {
  app.set_help_flag();  // the usage text is usage_text(), printed by main
  app.require_subcommand(1);
  c.methods = app.add_subcommand("methods");
  c.markdown = c.methods->add_option("--markdown", c.markdown_method);
  c.options = app.add_subcommand("options");
  c.options->add_option("METHOD", c.method)->required();
  c.info = app.add_subcommand("info");
  c.info->add_option("MODEL", c.model)->required();
  c.info->add_option_function<std::string>(
          "--sens-params", [&c](const std::string& v) { c.sens_params = parse_sens_params(v); })
      ->trigger_on_parse();
  c.run = app.add_subcommand("run");
  add_run_flags(*c.run, c.run_args, SolveCommand::run);
  c.compare = app.add_subcommand("compare");
  add_run_flags(*c.compare, c.compare_args, SolveCommand::compare);
  c.ensemble = app.add_subcommand("ensemble");
  add_run_flags(*c.ensemble, c.ensemble_args, SolveCommand::ensemble);
  c.petab = app.add_subcommand("petab");
  add_petab_flags(*c.petab, c.petab_args);
  c.fit = app.add_subcommand("fit");
  add_fit_flags(*c.fit, c.fit_args);
  c.profile = app.add_subcommand("profile");
  add_profile_flags(*c.profile, c.profile_args);
}

// Runs the subcommand that was parsed; its exit status.
int dispatch(Commands& c) {
  if (*c.methods) {
    if (c.markdown->count() > 0 && c.markdown_method.empty())
      throw UsageError{"--markdown needs a method id, got ''"};
    return list_methods(c.markdown_method);
  }
  if (*c.options) {
    write_method_description(std::cout, method_info(c.method));
    return 0;
  }
  if (*c.info) return show_info(c.model, c.sens_params);
  if (*c.petab) return run_petab(c.petab_args);
  if (*c.fit) return run_fit(c.fit_args);
  if (*c.profile) return run_profile(c.profile_args);
  if (*c.run) {
    if (c.run_args.help) return print_command_help("odesens", c.run_args, SolveCommand::run);
    check_run_arguments(c.run_args, SolveCommand::run);
    return run(c.run_args);
  }
  if (*c.ensemble) {
    if (c.ensemble_args.help)
      return print_command_help("odesens", c.ensemble_args, SolveCommand::ensemble);
    check_run_arguments(c.ensemble_args, SolveCommand::ensemble);
    return run_ensemble(c.ensemble_args);
  }
  if (c.compare_args.help)
    return print_command_help("odesens", c.compare_args, SolveCommand::compare);
  check_run_arguments(c.compare_args, SolveCommand::compare);
  if (!c.compare_args.plot.empty()) return run_python_compare(c.compare_args);
  return compare(c.compare_args);
}

}  // namespace

// The command's status, unless its standard output could not be written
// whole (a full disk, a closed descriptor): then a failure, said.
static int with_output_written(int status) {
  std::cout.flush();
  if (std::cout) return status;
  std::cerr << "odesens: error: writing standard output failed: the output is incomplete\n";
  return status == 0 ? 1 : status;
}

// methods, options and info have no help of their own: `COMMAND --help`
// is the tool's (it called them unknown commands).
static bool asks_general_help(const std::vector<std::string>& args) {
  if (args[0] != "methods" && args[0] != "options" && args[0] != "info") return false;
  return std::any_of(args.begin() + 1, args.end(),
                     [](const std::string& a) { return a == "--help" || a == "-h"; });
}

int main(int argc, char** argv) {
  // Past a file-size limit, writes fail with EFBIG (and are reported) instead
  // of the signal ending the tool with a partial file.
  std::signal(SIGXFSZ, SIG_IGN);
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help" ||
      asks_general_help(args)) {
    std::cout << usage_text();
    return args.empty() ? 2 : 0;
  }
  CLI::App app{"odesens"};
  Commands commands;
  declare_commands(app, commands);
  try {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      throw UsageError{usage_message(app, e, args)};
    }
    return with_output_written(dispatch(commands));
  } catch (const UsageError& e) {
    std::cerr << "odesens: error: " << e.message << '\n';
    return 2;
  } catch (const odesens::Error& e) {
    std::cerr << "odesens: error: " << e.what() << '\n';
    return exit_status(e.status());
  } catch (const std::bad_alloc&) {
    std::cerr << "odesens: error: out of memory (an allocation failed; fewer output times, "
                 "states or parameters need less)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "odesens: error: " << e.what() << '\n';
    return 1;
  }
}
