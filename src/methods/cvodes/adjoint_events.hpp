// cvodes_asa on a model with events or switches of f.
//
// CVODES' adjoint module records one forward integration, which cannot be
// restarted midway; so the forward pass runs in segments, one CVODES memory
// (with its own checkpoints) from each instant that restarts the solution
// (an event's assignment, a switch of f) to the next, roots located by
// CVodeF and run by the shared EventRunner, which records each instant.
// The backward pass runs the segments in reverse: in each, the objective's
// adjoint and the gradient's quadrature (and, with final_sensitivity, one
// adjoint per row of S(T)) as in the smooth case, jumping by w_k at the
// output times; at each instant the adjoint crosses by the transpose of the
// forward jump (EventRunner::adjoint_jump, Froehlich et al. 2017), which
// also adds the instant's own part of the gradient. Delayed events are not
// run here (cvodes_fsa runs them).
#pragma once

#include <cstdint>

#include "methods/cvodes/adjoint_tolerances.hpp"
#include "integrate/cvodes/cvodes_session.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::cvodes {

struct AdjointEventSettings {
  SessionSettings session;
  int interpolation;  // CV_HERMITE or CV_POLYNOMIAL
  std::int64_t checkpoint_steps;
  bool final_sensitivity;
  AdjointToleranceOptions tolerances;
};

Result solve_adjoint_with_events(const Problem& problem, const AdjointEventSettings& settings);

}  // namespace odesens::cvodes
