// How pbsr and exp carry S along the state solve's steps. The state solve
// steps freely (its steps do not depend on the output times) and stops
// only at the last output time. The propagator follows every step one step
// behind, so that an output time inside a step gets its S by a partial
// update from the step's left end, with x(t_out) from the solver's
// interpolant (CVodeGetDky). It needs nothing of CVODES: any stepper with a
// StepListener can drive it.
//
// With error control (update_error.hpp) a step whose estimated error
// exceeds the tolerances is split into equal pieces when it is taken: the
// states at the pieces' ends and midpoints come from the interpolant then,
// while it still covers the step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "integrate/output_grid.hpp"
#include "methods/pbs/sensitivity_propagator.hpp"

namespace odesens::pbs {

class PropagatorFollower final : public integrate::StepListener {
 public:
  PropagatorFollower(SensitivityPropagator& p, std::size_t nx, std::size_t np)
      : propagator_(p), pending_x_(nx), pending_mid_(nx), output_mid_(nx), s_out_(nx * np) {}
  // The solver whose interpolant gives midpoint states (exp_jacobian=midpoint).
  void set_solution(integrate::SteppedSolution* solution) { solution_ = solution; }
  // After an event or a switch the propagator restarts at the instant:
  // no step is pending any more.
  void restart() {
    pending_ = false;
    pieces_ = 1;
    knots_ = 0;
  }
  // The midpoint state comes from the solver's interpolant, valid over its
  // last step only: taken now, used when the step is caught up.
  void step_taken(double t, const double* x_end) override;
  // S at an output time t within the last step (or at its end), x = x(t).
  const double* sensitivity_at(double t, const double* x);
  // The same without catching up to the last step's end, even at it: the
  // propagator stays at the step's start, so that outputs inside the step
  // can still be read afterwards (an instant located at the step's end is
  // handled before them).
  const double* sensitivity_ahead(double t, const double* x);
  // The same by partial updates from the step's start alone (no
  // interpolant, no spectral outputs, which read J at the step's end): for
  // a step that crosses a switch of f, whose end is on another branch.
  const double* sensitivity_by_update(double t, const double* x);
  // The end of the step taken and not yet caught up (null: none).
  const double* pending_end(double* t) const {
    *t = pending_t_;
    return pending_ ? pending_x_.data() : nullptr;
  }
  std::int64_t grid_points = 1;

 private:
  void catch_up();
  // Samples the pieces of the pending step from the interpolant.
  void split_pending(std::int64_t pieces);
  // S at t inside a split step: through the pieces before t, then a
  // partial update; the propagator returns to the step's start.
  const double* sensitivity_in_pieces(double t, const double* x);
  // x at the midpoint of [propagator time, t], inside the last step.
  bool midpoint_state(double t, double* out);

  SensitivityPropagator& propagator_;
  integrate::SteppedSolution* solution_ = nullptr;
  bool pending_ = false, pending_mid_ok_ = false;
  double pending_t_ = 0.0;
  std::vector<double> pending_x_, pending_mid_, output_mid_, s_out_;
  // The pending step's pieces: their end times, end states and midpoint
  // states (pieces_ x nx each); grown to the largest split, then reused.
  std::int64_t pieces_ = 1;
  std::vector<double> piece_t_, piece_x_, piece_mid_;
  // A split step taken at once (the propagator is at its end), its pieces
  // kept for the outputs inside it; 0 when none.
  std::size_t knots_ = 0;
  std::vector<StepKnot> knot_;
  // Takes the pending split step piece by piece, recording each.
  void take_pieces_recorded();
  const double* sensitivity_from_knots(double t);
};

}  // namespace odesens::pbs
