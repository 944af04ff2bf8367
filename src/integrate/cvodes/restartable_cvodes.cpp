#include "integrate/cvodes/restartable_cvodes.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {

RestartableCvodes::RestartableCvodes(Session& session, CvodesStepper& stepper,
                                     std::size_t n_roots, SensitivityColumns* sensitivities,
                                     double final_stop)
    : session_(session),
      stepper_(stepper),
      sensitivities_(sensitivities),
      nx_(session.nx()),
      ns_(sensitivities ? sensitivities->columns() : 0),
      final_stop_(final_stop),
      handler_(*this),
      found_(std::max<std::size_t>(n_roots, 1), 0),
      full_(nx_ * (1 + ns_)) {
  stepper_.set_instant_handler(&handler_, n_roots);
  if (n_roots > 0) {
    session.check(CVodeRootInit(session.mem(), static_cast<int>(n_roots), &Session::event_roots),
                  "CVodeRootInit");
    session.check(CVodeSetNoInactiveRootWarn(session.mem()), "CVodeSetNoInactiveRootWarn");
  }
}

void RestartableCvodes::Handler::at_instant(double, const int* found) {
  if (found) {
    std::copy(found, found + owner_.found_.size(), owner_.found_.begin());
    owner_.roots_found_ = true;
  } else {
    owner_.at_stop_ = true;
  }
}

const double* RestartableCvodes::x() const {
  const double* state = N_VGetArrayPointer(session_.state());
  if (ns_ == 0) return state;
  std::copy(state, state + nx_, full_.begin());
  sensitivities_->at(stepper_.t(), full_.data(), full_.data() + nx_);
  return full_.data();
}

void RestartableCvodes::interpolate(double t, double* out) {
  stepper_.interpolate(t, out);
  if (ns_ > 0) sensitivities_->at(t, out, out + nx_);
}

double RestartableCvodes::root_tolerance() const {
  // CVODES' own (cvRcheck3): 100 units of roundoff in |t| + |h|.
  double h = 0.0;
  CVodeGetLastStep(session_.mem(), &h);
  return 100.0 * std::numeric_limits<double>::epsilon() * (std::fabs(t()) + std::fabs(h));
}

bool RestartableCvodes::state_tolerances(const double* x, double* tol) const {
  session_.state_tolerances(x, tol);
  return true;
}

double RestartableCvodes::last_step() const {
  double h = 0.0;
  CVodeGetLastStep(session_.mem(), &h);
  return std::fabs(h);
}

void RestartableCvodes::apply_stop_time() {
  double stop = std::min(next_stop_, final_stop_);
  // No stop ahead: one no step can reach, since CVODES keeps the last one
  // it was given (across CVodeReInit too) and has no way to clear it.
  if (!std::isfinite(stop) || !(stop > t())) stop = std::numeric_limits<double>::max();
  // After a root CVODES' own time is past the one it returned: a stop
  // behind it (one ulp before a switch of t alone that its step already
  // crossed) is refused, and its root finding locates that switch instead.
  sunrealtype t_current = 0.0;
  session_.check(CVodeGetCurrentTime(session_.mem(), &t_current), "CVodeGetCurrentTime");
  if (stop < t_current) stop = std::numeric_limits<double>::max();
  if (stop == stop_set_) return;
  session_.check(CVodeSetStopTime(session_.mem(), stop), "CVodeSetStopTime");
  stop_set_ = stop;
}

void RestartableCvodes::step(double t_limit) {
  // A stop time reached is restarted from, so that no step after it
  // depends on how CVODES treats a stop time it has reached.
  if (at_stop_) reinit(t(), x());
  roots_found_ = false;
  // A limit within rounding of t (a restart just before an output time):
  // CVODES refuses to start toward it, and the state there is the current one.
  const double gap = t_limit - t();
  if (gap > 0.0 && gap <= 4.0 * std::numeric_limits<double>::epsilon() *
                               std::max(std::fabs(t_limit), 1.0)) {
    reinit(t_limit, x());
    return;
  }
  apply_stop_time();
  stepper_.step(t_limit);
  if (!stepper_.roots_too_close()) return;
  // A root function zero at the last root and just after it (SBML Test
  // Suite case 00755: the trigger S1 < 0.5 where S1 settles to 0.5): a
  // restart there, where CVODES sets it aside until it leaves zero.
  reinit(t(), x());
  apply_stop_time();
  stepper_.step(t_limit);
  if (stepper_.roots_too_close())
    throw Error(Status::solver_failed,
                "CVode found a root function zero at and just after t = " + number_text(t()) +
                    ", again after a restart there");
}

void RestartableCvodes::restart(double t, const double* y) { reinit(t, y); }

void RestartableCvodes::reinit(double t, const double* y) {
  double* state = N_VGetArrayPointer(session_.state());
  if (y != state) std::copy(y, y + nx_, state);
  session_.reinit(t);
  if (ns_ > 0) sensitivities_->restart(t, state, y + nx_);
  stepper_.restart(t);
  at_stop_ = false;
  // Whether CVodeReInit keeps the stop time differs between SUNDIALS
  // versions: it is given again before the next step.
  stop_set_ = std::numeric_limits<double>::quiet_NaN();
}

}  // namespace odesens::cvodes
