// The fit command (fit_command.hpp).
#include "cli/fit_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>

#include "cli/arguments.hpp"
#include "cli/exit_status.hpp"
#include "cli/command_help.hpp"
#include "cli/petab_command.hpp"
#include "cli/petab_outputs.hpp"
#include "cli/interrupt.hpp"
#include "fit/fit_h5.hpp"
#include "fit/fit_plots.hpp"
#include "fit/multi_start.hpp"
#include "io/format_double.hpp"
#include "io/json_values.hpp"
#include "io/table_file.hpp"
#include "odesens/fit.hpp"

namespace odesens::cli {
namespace {

// The largest count a flag takes unless it says less (written 1e12).
constexpr long long kMostCount = 1'000'000'000'000;

long long whole_number(const std::string& v, const std::string& flag, long long least,
                       long long most = kMostCount) {
  const double n = parse_number(v, flag);
  if (n < static_cast<double>(least) || n > static_cast<double>(most) || n != std::floor(n))
    throw UsageError{flag + " needs a whole number from " + std::to_string(least) + " to " +
                     (most == kMostCount ? "1e12" : std::to_string(most)) + ", got '" + v + "'"};
  return static_cast<long long>(n);
}

// The most rows of a --starts-from table.
constexpr std::size_t kMostStartsFromFile = 10'000'000;

// The starts of a --starts-from table: one row per start, columns named by
// the estimated parameters' ids (values on the linear scale, as --at's);
// or one start from a table with a parameterId column (fit --best's).
std::vector<std::vector<double>> read_starts(const PetabProblem& problem, const std::string& path);

// "starts done  best  time" on standard error, redrawn as starts end.
class FitProgressLine {
 public:
  explicit FitProgressLine(bool enabled) : enabled_(enabled) {}
  void update(std::size_t done, std::size_t total, double best) {
    if (!enabled_) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::cerr << "\r" << done << "/" << total << " starts  best "
              << (std::isfinite(best) ? io::format_double(best) : std::string("-")) << "  "
              << static_cast<long long>(s) << " s   " << std::flush;
    drawn_ = true;
  }
  void finish() {
    if (drawn_) std::cerr << '\n';
  }

