// Multi-start (fit.hpp): one local optimization per start on the worker
// pool, the results sorted into the waterfall.
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "ensemble/worker_pool.hpp"
#include "fit/hop_blocks.hpp"
#include "fit/hops.hpp"
#include "fit/multi_start.hpp"
#include "io/format_double.hpp"
#include "fit/start_objective.hpp"

namespace odesens {
namespace {

// Failed starts (NaN) last; among equals, the order of the starts.
bool before(const StartResult& a, const StartResult& b) {
  const bool a_ok = start_succeeded(a), b_ok = start_succeeded(b);
  if (a_ok != b_ok) return a_ok;
  if (a_ok && a.nlpost != b.nlpost) return a.nlpost < b.nlpost;
  return a.index < b.index;
}

}  // namespace

namespace fitting {

namespace {

// Every start's point and result stay in memory until the fit ends (the
// waterfall is sorted over all of them): about three points and 200 bytes
// of bookkeeping a start. Runs this large are split across seeds.
constexpr double kStartMemoryLimit = 2.0 * 1024 * 1024 * 1024;

}  // namespace

void check_start_count(std::size_t starts, std::size_t n) {
  const double bytes_per_start = 8.0 * (3.0 * static_cast<double>(n) + 8.0) + 200.0;
  const double bytes = static_cast<double>(starts) * bytes_per_start;
  if (bytes <= kStartMemoryLimit) return;
  const auto most = static_cast<std::size_t>(kStartMemoryLimit / bytes_per_start);
  throw Error(Status::invalid_argument,
              "fit: " + std::to_string(starts) + " starts of " + std::to_string(n) +
                  " parameters would keep about " +
                  std::to_string(static_cast<long long>(bytes / 1e9)) +
                  " GB of start points and results in memory; at most " + std::to_string(most) +
                  " starts a run (split larger runs into several with different seeds)");
}

std::size_t starts_planned(const FitOptions& options, std::size_t starts) {
  // check_hop_options bounds the product by kMostHopRounds * kMostHopStarts
  // = 1e13, and the starts are held in memory: no overflow in 64 bits.
  static_assert(sizeof(std::size_t) >= 8, "the start counts need 64 bits");
  return starts + options.hop_rounds * options.hop_starts;
}

namespace {

// The hypercube's own check names parameters by index; this one by id, with
// the draw that needs the box and what to give instead.
void check_finite_box(const PetabProblem& problem, const std::string& draw,
                      const std::string& instead) {
  const std::vector<double> lo = problem.lower_scaled(), hi = problem.upper_scaled();
  for (std::size_t i = 0; i < lo.size(); ++i)
    if (!std::isfinite(lo[i]) || !std::isfinite(hi[i]))
      throw Error(Status::invalid_argument,
                  "fit: " + draw + " in a finite box, and parameter '" +
                      problem.parameter_ids()[i] + "' has bounds [" +
                      io::format_double(lo[i]) + ", " + io::format_double(hi[i]) +
                      "] on its scale: give finite bounds or " + instead);
}

// Points drawn uniformly in the box taken to the parameters' initialization
// priors (PetabProblem::start_value).
void draw_from_initialization_priors(const PetabProblem& problem, std::vector<double>& x) {
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = problem.start_value(i, x[i]);
}

}  // namespace

std::vector<std::vector<double>> planned_starts(const PetabProblem& problem,
                                                const FitOptions& options) {
  check_optimizer_options(options.optimizer);
  require_optimizer_suits(problem, options.optimizer.optimizer, "fit");
  if (problem.parameter_ids().empty())
    throw Error(Status::invalid_argument,
                "fit: the problem estimates no parameter (no row of its parameter table has "
                "estimate 1): there is nothing to fit");
  // A failed start is drawn again in the box (redrawn_start).
  if (options.resample_failed > 0)
    check_finite_box(problem, "resample_failed draws a failed start again",
                     "no resample_failed (--resample-failed)");
  if (options.resample_failed > kMostResamples)
    throw Error(Status::invalid_argument,
                "fit: resample_failed is " + std::to_string(options.resample_failed) +
                    "; at most " + std::to_string(kMostResamples) + " draws a start");
  // Where starts are drawn, a prior no start can be drawn from is refused
  // here, not by a start's redraw on a worker thread (given starts with
  // resample_failed) or a hop round's draw from the box (flat parameters, blocks).
  const bool blocks_drawn = options.hop_rounds > 0 && options.hop_starts >= 2 &&
                            options.hop_blocks &&
                            !parameter_blocks(problem, options.optimizer.evaluation.hierarchical)
                                 .empty();
  if (options.start_points.empty() || options.resample_failed > 0 ||
      (options.hop_rounds > 0 && (options.hop_flat_from_box || blocks_drawn)))
    check_initialization_priors(problem);
  check_hop_options(options);
  std::vector<std::vector<double>> starts = options.start_points;
  if (starts.empty()) starts = odesens::draw_starts(problem, options.starts, options.seed);
  check_start_count(starts_planned(options, starts.size()), problem.lower_scaled().size());
  for (const auto& x0 : starts) check_start(problem, x0, {});
  return starts;
}

namespace {

StartResult optimize_or_fail(const PetabProblem& problem, const std::vector<double>& x0,
                             const OptimizerOptions& options, const std::atomic<bool>* stop) {
  StartResult s;
  try {
    s = optimize(problem, x0, {}, options, stop);
  } catch (const std::exception& e) {
    s.start = s.end = x0;
    s.nllh = s.nlpost = s.gradient_norm = std::numeric_limits<double>::quiet_NaN();
    const auto* error = dynamic_cast<const Error*>(&e);
    s.status = error ? error->status() : Status::internal_error;
    s.exit_reason = e.what();
  }
  return s;
}

// The start ended where it began, without a value: its point could not be
// simulated.
bool start_point_failed(const StartResult& s) {
  // Not a start whose time ran out first: another point would take as long;
  // nor one the problem cannot evaluate (a gradient it does not support),
  // which no other point can.
  return s.status != Status::ok && s.status != Status::unsupported && s.iterations == 0 &&
         s.end == s.start && !fitting::ended_without_value_in_time(s.exit_reason);
}

// Draw `attempt` (from 1) for start `index`: uniform in the scaled box,
// then from the initialization priors.
std::vector<double> redrawn_start(const PetabProblem& problem, std::uint64_t seed,
                                  std::size_t index, std::size_t attempt) {
  std::seed_seq seq{seed, static_cast<std::uint64_t>(index), static_cast<std::uint64_t>(attempt),
                    std::uint64_t{0x5eed}};
  std::mt19937_64 rng(seq);
  const std::vector<double> lo = problem.lower_scaled(), hi = problem.upper_scaled();
  std::vector<double> x(lo.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = std::uniform_real_distribution<double>(lo[i], hi[i])(rng);
  draw_from_initialization_priors(problem, x);
  return x;
}

}  // namespace

// Parameters with an infinite bound are never drawn from their range (the
// box's draws refuse them, blocks and flat parameters leave them out).
void check_initialization_priors(const PetabProblem& problem) {
  const std::vector<double> lo = problem.lower_scaled(), hi = problem.upper_scaled();
  for (std::size_t i = 0; i < lo.size(); ++i)
    if (std::isfinite(lo[i]) && std::isfinite(hi[i])) problem.start_value(i, lo[i]);
}

StartResult run_start(const PetabProblem& problem, const std::vector<double>& x0,
                      std::size_t index, const FitOptions& options,
                      const std::atomic<bool>* stop, const HopDraw* hop) {
  StartResult s = optimize_or_fail(problem, x0, options.optimizer, stop);
  std::size_t attempts = 0;
  while (start_point_failed(s) && attempts < options.resample_failed &&
         !(stop && stop->load())) {
    ++attempts;
    const std::vector<double> x = hop ? hop_redraw(problem, *hop, options.seed, index, attempts)
                                      : redrawn_start(problem, options.seed, index, attempts);
    s = optimize_or_fail(problem, x, options.optimizer, stop);
  }
  if (attempts > 0)
    s.exit_reason += " (start point drawn again " + std::to_string(attempts) +
                     (attempts == 1 ? " time" : " times") + ": the first could not be simulated)";
  s.index = index;
  return s;
}

FitResult waterfall(const PetabProblem& problem, const FitOptions& options, std::size_t planned,
                    std::vector<std::optional<StartResult>>& done, bool stopped) {
  FitResult result;
  result.optimizer = resolve_optimizer(problem, options.optimizer);
  result.seed = options.seed;
  result.starts_planned = planned;
  for (auto& s : done)
    if (s) result.starts.push_back(std::move(*s));
  std::sort(result.starts.begin(), result.starts.end(), before);
  result.starts_at_best = count_within(result.starts, 0.1);
  result.stopped = stopped;
  result.hop_rounds = options.hop_rounds;
  result.hop_starts = options.hop_rounds > 0 ? options.hop_starts : 0;
  result.hop_sigma = options.hop_rounds > 0 ? options.hop_sigma : 0.0;
  result.hop_flat_from_box = options.hop_rounds > 0 && options.hop_flat_from_box;
  result.hop_blocks = options.hop_rounds > 0 && options.hop_blocks;
  if (result.hop_blocks && options.hop_starts >= 2)  // else no second point
    result.hop_block_count =
        parameter_blocks(problem, options.optimizer.evaluation.hierarchical).size();
  if (!result.starts.empty() && start_succeeded(result.starts[0]))
    result.flat_at_best = result.starts[0].flat;
  return result;
}

}  // namespace fitting

std::size_t count_within(const std::vector<StartResult>& sorted, double threshold) {
  if (sorted.empty() || !start_succeeded(sorted[0])) return 0;
  std::size_t n = 0;
  for (const StartResult& s : sorted) n += start_succeeded(s) && s.nlpost - sorted[0].nlpost <= threshold;
  return n;
}

FitResult fit(const PetabProblem& problem, const FitOptions& options,
              const FitProgress& progress, const std::atomic<bool>* stop) {
  const std::vector<std::vector<double>> starts = fitting::planned_starts(problem, options);
  const std::size_t planned = fitting::starts_planned(options, starts.size());
  std::mutex mutex;
  std::size_t finished = 0;
  double best = std::numeric_limits<double>::quiet_NaN();
  std::atomic<bool> never{false};
  const std::atomic<bool>& halt = stop ? *stop : never;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned threads = options.threads == 0 ? cores : options.threads;
  auto run = [&](const std::vector<std::vector<double>>& points, std::size_t first,
                 const fitting::HopDraw* hop, std::vector<std::optional<StartResult>>& done) {
    ensemble::run_tasks(points.size(), threads, halt, [&](std::size_t k, std::size_t) {
      StartResult s = fitting::run_start(problem, points[k], first + k, options, stop, hop);
      std::lock_guard<std::mutex> lock(mutex);
      if (start_succeeded(s) && !(s.nlpost >= best)) best = s.nlpost;
      done[k] = std::move(s);
      ++finished;
      if (progress) progress(finished, planned, best);
    });
  };
  std::vector<std::optional<StartResult>> done =
      fitting::run_starts_and_hops(problem, options, starts, run, [](fitting::HopState&) {}, stop);
  return fitting::waterfall(problem, options, planned, done, stop && stop->load());
}

std::vector<std::vector<double>> draw_starts(const PetabProblem& problem, std::size_t starts,
                                             std::uint64_t seed) {
  if (starts == 0) throw Error(Status::invalid_argument, "fit: no starts (starts is 0)");
  fitting::check_start_count(starts, problem.lower_scaled().size());
  fitting::check_finite_box(problem, "starts are drawn", "the starts (--starts-from)");
  std::vector<std::vector<double>> points =
      latin_hypercube(problem.lower_scaled(), problem.upper_scaled(), starts, seed);
  for (auto& x : points) fitting::draw_from_initialization_priors(problem, x);
  return points;
}

}  // namespace odesens
