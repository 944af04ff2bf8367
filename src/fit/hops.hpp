// Hops (fit.hpp, FitOptions::hop_rounds): rounds of starts drawn around the
// best end point so far, after the multi-start's own starts. One driver
// serves the threaded fit and the MPI fit; each gives it the way it runs a
// batch of starts and, over MPI, the way rank 0's view of the best point
// reaches every rank.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "odesens/fit.hpp"

namespace odesens::fitting {

// Runs points[k] as start first_index + k with `options` and stores what
// ended in done[k] (left empty where a start did not run). Progress is the
// runner's, counted over the whole fit.
using BatchRunner = std::function<void(const std::vector<std::vector<double>>& points,
                                       std::size_t first_index, const FitOptions& options,
                                       std::vector<std::optional<StartResult>>& done)>;

// What every rank needs to draw the next round alike. Over MPI, rank 0
// (which alone holds the results) sends it to the others; for threads the
// identity.
struct HopState {
  std::vector<double> center;  // the best end point so far
  double best = 0.0;           // its nlpost
  double sigma = 0.0;          // the next round's standard deviation
  bool go_on = false;          // false: no further round (stopped, or nothing to hop from)
};
using HopStateShare = std::function<void(HopState&)>;

// The starts, then the hop rounds; all the starts that ended, in the order
// they ran (the caller sorts them into the waterfall). `results` is
// filled on the rank that receives the results (every one for threads).
std::vector<std::optional<StartResult>> run_starts_and_hops(
    const PetabProblem& problem, const FitOptions& options,
    const std::vector<std::vector<double>>& starts, const BatchRunner& run,
    const HopStateShare& share, const std::atomic<bool>* stop);

// The next round's standard deviation: back to hop_sigma after a round
// that lowered the best by more than 0.1 (a new optimum, by the measure of
// the count of starts at the best), else doubled, up to 4 * hop_sigma.
double next_hop_sigma(double sigma, double hop_sigma, double best_before, double best_after);

// `count` points around center: normal on the scales with standard
// deviation sigma, clipped to the box; the same for the same seed and
// round on every platform and rank.
std::vector<std::vector<double>> hop_points(const PetabProblem& problem,
                                            const std::vector<double>& center, double sigma,
                                            std::size_t count, std::uint64_t seed,
                                            std::size_t round);

}  // namespace odesens::fitting
