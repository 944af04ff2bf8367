// The profile command (profile_command.hpp).
#include "cli/profile_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "cli/arguments.hpp"
#include "cli/exit_status.hpp"
#include "cli/command_help.hpp"
#include "cli/petab_command.hpp"
#include "cli/petab_outputs.hpp"
#include "cli/interrupt.hpp"
#include "fit/fit_plots.hpp"
#include "io/format_double.hpp"
#include "io/json_values.hpp"
#include "io/output_file.hpp"
#include "odesens/fit.hpp"
#include "odesens/profile.hpp"

namespace odesens::cli {
namespace {

std::vector<std::size_t> parameter_indices(const PetabProblem& problem, const std::string& list) {
  if (list == "all") return {};
  // "all" among names (a list that names it beside others)
  if (("," + list + ",").find(",all,") != std::string::npos)
    throw UsageError{"--parameters: 'all' names every parameter; it takes no others"};
  const auto& ids = problem.parameter_ids();
  std::vector<std::size_t> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string id = list.substr(start, comma - start);
    const auto it = std::find(ids.begin(), ids.end(), id);
    if (it == ids.end())
      throw UsageError{"--parameters: '" + id + "' is not an estimated parameter of the problem"};
    const auto index = static_cast<std::size_t>(it - ids.begin());
    if (std::find(out.begin(), out.end(), index) != out.end())
      throw UsageError{"--parameters: '" + id + "' is named twice"};
    out.push_back(index);
    start = comma + 1;
  }
  return out;
}

// No profile got a point beyond its start: the re-optimizations failed
// throughout (simulations that cannot be run at these settings).
bool every_side_failed_at_once(const std::vector<Profile>& profiles) {
  return std::all_of(profiles.begin(), profiles.end(), [](const Profile& p) {
    return p.lower_end == ProfileEnd::failed && p.upper_end == ProfileEnd::failed &&
           p.points.size() == 1;
  });
}

std::string side_text(double value, ProfileEnd end) {
  return io::format_double(value) + (end == ProfileEnd::crossed ? "" : std::string(" (open: ") +
                                                                           profile_end_name(end) + ")");
}

void write_text(std::ostream& out, const std::vector<Profile>& profiles, double confidence) {
  out << "parameter\tbest\tlower\tupper\tpoints" << "\t(" << io::format_double(100 * confidence)
      << " % intervals on the parameters' scales)\n";
  for (const Profile& p : profiles) {
    out << p.id << '\t' << io::format_double(p.start) << '\t' << side_text(p.lower, p.lower_end)
        << '\t' << side_text(p.upper, p.upper_end) << '\t' << p.points.size() << '\n';
    for (const auto& [side, why] : {std::pair{"lower", &p.lower_failure},
                                    std::pair{"upper", &p.upper_failure}})
      if (!why->empty()) out << "  " << p.id << ": the " << side << " side failed " << *why << '\n';
    if (p.found_better)
      out << "  " << p.id << ": the profile found nlpost below the starting point's: "
          << "the start was not a local optimum (fit again from the profile's best point)\n";
  }
}

io::Json profile_json(const Profile& p) {
  io::Json j = io::Json::object();
  j["parameter"] = io::text(p.id);
  j["start"] = io::number(p.start);
  j["threshold"] = io::number(p.threshold);
  j["best_nlpost"] = io::number(p.best_nlpost);
  j["lower"] = io::number(p.lower);
  j["upper"] = io::number(p.upper);
  j["lower_end"] = profile_end_name(p.lower_end);
  if (!p.lower_failure.empty()) j["lower_failure"] = io::text(p.lower_failure);
  if (!p.upper_failure.empty()) j["upper_failure"] = io::text(p.upper_failure);
  j["upper_end"] = profile_end_name(p.upper_end);
  j["found_better"] = p.found_better;
  io::Json points = io::Json::array();
  for (const ProfilePoint& q : p.points) {
    io::Json point = io::Json::object();
    point["value"] = io::number(q.value);
    point["nlpost"] = io::number(q.nlpost);
    point["x"] = io::numbers(q.x);
    point["exit_reason"] = io::text(q.exit_reason);
    points.push_back(point);
  }
  j["points"] = points;
  return j;
}

io::Json result_json(const PetabProblem& problem, const std::vector<Profile>& profiles,
                     double confidence) {
  io::Json j = io::Json::object();
  j["problem"] = io::text(problem.file());
  j["confidence"] = io::number(confidence);
  j["parameter_ids"] = io::texts(problem.parameter_ids());
  j["parameter_scales"] = io::texts(problem.parameter_scales());
  io::Json all = io::Json::array();
  for (const Profile& p : profiles) all.push_back(profile_json(p));
  j["profiles"] = all;
  return j;
}

ProfileOptions profile_options(const ProfileArguments& a, const PetabProblem& problem) {
  ProfileOptions o;
  o.parameters = parameter_indices(problem, a.parameters);
  o.confidence = a.confidence;
  if (a.max_points) o.max_points = static_cast<std::size_t>(*a.max_points);
  o.threads = a.threads;
  o.optimizer.optimizer = a.optimizer;
  set_simulation_options(a.simulation, o.optimizer.evaluation);
  o.optimizer.evaluation.hierarchical = a.hierarchical;
  return o;
}

}  // namespace

