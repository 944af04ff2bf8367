// The parts of a multi-start fit (fit.hpp) that the threaded fit and the
// MPI fit (mpi_fit.hpp) share: the starts planned, one start run, and the
// waterfall made of the starts that ended.
#pragma once

#include <atomic>
#include <optional>
#include <vector>

#include "odesens/fit.hpp"

namespace odesens::fitting {

// Error(invalid_argument) where `starts` starts of n parameters would keep
// more than 2 GiB of points and results (for the starts given as well as
// drawn: a start table of one column expands to n values a row).
void check_start_count(std::size_t starts, std::size_t n);

// Error(invalid_argument) where an initialization prior has no probability
// within its parameter's bounds: no start can be drawn from it.
void check_initialization_priors(const PetabProblem& problem);

// The starts given or drawn and the hops' (FitOptions::hop_rounds).
std::size_t starts_planned(const FitOptions& options, std::size_t starts);

// The starts given, or a Latin hypercube drawn with the seed; each checked
// (Error(invalid_argument) as fit() says) before any runs.
std::vector<std::vector<double>> planned_starts(const PetabProblem& problem,
                                                const FitOptions& options);

struct HopDraw;

// Start `index` from x0 (or, where x0 cannot be simulated, from the points
// options.resample_failed draws instead: uniform in the box, or from the
// round's distribution for a hop, `hop`); never throws: an error is the
// start's failure (its status and message, NaN values).
StartResult run_start(const PetabProblem& problem, const std::vector<double>& x0,
                      std::size_t index, const FitOptions& options,
                      const std::atomic<bool>* stop, const HopDraw* hop = nullptr);

// The fit of the starts that ended (done[k] empty: start k did not run),
// sorted into the waterfall.
FitResult waterfall(const PetabProblem& problem, const FitOptions& options, std::size_t planned,
                    std::vector<std::optional<StartResult>>& done, bool stopped);

}  // namespace odesens::fitting
