// S at an output time inside a state solver step without evaluating the
// model: the step's own update (Eq. 18, the exponential midpoint rule with
// J_p linear) restricted to [t_k, t_k + tau], with J_x at the sub-interval's
// midpoint and J_x and J_p at its end interpolated quadratically from their values
// at the step's start, midpoint and end, which the error estimate has
// evaluated. A partial update evaluates J at the output and at the
// sub-interval's midpoint instead; the interpolated J differ from those by
// O(h^3) (exact where J is constant, or quadratic along the step), below
// the update's own error.
#pragma once

#include <cstdint>
#include <vector>

#include "methods/pbs/propagator_jacobians.hpp"

namespace odesens::pbs {

// One step (or piece of a split step) as outputs inside it need it: its
// ends, S at its start, and J at its start, midpoint and end.
struct StepKnot {
  // Which recording this is (SensitivityPropagator::record_planned_step
  // numbers them from 1): what a cache of a knot's work keys on.
  std::uint64_t id = 0;
  double t0 = 0.0, t1 = 0.0;
  std::vector<double> s;
  Jacobians left, mid, right;
};

// The quadratic through (0, a), (1/2, m), (1, b) at u, into out (sized).
void quadratic(const std::vector<double>& a, const std::vector<double>& m,
               const std::vector<double>& b, double u, std::vector<double>& out);

// J_x (with_jx) and J_p at fraction u in [0, 1] of the knot's step, into
// out (sized as the knot's), by the quadratic through start, midpoint, end.
void interpolate_jacobians(const StepKnot& knot, double u, bool with_jx, Jacobians& out);

}  // namespace odesens::pbs