 private:
  bool enabled_, drawn_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// A message as one cell of the tab-separated table: the lines of a
// multi-line one (a failed pre-equilibration lists each way it tried)
// joined by "; " (by " " after a colon), tabs made spaces, so that each start stays one row.
std::string table_cell(const std::string& text) {
  std::string cell;
  cell.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
      if (i + 1 < text.size()) cell += !cell.empty() && cell.back() == ':' ? " " : "; ";
    } else {
      cell += text[i] == '\t' || text[i] == '\r' ? ' ' : text[i];
    }
  }
  return cell;
}

void write_text(std::ostream& out, const PetabProblem& problem, const FitResult& r) {
  out << "optimizer " << r.optimizer << ", " << r.starts.size() << " of " << r.starts_planned
      << " starts" << (r.stopped ? " (stopped)" : "") << "\n";
  if (r.hop_rounds > 0)
    out << "hops: " << r.hop_rounds << " rounds of " << r.hop_starts
        << " starts around the best so far (sigma " << io::format_double(r.hop_sigma)
        << (r.hop_flat_from_box ? ", a parameter without effect at the center from its range"
                                : "")
        << (r.hop_block_count > 0 ? ", every second point one of the " +
                                        std::to_string(r.hop_block_count) +
                                        " blocks redrawn alone"
                                  : "")
        << "); start indices from " << r.starts_planned - r.hop_rounds * r.hop_starts
        << " are theirs\n";
  out << "rank\tstart\tnlpost\tnllh\tgradient\titerations\tevaluations\tseconds\texit\n";
  for (std::size_t k = 0; k < r.starts.size(); ++k) {
    const StartResult& s = r.starts[k];
    out << k + 1 << '\t' << s.index << '\t' << io::format_double(s.nlpost) << '\t'
        << io::format_double(s.nllh) << '\t' << io::format_double(s.gradient_norm) << '\t'
        << s.iterations << '\t' << s.evaluations << '\t' << io::format_double(s.seconds) << '\t'
        << table_cell(s.exit_reason) << '\n';
  }
  if (r.starts.empty() || !start_succeeded(r.starts[0])) {
    out << "no start succeeded\n";
    return;
  }
  out << "best nlpost " << io::format_double(r.starts[0].nlpost) << ", nllh "
      << io::format_double(r.starts[0].nllh) << "; " << r.starts_at_best << " of "
      << r.starts.size() << " starts within 0.1 of it\n";
  if (!r.flat_at_best.empty()) {
    out << "warning: at the best point nlpost does not depend on " << r.flat_at_best.size()
        << " parameter" << (r.flat_at_best.size() == 1 ? "" : "s")
        << " (gradient exactly 0: the data do not determine them there):";
    for (std::size_t i : r.flat_at_best) out << ' ' << problem.parameter_ids()[i];
    out << '\n';
  }
  out << "best parameters (scaled):\n";
  for (std::size_t i = 0; i < problem.parameter_ids().size(); ++i)
    out << "  " << problem.parameter_ids()[i] << '\t' << io::format_double(r.starts[0].end[i])
        << '\n';
}

io::Json start_json(const PetabProblem& problem, const StartResult& s) {
  io::Json j = io::Json::object();
  j["start_index"] = s.index;
  j["round"] = s.round;
  std::vector<std::string> redrawn;
  for (std::size_t i : s.redrawn) redrawn.push_back(problem.parameter_ids().at(i));
  j["redrawn"] = io::texts(redrawn);
  j["start"] = io::numbers(s.start);
  j["end"] = io::numbers(s.end);
  j["nllh"] = io::number(s.nllh);
  j["nlpost"] = io::number(s.nlpost);
  j["gradient_norm"] = io::number(s.gradient_norm);
  j["iterations"] = s.iterations;
  j["evaluations"] = s.evaluations;
  j["status"] = static_cast<int>(s.status);
  j["exit_reason"] = io::text(s.exit_reason);
  j["seconds"] = io::number(s.seconds);
  return j;
}

io::Json result_json(const PetabProblem& problem, const FitResult& r) {
  io::Json j = io::Json::object();
  j["problem"] = io::text(problem.file());
  j["optimizer"] = io::text(r.optimizer);
  j["seed"] = r.seed;
  j["parameter_ids"] = io::texts(problem.parameter_ids());
  j["parameter_scales"] = io::texts(problem.parameter_scales());
  j["starts_planned"] = r.starts_planned;
  j["starts_at_best"] = r.starts_at_best;
  j["stopped"] = r.stopped;
  j["hop_rounds"] = r.hop_rounds;
  j["hop_starts"] = r.hop_starts;
  j["hop_sigma"] = io::number(r.hop_sigma);
  j["hop_flat_from_box"] = r.hop_flat_from_box;
  j["hop_blocks"] = r.hop_blocks;
  j["hop_block_count"] = r.hop_block_count;
  std::vector<std::string> flat;
  for (std::size_t i : r.flat_at_best) flat.push_back(problem.parameter_ids()[i]);
  j["flat_at_best"] = io::texts(flat);
  io::Json starts = io::Json::array();
  for (const StartResult& s : r.starts) starts.push_back(start_json(problem, s));
  j["starts"] = starts;
  return j;
}

FitOptions fit_options(const FitArguments& a, const PetabProblem& problem) {
  FitOptions o;
  o.optimizer.optimizer = a.optimizer;
  if (a.max_iterations) o.optimizer.max_iterations = *a.max_iterations;
  if (a.max_seconds) o.optimizer.max_seconds = *a.max_seconds;
  set_simulation_options(a.simulation, o.optimizer.evaluation);
  o.optimizer.evaluation.hierarchical = a.hierarchical;
  o.seed = a.seed;
  o.threads = a.threads;
  o.resample_failed = a.resample_failed;
  o.hop_rounds = a.hops;
  o.hop_starts = a.hop_starts;
  o.hop_sigma = a.hop_sigma;
  o.hop_flat_from_box = a.hop_flat == "box";
  o.hop_blocks = a.hop_blocks;
  if (!a.starts_from.empty()) o.start_points = read_starts(problem, a.starts_from);
  else o.starts = static_cast<std::size_t>(*a.starts);
  return o;
}

}  // namespace

