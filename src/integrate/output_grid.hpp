// Reaching the output times of a solve with any one-step integrator.
//
// By default the integrator never stops at outputs: it steps freely towards
// the last output time and each output is read from the dense output of the
// step that covers it (HNW I §II.6). Methods whose answer must come from a
// step end (no interpolant, or sensitivities defined on the grid) set
// stop_at_outputs: every step is then clipped to end exactly on the next
// output time. An output time equal to the current t gives the current x
// (x0 at t0) without stepping.
//
// Generic over the stepper through SteppedSolution, so that the ERK engine
// (erk/erk_stepped_solution.hpp) and a CVODES-based stepper share this logic.
#pragma once

#include <functional>

#include <cstddef>

namespace odesens::integrate {

// A one-step integrator as seen by the output grid.
class SteppedSolution {
 public:
  virtual ~SteppedSolution() = default;
  virtual std::size_t size() const = 0;  // values of x (n*L)
  virtual double t() const = 0;
  virtual const double* x() const = 0;
  // One accepted step towards t_limit, ending exactly on t_limit if it gets there.
  virtual void step(double t_limit) = 0;
  // x(t) for t in the last accepted step.
  virtual void interpolate(double t, double* out) = 0;
  // A new output interval begins: max_steps bounds the steps of each
  // (CVODES' mxstep per output time), not the solve's.
  virtual void begin_output_interval() {}
};

// A SteppedSolution that can start again from a given state (after an
// event or a switch of f, integrate/events/evented_solution.hpp).
class RestartableSolution : public SteppedSolution {
 public:
  // Starts again at t from y (size() values), forgetting its history.
  virtual void restart(double t, const double* y) = 0;
  // Takes the last step again so that it ends exactly at t (inside it),
  // when the solver can (else false). The dense output of a step across a
  // switch of f is not to be trusted near the switch.
  virtual bool retake(double /*t*/) { return false; }

  // Solvers that locate the roots of the model's root functions themselves
  // (CVODES): a step ends on the roots found, and located_roots() gives
  // their flags (CVODES' convention: +1 / -1 for a root crossed upward /
  // downward, 0 else) until the next step; null after a step that found none.
  virtual bool locates_roots() const { return false; }
  virtual const int* located_roots() const { return nullptr; }
  // How far a located root may lie from the true one, at the last step's end.
  virtual double root_tolerance() const { return 0.0; }
  // A time the next steps must end on (a pending execution; +inf: none),
  // for solvers that step past the t_limit of step() (they never clip).
  virtual void set_stop_time(double /*t*/) {}

  // What tells a crossing the solver located from one that lies within its
  // error (EventedSolution): the tolerance it holds each state to near x,
  // rtol |x_i| + atol_i, into tol (the states' count; false where it has
  // none), and the length of its last step (0: unknown).
  virtual bool state_tolerances(const double* /*x*/, double* /*tol*/) const { return false; }
  virtual double last_step() const { return 0.0; }
};

// Told of every accepted step of a SteppedSolution (t and the state at the
// step's end), for methods that carry something along the step grid (PBS
// carries S); any stepper that accepts one can drive them.
class StepListener {
 public:
  virtual ~StepListener() = default;
  virtual void step_taken(double t, const double* x) = 0;
};

struct OutputGridSettings {
  bool stop_at_outputs = false;  // clip steps to end on each output time
  // Direction of integration: +1, -1, or 0 to infer it from the first
  // output time. Give it when outputs are reached one call at a time: a
  // solver that stepped past an output (dense mode) must not make the next
  // call think time runs backwards.
  int direction = 0;
  // Asked every kInterruptSteps steps when set (Problem::interrupt): true
  // ends the solve with Error(interrupted) naming the time reached.
  const std::function<bool()>* interrupt = nullptr;
};

// Steps between two questions to OutputGridSettings::interrupt: a step of
// a one-step method costs several evaluations of f, as CVODES' 64
// evaluations between its questions are a few steps.
inline constexpr int kInterruptSteps = 16;

// Writes x(times[k]) to X_out + k*size() for k < count (time slowest).
// times must be monotone in the direction of integration and, unless a
// direction is given, not behind solver.t() (else Error(invalid_argument));
// repeated times are allowed. With a direction, a time behind solver.t()
// is read from the interpolant of the last step (it must lie in it).
void reach_outputs(SteppedSolution& solver, const double* times, std::size_t count,
                   const OutputGridSettings& settings, double* X_out);

// The same, each x(times[k]) handed to sink(k, x) (x valid during the
// call) instead of a buffer of them all: a method that copies the outputs
// into its result needs no second copy of every output.
using OutputSink = std::function<void(std::size_t k, const double* x)>;
void reach_outputs(SteppedSolution& solver, const double* times, std::size_t count,
                   const OutputGridSettings& settings, const OutputSink& sink);

}  // namespace odesens::integrate
