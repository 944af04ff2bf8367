// Hops (hops.hpp): the multi-start's starts, then rounds of starts drawn
// around the best end point so far.
#include "fit/hops.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <exception>
#include <random>
#include <string>

#include "fit/hop_blocks.hpp"
#include "fit/multi_start.hpp"
#include "io/format_double.hpp"

namespace odesens {

void check_hop_options(const FitOptions& o) {
  if (o.hop_rounds > kMostHopRounds)
    throw Error(Status::invalid_argument, "fit: hop_rounds is " + std::to_string(o.hop_rounds) +
                                              "; at most " + std::to_string(kMostHopRounds));
  if (o.hop_rounds > 0 && o.hop_starts == 0)
    throw Error(Status::invalid_argument, "fit: hop_starts is 0 with hop_rounds " +
                                              std::to_string(o.hop_rounds) + "; give 1 or more");
  if (o.hop_starts > kMostHopStarts)
    throw Error(Status::invalid_argument, "fit: hop_starts is " + std::to_string(o.hop_starts) +
                                              "; at most " + std::to_string(kMostHopStarts));
  if (!(o.hop_sigma >= 1e-6 && o.hop_sigma <= 100.0))
    throw Error(Status::invalid_argument,
                "fit: hop_sigma is " + io::format_double(o.hop_sigma) +
                    "; it is a standard deviation on the parameters' scales, from 1e-6 to 100");
}

namespace fitting {
namespace {

// Uniform in (0, 1] from the top 53 bits of the generator, whose sequence
// the standard fixes (the standard distributions differ between libraries).
double uniform_open_at_zero(std::mt19937_64& rng) {
  return (static_cast<double>(rng() >> 11) + 1.0) * 0x1.0p-53;
}

// A standard normal draw (Box-Muller).
double normal(std::mt19937_64& rng) {
  const double u1 = uniform_open_at_zero(rng), u2 = uniform_open_at_zero(rng);
  constexpr double kTwoPi = 6.283185307179586;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

// A round that lowers the best by more than this found a new optimum (the
// threshold of the count of starts at the best).
constexpr double kNewOptimum = 0.1;
constexpr double kMostSigmaFactor = 4.0;

// The best start that ended so far, or none.
StartResult* best_of(std::vector<std::optional<StartResult>>& done) {
  StartResult* best = nullptr;
  for (auto& s : done)
    if (s && start_succeeded(*s) && (!best || s->nlpost < best->nlpost)) best = &*s;
  return best;
}

bool stopped(const std::atomic<bool>* stop) { return stop && stop->load(); }

}  // namespace

bool found_new_optimum(double best_before, double best_after) {
  return best_after < best_before - kNewOptimum;
}

double next_hop_sigma(double sigma, double hop_sigma, double best_before, double best_after) {
  if (found_new_optimum(best_before, best_after)) return hop_sigma;
  return std::min(2.0 * sigma, kMostSigmaFactor * hop_sigma);
}

namespace {

// The seed's two halves (seed_seq keeps 32 bits of each value: seeds 2^32
// apart draw apart), then the rest.
std::mt19937_64 hop_generator(std::uint64_t seed, std::initializer_list<std::uint64_t> rest) {
  std::vector<std::uint64_t> values = {seed & 0xffffffffu, seed >> 32};
  values.insert(values.end(), rest.begin(), rest.end());
  std::seed_seq seq(values.begin(), values.end());
  return std::mt19937_64(seq);
}

// The row of draw.blocks of the round's point `position` (null: none).
const char* redrawn_block(const HopDraw& draw, std::size_t position) {
  const std::size_t n = draw.center.size();
  if (n == 0 || position >= draw.blocks.size() / n) return nullptr;
  const char* row = draw.blocks.data() + position * n;
  return std::find(row, row + n, 1) == row + n ? nullptr : row;
}

}  // namespace

std::vector<std::size_t> redrawn_parameters(const HopDraw& draw, std::size_t position) {
  std::vector<std::size_t> indices;
  if (const char* row = redrawn_block(draw, position))
    for (std::size_t i = 0; i < draw.center.size(); ++i)
      if (row[i]) indices.push_back(i);
  return indices;
}

namespace {

// Point `position` of the round: a block redrawn from its range with the
// others at the center, or every parameter drawn around the center; flat
// parameters from their range in both.
void draw_point(const PetabProblem& problem, const HopDraw& draw, std::size_t position,
                std::mt19937_64& rng, std::vector<double>& x) {
  const std::vector<double>& lo = problem.lower_scaled();
  const std::vector<double>& hi = problem.upper_scaled();
  const char* block = redrawn_block(draw, position);
  x.resize(draw.center.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if ((i < draw.flat.size() && draw.flat[i]) || (block && block[i])) {
      const double u = lo[i] + (hi[i] - lo[i]) * uniform_open_at_zero(rng);
      x[i] = problem.start_value(i, std::clamp(u, lo[i], hi[i]));
    } else if (block) {
      x[i] = draw.center[i];
    } else {
      x[i] = std::clamp(draw.center[i] + draw.sigma * normal(rng), lo[i], hi[i]);
    }
  }
}

}  // namespace

std::vector<std::size_t> flat_entries(const PetabProblem& problem,
                                      const PetabOptions& evaluation,
                                      const std::vector<double>& x,
                                      const std::vector<double>& gradient) {
  const std::vector<double>& lo = problem.lower_scaled();
  const std::vector<double>& hi = problem.upper_scaled();
  std::vector<char> inner(lo.size(), 0);
  if (evaluation.hierarchical)
    for (std::size_t i : problem.inner_parameters()) inner.at(i) = 1;
  std::vector<std::size_t> flat;
  for (std::size_t i = 0; i < lo.size() && i < x.size() && i < gradient.size(); ++i)
    if (gradient[i] == 0.0 && !inner[i] && std::isfinite(lo[i]) && std::isfinite(hi[i]) &&
        x[i] > lo[i] && x[i] < hi[i])
      flat.push_back(i);
  return flat;
}

std::optional<std::vector<std::size_t>> flat_parameters(const PetabProblem& problem,
                                                        const PetabOptions& evaluation,
                                                        const std::vector<double>& center) {
  PetabOptions o = evaluation;
  o.gradient = true;
  o.fim = o.least_squares = o.residual_jacobian = false;
  try {
    return flat_entries(problem, evaluation, center, problem.evaluate(center, o).gradient);
  } catch (const std::exception&) {
    return std::nullopt;  // stopped, out of time or failing there
  }
}

std::vector<char> flat_mask(const std::vector<std::size_t>& flat, std::size_t n) {
  std::vector<char> mask(n, 0);
  for (std::size_t i : flat) mask.at(i) = 1;
  return mask;
}

std::vector<double> hop_redraw(const PetabProblem& problem, const HopDraw& hop,
                               std::uint64_t seed, std::size_t index, std::size_t attempt) {
  std::mt19937_64 rng = hop_generator(seed, {hop.round, index, attempt, 0x40b6});
  std::vector<double> x;
  const std::size_t position = index >= hop.first_index ? index - hop.first_index : SIZE_MAX;
  draw_point(problem, hop, position, rng, x);
  return x;
}

std::vector<std::vector<double>> hop_points(const PetabProblem& problem, const HopDraw& draw,
                                            std::size_t count, std::uint64_t seed) {
  std::mt19937_64 rng = hop_generator(seed, {draw.round, 0x40b5});
  std::vector<std::vector<double>> points(count);
  for (std::size_t k = 0; k < count; ++k) draw_point(problem, draw, k, rng, points[k]);
  return points;
}

namespace {

// The fit's evaluation options for one evaluation of a round's own (at its
// center): on the fit's threads, ended by a stop or after a start's time limit.
PetabOptions bounded_evaluation(const FitOptions& options, const std::atomic<bool>* stop) {
  PetabOptions evaluation = options.optimizer.evaluation;
  evaluation.threads = options.threads;
  const double limit = options.optimizer.max_seconds;
  const auto began = std::chrono::steady_clock::now();
  evaluation.interrupt = [stop, limit, began, own = evaluation.interrupt] {
    const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - began;
    return (stop && stop->load()) || (limit > 0 && spent.count() > limit) || (own && own());
  };
  return evaluation;
}

// The best start's flat parameters where its gradient was not evaluated at
// its end (its time limit or a stop ended it): one evaluation there, kept
// in the start's row (flat_known), so that the next round centred there
// and the waterfall take it.
void learn_flat(const PetabProblem& problem, const FitOptions& options, StartResult& best,
                const std::atomic<bool>* stop) {
  if (auto flat = flat_parameters(problem, bounded_evaluation(options, stop), best.end)) {
    best.flat = std::move(*flat);  // else hop as without
    best.flat_known = true;
  }
}

// The round's flat parameters (the best start's), blocks and points; an
// error ends the rounds as a batch's does. `fruitless`: the rounds since
// the last that found a new optimum, whose block points go on down the
// blocks' ranking.
void draw_round(const PetabProblem& problem, const FitOptions& options, StartResult& best,
                std::size_t fruitless, const std::atomic<bool>* stop, HopState& state,
                std::exception_ptr& error) {
  try {
    state.draw.flat.clear();
    if (options.hop_flat_from_box) {
      if (!best.flat_known) learn_flat(problem, options, best, stop);
      state.draw.flat = flat_mask(best.flat, state.draw.center.size());
    }
    state.draw.blocks.clear();
    if (options.hop_blocks)
      state.draw.blocks =
          block_point_mask(problem, bounded_evaluation(options, stop), state.draw.center,
                           options.hop_starts, fruitless * (options.hop_starts / 2));
    state.points = hop_points(problem, state.draw, options.hop_starts, options.seed);
  } catch (...) {
    error = std::current_exception();
    state.go_on = false;
    state.points.clear();
  }
}

}  // namespace

std::vector<std::optional<StartResult>> run_starts_and_hops(
    const PetabProblem& problem, const FitOptions& options,
    const std::vector<std::vector<double>>& starts, const BatchRunner& run,
    const HopStateShare& share, const std::atomic<bool>* stop) {
  std::vector<std::optional<StartResult>> done(starts.size());
  // An error of a batch (on MPI rank 0: of a delivery, such as a progress
  // callback's or a garbled start, which the farm raises after every rank
  // ended the batch) ends the rounds on every rank, then is thrown: a rank
  // left waiting for a round that rank 0 will not share would hang.
  std::exception_ptr error;
  auto run_batch = [&](const std::vector<std::vector<double>>& points, std::size_t first,
                       const HopDraw* hop, std::vector<std::optional<StartResult>>& out) {
    try {
      run(points, first, hop, out);
    } catch (...) {
      error = std::current_exception();
    }
  };
  run_batch(starts, 0, nullptr, done);
  HopState state;
  state.draw.sigma = options.hop_sigma;
  std::size_t fruitless = 0;  // rounds since the last new optimum
  for (std::size_t round = 1; round <= options.hop_rounds; ++round) {
    StartResult* best = best_of(done);
    state.go_on = best && !error && !stopped(stop);
    state.points.clear();
    if (state.go_on) {
      if (round > 1) {
        state.draw.sigma =
            next_hop_sigma(state.draw.sigma, options.hop_sigma, state.best, best->nlpost);
        fruitless = found_new_optimum(state.best, best->nlpost) ? 0 : fruitless + 1;
      }
      state.best = best->nlpost;
      state.draw.center = best->end;
      state.draw.round = round;
      draw_round(problem, options, *best, fruitless, stop, state, error);
    }
    share(state);
    if (!state.go_on) break;
    state.draw.first_index = done.size();  // the same on every rank
    std::vector<std::optional<StartResult>> ran(state.points.size());
    run_batch(state.points, done.size(), &state.draw, ran);
    for (std::size_t k = 0; k < ran.size(); ++k) {
      if (ran[k]) {
        ran[k]->round = round;
        ran[k]->redrawn = redrawn_parameters(state.draw, k);
      }
      done.push_back(std::move(ran[k]));
    }
  }
  if (error) std::rethrow_exception(error);
  return done;
}

}  // namespace fitting
}  // namespace odesens
