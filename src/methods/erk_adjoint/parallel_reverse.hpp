// The reverse sweep of all adjoint vectors, split over threads: the
// vectors are cut into contiguous blocks of whole SIMD lane groups, each
// block reversed by its own StepAdjoint with its own model workspace over
// the shared (read-only) forward trajectory. Every vector's arithmetic is
// the same whatever block it is in, so results do not depend on the
// number of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "methods/erk_adjoint/checkpoint_schedule.hpp"
#include "methods/erk_adjoint/forward_trajectory.hpp"
#include "methods/erk_adjoint/step_adjoint.hpp"

namespace odesens::erk_adjoint {

// Vectors [first, first + m) reversed by one thread.
struct VectorBlock {
  std::size_t first, m;
};

// total vectors in blocks of whole lane groups, one per thread (threads 0:
// one per core); fewer blocks than threads when there are fewer than two
// lane groups per thread (each thread replays every step's stages, so a
// thin block costs more than it saves).
std::vector<VectorBlock> split_vectors(std::size_t total, std::size_t lanes,
                                       std::int64_t threads);

struct ReverseJob {
  const Model* model;
  const double* p;
  const integrate::erk::Tableau* tableau;
  const ForwardTrajectory* trajectory;
  const Integrand* integrand;  // running costs of the first n_objectives vectors, or null
  int lane_width;              // of each block's workspace
  std::size_t checkpoints;     // revolve's C
};

// Reverses every block (block 0 on the calling thread), lambda (nx x M)
// and mu (np x M) in place. jump(k, first, l): the jumps at output k of
// the block's vectors, l its lambda columns. The first failure of any
// block is rethrown once all have ended. Returns the blocks' counts summed.
using BlockJump = std::function<void(std::size_t output, std::size_t first, std::size_t m,
                                     double* lambda_block)>;
ReverseCounts reverse_in_blocks(const ReverseJob& job, const std::vector<VectorBlock>& blocks,
                                double* lambda, double* mu, const BlockJump& jump);

}  // namespace odesens::erk_adjoint
