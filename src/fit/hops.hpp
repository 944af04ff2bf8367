// Hops (fit.hpp, FitOptions::hop_rounds): rounds of starts drawn around the
// best end point so far, after the multi-start's own starts. One driver
// serves the threaded fit and the MPI fit; each gives it the way it runs a
// batch of starts and, over MPI, the way rank 0's view of the best point
// reaches every rank.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "odesens/fit.hpp"

namespace odesens::fitting {

// The distribution of a hop round's points.
struct HopDraw {
  std::vector<double> center;  // the best end point when the round began
  double sigma = 0.0;
  std::size_t round = 0;
  // 1 for a parameter nlpost does not depend on at center (flat_parameters):
  // drawn from its whole range as a start is, not around center. Empty: none.
  std::vector<char> flat;
  // The round's points x n entries, row k for point k (block_point_mask): 1
  // for a parameter the point redraws from its range, the others held at
  // center (flat ones also redrawn); a row of 0s, or none: drawn around
  // center as above. Empty: every point around center.
  std::vector<char> blocks;
  std::size_t first_index = 0;  // the index of the round's first start
};

// Runs points[k] as start first_index + k with the fit's options and stores what
// ended in done[k] (left empty where a start did not run). Progress is the
// runner's, counted over the whole fit.
// `hop` (null for the starts): the round's center, whose normal
// distribution redraws a hop point that cannot be simulated (run_start).
using BatchRunner = std::function<void(const std::vector<std::vector<double>>& points,
                                       std::size_t first_index, const HopDraw* hop,
                                       std::vector<std::optional<StartResult>>& done)>;

// The next round, as rank 0 (which alone holds the results over MPI)
// decided it: the others receive it whole, the points too, so that no rank
// runs a point its own libm drew differently. For threads share is the
// identity.
struct HopState {
  double best = 0.0;   // the best nlpost so far: the round's center's
  bool go_on = false;  // false: no further round (stopped, an error, nothing to hop from)
  HopDraw draw;        // the round's center, standard deviation and number
  std::vector<std::vector<double>> points;  // the round's starts
};
using HopStateShare = std::function<void(HopState&)>;

// The starts, then the hop rounds: all the starts that ended, in the order
// they ran (the caller sorts them into the waterfall); over MPI the
// entries are filled on rank 0 alone, as the runner fills them. An error
// of a batch ends the rounds (on every rank, through share) and is thrown.
std::vector<std::optional<StartResult>> run_starts_and_hops(
    const PetabProblem& problem, const FitOptions& options,
    const std::vector<std::vector<double>>& starts, const BatchRunner& run,
    const HopStateShare& share, const std::atomic<bool>* stop);

// The next round's standard deviation: back to hop_sigma after a round
// that lowered the best by more than 0.1 (a new optimum, by the measure of
// the count of starts at the best), else doubled, up to 4 * hop_sigma.
double next_hop_sigma(double sigma, double hop_sigma, double best_before, double best_after);
// Whether a round lowered the best by more than 0.1 (next_hop_sigma's rule).
bool found_new_optimum(double best_before, double best_after);

// The parameters of x (indices) strictly inside their finite bounds whose
// entry of `gradient` (of nlpost at x) is exactly 0: nothing the problem
// computes depends on them there, as on a switch time past the last
// measurement of its experiment. Where evaluation.hierarchical, the inner
// parameters are left out (each evaluation sets them). (At a bound the
// derivative into the box may be a one-sided one the gradient does not
// give: a switch time at the span's start has gradient 0 and an effect.)
std::vector<std::size_t> flat_entries(const PetabProblem& problem,
                                      const PetabOptions& evaluation,
                                      const std::vector<double>& x,
                                      const std::vector<double>& gradient);

// flat_entries at center from an evaluation of the gradient there (ended
// by evaluation.interrupt); nullopt where it fails or is ended. A normal
// draw around center keeps a flat parameter where it has no effect; a draw
// from its range may bring it back.
std::optional<std::vector<std::size_t>> flat_parameters(const PetabProblem& problem,
                                                        const PetabOptions& evaluation,
                                                        const std::vector<double>& center);

// 1 at the indices `flat`, 0 elsewhere (n entries): HopDraw::flat.
std::vector<char> flat_mask(const std::vector<std::size_t>& flat, std::size_t n);

// Draw `attempt` (from 1) for hop start `index` whose point could not be
// simulated: from the round's distribution, as its first point was.
std::vector<double> hop_redraw(const PetabProblem& problem, const HopDraw& hop,
                               std::uint64_t seed, std::size_t index, std::size_t attempt);

// The parameters (indices, increasing) that point `position` of draw's
// round redraws as a block (its row of draw.blocks); empty where it redraws
// none: StartResult::redrawn.
std::vector<std::size_t> redrawn_parameters(const HopDraw& draw, std::size_t position);

// `count` points of draw's round: normal around its center on the scales
// with standard deviation sigma, clipped to the box, and its flat
// parameters uniform in the scaled box (taken to their initialization
// priors: PetabProblem::start_value); the same for the same seed and round
// (std::mt19937_64 and Box-Muller from its raw output, not the standard
// distributions, whose algorithms differ between libraries).
std::vector<std::vector<double>> hop_points(const PetabProblem& problem, const HopDraw& draw,
                                            std::size_t count, std::uint64_t seed);

}  // namespace odesens::fitting
