// The order of the reverse sweep over the accepted steps, by checkpointing
// mode (forward_trajectory.hpp): every step from the last to the first gets
// StepAdjoint::step_back with its stage values, and the objective's jumps
// come in between (jump(k, lambda) where x_n is the state of output k).
//
// revolve (beyond the paper): Griewank and Walther, "Algorithm 799:
// revolve", ACM TOMS 26 (2000). With c free checkpoints besides the state a
// segment starts from, reversing l steps takes at least
//     T(l, c) = r l - beta(c + 2, r - 1)   extra step advances,
// beta(s, r) = (s + r)! / (s! r!), r the least integer with
// beta(c + 1, r) >= l (T(l, 0) = l (l - 1) / 2). The schedule splits a
// segment where j + T(l - j, c - 1) + T(j, c) is least: that cost is convex
// in j, so the split is found by bisection, and the schedule makes exactly
// T(l, c) advances (plus one stage recomputation per step, as states mode).
#pragma once

#include <cstddef>
#include <functional>

#include "methods/erk_adjoint/forward_trajectory.hpp"
#include "methods/erk_adjoint/step_adjoint.hpp"

namespace odesens::erk_adjoint {

using Jump = std::function<void(std::size_t output, double* lambda)>;
// Carries lambda (and mu) back across a recorded instant (after the jumps
// of the outputs on it, whose states are the states after it).
using InstantJump =
    std::function<void(const RecordedInstant& instant, double* lambda, double* mu)>;

// checkpoints: revolve's C (ignored by the other modes).
void run_reverse(const ForwardTrajectory& trajectory, StepAdjoint& adjoint, double* lambda,
                 double* mu, const Jump& jump, std::size_t checkpoints,
                 const InstantJump& instant_jump = {});

// T(l, c) above: the fewest step advances that reverse l steps with c free
// checkpoints (saturates at 2^62).
long long revolve_advances(long long l, long long c);

}  // namespace odesens::erk_adjoint