void add_fit_flags(CLI::App& command, FitArguments& a) {
  command.add_option("PROBLEM", a.problem);
  command.add_flag("-h,--help", a.help);
  command.add_option_function<std::string>(
      "--starts", [&a](const std::string& v) { a.starts = whole_number(v, "--starts", 1); });
  command.add_option_function<std::string>(
      "--threads", [&a](const std::string& v) { a.threads = parse_threads(v, true); });
  command.add_option("--optimizer", a.optimizer)
      ->check(CLI::IsMember(optimizer_ids()));
  command.add_option_function<std::string>("--seed", [&a](const std::string& v) {
    a.seed = static_cast<std::uint64_t>(whole_number(v, "--seed", 0));
  });
  add_value_flag(command, "--starts-from", a.starts_from);
  command.add_option_function<std::string>("--resample-failed", [&a](const std::string& v) {
    a.resample_failed =
        static_cast<std::size_t>(whole_number(v, "--resample-failed", 0, kMostResamples));
  });
  command.add_option_function<std::string>("--hops", [&a](const std::string& v) {
    a.hops = static_cast<std::size_t>(whole_number(v, "--hops", 0, kMostHopRounds));
  });
  command.add_option_function<std::string>("--hop-starts", [&a](const std::string& v) {
    a.hop_starts = static_cast<std::size_t>(whole_number(v, "--hop-starts", 1, kMostHopStarts));
    a.hop_starts_given = true;
  });
  command.add_option_function<std::string>("--hop-sigma", [&a](const std::string& v) {
    const double s = parse_number(v, "--hop-sigma");
    if (!(s >= 1e-6 && s <= 100))
      throw UsageError{"--hop-sigma needs a number from 1e-6 to 100 (a standard deviation on "
                       "the parameters' scales), got '" + v + "'"};
    a.hop_sigma = s;
    a.hop_sigma_given = true;
  });
  command.add_option_function<std::string>("--hop-flat", [&a](const std::string& v) {
    if (v != "box" && v != "local")
      throw UsageError{"--hop-flat needs box or local, got '" + v + "'"};
    a.hop_flat = v;
    a.hop_flat_given = true;
  });
  command.add_option_function<std::string>("--hop-blocks", [&a](const std::string& v) {
    if (v != "on" && v != "off")
      throw UsageError{"--hop-blocks needs on or off, got '" + v + "'"};
    a.hop_blocks = v == "on";
    a.hop_blocks_given = true;
  });
  command.add_option_function<std::string>("--max-iterations", [&a](const std::string& v) {
    a.max_iterations = whole_number(v, "--max-iterations", 1);
  });
  command.add_option_function<std::string>("--max-seconds-per-start", [&a](const std::string& v) {
    const double s = parse_number(v, "--max-seconds-per-start");
    if (!(s > 0)) throw UsageError{"--max-seconds-per-start needs a positive number, got '" + v + "'"};
    a.max_seconds = s;
  });
  add_simulation_flags(command, a.simulation);
  command.add_flag("--hierarchical", a.hierarchical);
  add_value_flag(command, "--out", a.out);
  add_value_flag(command, "--best", a.best);
  add_value_flag(command, "--plot", a.plot);
  command.add_option("--format", a.format)->check(CLI::IsMember({"text", "json"}));
  let_repeated_flags_override(command);
}

namespace {

class ThreadedFit final : public FitRunner {
 public:
  FitResult fit(const PetabProblem& problem, const FitOptions& options,
                const FitProgress& progress, const std::atomic<bool>* stop) override {
    return odesens::fit(problem, options, progress, stop);
  }
};

}  // namespace

int run_fit(const FitArguments& a) {
  ThreadedFit threads;
  return run_fit(a, threads);
}