void add_profile_flags(CLI::App& command, ProfileArguments& a) {
  command.add_option("PROBLEM", a.problem);
  command.add_flag("-h,--help", a.help);
  add_value_flag(command, "--from", a.from);
  // Repeated, the lists add up (--parameters a --parameters b is a,b);
  // parameter_indices refuses "all" beside names.
  add_flag(command, "--parameters", [&a, given = false](const std::string& v) mutable {
    a.parameters = given ? a.parameters + "," + v : v;
    given = true;
  });
  command.add_option_function<std::string>("--confidence", [&a](const std::string& v) {
    a.confidence = parse_number(v, "--confidence");
    if (!(a.confidence > 0 && a.confidence < 1))
      throw UsageError{"--confidence needs a number strictly between 0 and 1, got '" + v + "'"};
  });
  command.add_option_function<std::string>("--max-points", [&a](const std::string& v) {
    const double n = parse_number(v, "--max-points");
    if (n < 1 || n > 1e6 || n != std::floor(n))
      throw UsageError{"--max-points needs a whole number from 1 to 1e6, got '" + v + "'"};
    a.max_points = static_cast<long long>(n);
  });
  command.add_option_function<std::string>(
      "--threads", [&a](const std::string& v) { a.threads = parse_threads(v, true); });
  command.add_option("--optimizer", a.optimizer)
      ->check(CLI::IsMember(optimizer_ids()));
  add_simulation_flags(command, a.simulation);
  command.add_flag("--hierarchical", a.hierarchical);
  add_value_flag(command, "--out", a.out);
  add_value_flag(command, "--plot", a.plot);
  command.add_option("--format", a.format)->check(CLI::IsMember({"text", "json"}));
  let_repeated_flags_override(command);
}

int run_profile(const ProfileArguments& a) {
  if (a.help) {
    write_profile_help(std::cout);
    return 0;
  }
  if (a.problem.empty())
    throw UsageError{"profile: no problem given (odesens profile PROBLEM.yaml [--from BEST.tsv] "
                     "[flags]; odesens profile --help lists them)"};
  auto problem = PetabProblem::load(a.problem);
  const ProfileOptions options = profile_options(a, *problem);
  const std::vector<double> from =
      a.from.empty() ? problem->nominal_scaled() : read_petab_parameter_values(*problem, a.from);
  // A path that cannot be written is said at once, not after the profiles.
  const std::size_t traced =
      options.parameters.empty() ? problem->parameter_ids().size() : options.parameters.size();
  check_petab_outputs(*problem, {{{"--out", a.out}}, {}, {{"--plot", a.plot}}, {a.from},
                                 fitting::profile_picture_names(traced)});
  const Interrupt interrupt("without the profiles traced so far");
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  const std::vector<Profile> profiles =
      profile(*problem, from, options,
              [&](std::size_t done, std::size_t total) {
                if (terminal) std::cerr << "\r" << done << "/" << total << " sides   " << std::flush;
              },
              interrupt.requested());
  if (terminal) std::cerr << '\n';
  const io::Json json = result_json(*problem, profiles, options.confidence);
  // The result on standard output first: a file or plot that cannot be
  // written does not lose it.
  if (a.format == "json") std::cout << json.dump(1) << '\n';
  else write_text(std::cout, profiles, options.confidence);
  std::cout.flush();
  OutputWrites writes("profile");
  if (!a.out.empty())
    writes.run("--out", [&] {
      io::OutputFile file(a.out, {true});
      file.stream() << json.dump(1) << '\n';
      file.commit();
    });
  if (!a.plot.empty())
    writes.run("--plot", [&] { fitting::plot_profiles(*problem, profiles, a.plot); });
  // Intervals collapsed onto the start are no result: said, and status 1.
  const bool none = every_side_failed_at_once(profiles);
  if (none)
    std::cerr << tool_name()
              << ": error: profile: every side failed at its first value (the reasons "
              << (a.format == "json" ? "are the document's lower_failure and upper_failure"
                                     : "are above")
              << ")\n";
  if (writes.status() != 0) return writes.status();
  if (interrupt.signal() != 0) return 128 + interrupt.signal();
  return none ? 1 : 0;
}

}  // namespace odesens::cli
