// The CVODES state integration seen as a one-step solver, so that the
// CVODES-based methods reach their output times through the shared
// integrate::reach_outputs (integrate/output_grid.hpp) like every other
// method: one CVode call in CV_ONE_STEP mode per step, dense output from
// CVodeGetDky over the last step. With stop_at_outputs each step is clipped
// at the output time (CVodeSetStopTime), for methods that need a step end
// there; otherwise CVODES steps past it and the output is interpolated,
// exactly as CVode's CV_NORMAL mode does.
//
// max_steps counts steps between two output times (begin_output() starts
// a new count), the meaning CVODES gives its mxstep.
#pragma once

#include <cstdint>
#include <vector>

#include "integrate/output_grid.hpp"
#include "integrate/cvodes/cvodes_session.hpp"

namespace odesens::cvodes {

// Told when CVODES stops short of a step's end: on a root of the model's
// root functions (found: CVodeGetRootInfo's flags) or at a stop time
// (found null). It may restart the integration there (CvodesStepper::restart).
class InstantHandler {
 public:
  virtual ~InstantHandler() = default;
  virtual void at_instant(double t, const int* found) = 0;
};

class CvodesStepper final : public integrate::SteppedSolution {
 public:
  CvodesStepper(Session& session, double t0, std::int64_t max_steps, bool stop_at_outputs,
                integrate::StepListener* listener = nullptr);

  std::size_t size() const override { return session_.nx(); }
  double t() const override { return t_; }
  const double* x() const override;
  void step(double t_limit) override;
  void interpolate(double t, double* out) override;

  // Starts counting the steps toward the next output time.
  void begin_output() { steps_since_output_ = 0; }
  // The end of the whole solve, given to CVODES as its output time when
  // steps are not clipped, so that nothing about the steps (the first step
  // size included, which CVODES estimates from the first output time it
  // sees) depends on the output times. Unset: each call's limit.
  void set_horizon(double t_end) { horizon_ = t_end; has_horizon_ = true; }
  // Roots and stop times go to the handler (after the listener heard of
  // the step that ends there).
  void set_instant_handler(InstantHandler* handler, std::size_t n_roots) {
    handler_ = handler;
    found_.assign(n_roots > 0 ? n_roots : 1, 0);
  }
  // The handler re-initialised CVODES at t (CVodeReInit): steps go on from t.
  void restart(double t) {
    t_ = t;
    after_root_ = false;
  }
  // The last step() took no step: after a root, CVODES found a root
  // function zero there and just after it (a trigger at the value the
  // solution settles to), which it refuses (CV_ILL_INPUT, "Root found at
  // and very near"); after a restart there it sets such a function aside
  // until it moves away from zero (RestartableCvodes::step).
  bool roots_too_close() const { return roots_too_close_; }
  // Every output of the solve, with the grid's settings.
  integrate::OutputGridSettings grid_settings() const { return {stop_at_outputs_, +1}; }

 private:
  Session& session_;
  double t_;
  std::int64_t max_steps_;
  bool stop_at_outputs_;
  integrate::StepListener* listener_;
  std::int64_t steps_since_output_ = 0;
  double horizon_ = 0.0;
  bool has_horizon_ = false;
  VectorPtr dky_;  // CVodeGetDky's output
  InstantHandler* handler_ = nullptr;
  std::vector<int> found_;
  bool after_root_ = false;  // the last step ended on a root
  bool roots_too_close_ = false;
};

}  // namespace odesens::cvodes
