#include "integrate/cvodes/cvodes_stepper.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <string>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {
CvodesStepper::CvodesStepper(Session& session, double t0, std::int64_t max_steps,
                             bool stop_at_outputs, integrate::StepListener* listener)
    : session_(session),
      t_(t0),
      max_steps_(max_steps),
      stop_at_outputs_(stop_at_outputs),
      listener_(listener),
      dky_(make_vector(session.nx(), session.context())) {}

const double* CvodesStepper::x() const { return N_VGetArrayPointer(session_.state()); }

void CvodesStepper::step(double t_limit) {
  if (++steps_since_output_ > max_steps_) {
    const std::string message =
        "CVode stopped at t = " + number_text(t_) + ": max_steps = " +
        std::to_string(max_steps_) + " steps taken before reaching t = " + number_text(t_limit) +
        " (raise max_steps, or check the model for stiffness or a blow-up)";
    session_.fail_blaming_nonfinite(message);
    throw Error(Status::too_much_work, message);
  }
  void* mem = session_.mem();
  if (stop_at_outputs_) session_.check(CVodeSetStopTime(mem, t_limit), "CVodeSetStopTime");
  sunrealtype t = t_;
  const double t_out = !stop_at_outputs_ && has_horizon_ ? horizon_ : t_limit;
  session_.require_first_step_memory();
  const int flag = CVode(mem, t_out, session_.state(), &t, CV_ONE_STEP);
  // CVODES checks the root functions at its last root before stepping on
  // (nothing else it refuses can follow a root return).
  roots_too_close_ = flag == CV_ILL_INPUT && after_root_;
  if (roots_too_close_) return;
  after_root_ = flag == CV_ROOT_RETURN;
  session_.check(flag, "CVode");
  // A "successful" step that does not move t: the step size has fallen
  // below the resolution of t (NaN/Inf from the model, or a blow-up). A
  // root may be found again at the start of a restart: that one is kept.
  if (!(t > t_) && !(handler_ && flag == CV_ROOT_RETURN)) {
    const std::string message = "CVode could not advance past t = " + number_text(t_) +
                                ": the step size fell below the resolution of t (the solution "
                                "may blow up there)";
    session_.fail_blaming_nonfinite(message);
    throw Error(Status::solver_failed, message);
  }
  const bool moved = t > t_;
  t_ = t;
  if (listener_ && moved) listener_->step_taken(t_, x());
  if (handler_ && (flag == CV_ROOT_RETURN || flag == CV_TSTOP_RETURN)) {
    const int* found = nullptr;
    if (flag == CV_ROOT_RETURN) {
      session_.check(CVodeGetRootInfo(mem, found_.data()), "CVodeGetRootInfo");
      found = found_.data();
    }
    handler_->at_instant(t_, found);
  }
}

void CvodesStepper::interpolate(double t, double* out) {
  if (t == t_) {  // the current state (after a restart there is no step to interpolate)
    std::copy(x(), x() + session_.nx(), out);
    return;
  }
  session_.check(CVodeGetDky(session_.mem(), t, 0, dky_.get()), "CVodeGetDky");
  const double* v = N_VGetArrayPointer(dky_.get());
  std::copy(v, v + session_.nx(), out);
}

}  // namespace odesens::cvodes
