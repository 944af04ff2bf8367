// Blocks of a PEtab problem's estimated parameters, for hops (docs/fit.md,
// "Hops"): parameters that only some experiments read, such as a switch
// time, a growth rate or a scaling per condition. A block's redraw changes
// only the terms of nlpost of the experiments that read it: an experiment
// whose own parameters sit in a local optimum of its term is fitted again by
// redrawing its block alone, where a draw of every parameter at once would
// unsettle the experiments already fitted.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/petab.hpp"

namespace odesens::fitting {

// The estimated parameters grouped by the set of experiments that read them
// (through a setting of their simulation condition of a model parameter
// their dynamics or observables read, of their pre-equilibration condition
// of one the dynamics read (events included), or the placeholders of their
// measurements),
// each block in increasing order and
// the blocks in order of their first parameter. Parameters that every
// experiment reads, or none, are in no block; nor, where hierarchical, the
// inner parameters (each evaluation sets them); nor those with an infinite
// bound on their scale (a block is drawn from its range, which they lack).
std::vector<std::vector<std::size_t>> parameter_blocks(const PetabProblem& problem,
                                                       bool hierarchical);

// The indices of `blocks`, worst fitted first: by the mean square of the
// finite residuals ((y - h)/sigma, PetabResult::residuals) of the
// measurements of the experiments that read each block; ties in the
// blocks' order.
std::vector<std::size_t> blocks_by_misfit(const PetabProblem& problem,
                                          const std::vector<std::vector<std::size_t>>& blocks,
                                          const std::vector<double>& residuals);

// Which parameters each of a round's `count` points redraws from its
// range: count x n entries, row k for point k, 1 for a parameter redrawn.
// Every second point (k = 1, 3, 5, ...) redraws a block: the blocks ranked
// worst fitted first by the residuals of one evaluation at center under
// `evaluation` (which its interrupt ends), point 1 takes rank first_rank,
// point 3 the next, and so on, wrapping around (a round after rounds that
// found nothing new goes on down the ranking, so that blocks that cannot be
// fitted better do not take every round). The other rows are 0 (points
// drawn around the center). Empty where the problem has no block, count is
// below 2 or the evaluation fails or is ended.
std::vector<char> block_point_mask(const PetabProblem& problem, const PetabOptions& evaluation,
                                   const std::vector<double>& center, std::size_t count,
                                   std::size_t first_rank = 0);

}  // namespace odesens::fitting