int run_fit(const FitArguments& a, FitRunner& runner) {
  if (a.help) {
    write_fit_help(std::cout);
    return 0;
  }
  if (a.problem.empty())
    throw UsageError{"fit: no problem given (odesens fit PROBLEM.yaml --starts N [flags]; "
                     "odesens fit --help lists them)"};
  if (!a.starts && a.starts_from.empty())
    throw UsageError{"fit: --starts N or --starts-from FILE.tsv is needed"};
  if (a.hops == 0 &&
      (a.hop_starts_given || a.hop_sigma_given || a.hop_flat_given || a.hop_blocks_given))
    throw UsageError{"fit: --hop-starts, --hop-sigma, --hop-flat and --hop-blocks shape the "
                     "rounds of --hops R: give --hops too"};
  if (a.starts && !a.starts_from.empty())
    throw UsageError{"fit: --starts and --starts-from both given: the table's rows are the "
                     "starts; give one of them"};
  auto problem = PetabProblem::load(a.problem);
  if (runner.writes_output())
    check_petab_outputs(*problem, {{{"--best", a.best}}, {{"--out", a.out}}, {{"--plot", a.plot}},
                                   {a.starts_from}, fitting::fit_picture_names()});
  const FitOptions options = fit_options(a, *problem);
  const Interrupt interrupt("without the results of the starts done");
  FitProgressLine line(runner.writes_output() && ::isatty(STDERR_FILENO) == 1);
  const FitResult r = runner.fit(
      *problem, options,
      [&](std::size_t done, std::size_t total, double best) { line.update(done, total, best); },
      interrupt.requested());
  line.finish();
  if (!runner.writes_output()) return 0;
  // The waterfall on standard output first: a file or picture that cannot
  // be written does not lose it.
  if (a.format == "json") std::cout << result_json(*problem, r).dump(1) << '\n';
  else write_text(std::cout, *problem, r);
  std::cout.flush();
  OutputWrites writes("fit");
  if (!a.out.empty())
    writes.run("--out", [&] { fitting::write_fit_h5(a.out, *problem, r, "--out"); });
  const bool found = !r.starts.empty() && start_succeeded(r.starts[0]);
  if (found && !a.best.empty())
    writes.run("--best", [&] { problem->write_parameter_table(r.starts[0].end, a.best); });
  if (found && !a.plot.empty())
    writes.run("--plot", [&] { fitting::plot_fit(*problem, r, a.plot); });
  if (!found)
    std::cerr << tool_name()
              << ": error: fit: no start succeeded with a finite objective (their exit "
              << (a.format == "json" ? "reasons are the document's exit_reason"
                                     : "reasons are above")
              << ")"
              << (a.best.empty() && a.plot.empty() ? "" : "; --best and --plot were not written")
              << '\n';
  // An output not written is an error even after Ctrl-C (docs/fit.md).
  if (writes.status() != 0) return writes.status();
  if (interrupt.signal() != 0) return 128 + interrupt.signal();
  return found ? 0 : 1;
}

namespace {

// Whether PATH is a regular file whose first line names a parameterId
// column: a table of one point (fit --best's, petab --at's), so that a fit
// can go on from where another stopped. Anything else is left to the table
// reader, which says what is wrong with it.
bool is_point_table(const std::string& path) {
  std::error_code error;
  if (std::filesystem::status(path, error).type() != std::filesystem::file_type::regular)
    return false;
  std::ifstream in(path, std::ios::binary);
  std::string head(std::size_t{1} << 16, '\0');
  in.read(&head[0], static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.compare(0, 3, "\xEF\xBB\xBF") == 0) head.erase(0, 3);
  std::string line = head.substr(0, head.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::size_t begin = 0;
  for (std::size_t end = 0; end <= line.size(); ++end) {
    if (end < line.size() && line[end] != '\t') continue;
    if (line.compare(begin, end - begin, "parameterId") == 0) return true;
    begin = end + 1;
  }
  return false;
}

std::vector<std::vector<double>> read_starts(const PetabProblem& problem,
                                             const std::string& path) {
  if (is_point_table(path)) return {read_petab_parameter_values(problem, path)};
  // Each row a --at table of its own: parameterId and value columns would
  // need one file a start, so the rows here hold the ids as columns. The
  // shared table reader refuses what is not a regular file, lines beyond
  // io::max_line_bytes and unknown or repeated ids.
  io::TableSchema schema;
  schema.flag = "--starts-from";
  schema.column = "estimated parameter";
  schema.names = problem.parameter_ids();
  schema.owner = "the problem";
  schema.row = "start";
  schema.max_rows = kMostStartsFromFile;
  schema.too_many = "starts; at most " + std::to_string(kMostStartsFromFile) + " a file";
  const io::NumberTable table = io::read_table(path, schema);
  fitting::check_start_count(table.rows, problem.parameter_ids().size());
  std::vector<std::vector<double>> starts;
  const std::size_t width = table.names.size();
  for (std::size_t r = 0; r < table.rows; ++r) {
    std::vector<double> x = problem.nominal_scaled();
    for (std::size_t c = 0; c < width; ++c) {
      const std::size_t i = table.columns[c];
      const double v = table.values[r * width + c];
      const bool log_scale = problem.parameter_scales()[i] != "lin";
      if (!std::isfinite(v) || (log_scale && !(v > 0.0)))
        throw Error(Status::invalid_argument,
                    "--starts-from " + path + ": start " + std::to_string(r + 1) + ", '" +
                        table.names[c] + "' is " + io::format_double(v) + ", not " +
                        (log_scale ? "a positive finite number (its scale is " +
                                         problem.parameter_scales()[i] + ")"
                                   : std::string("a finite number")));
      x[i] = problem.to_scale(i, v);
    }
    starts.push_back(std::move(x));
  }
  return starts;
}

}  // namespace

}  // namespace odesens::cli
