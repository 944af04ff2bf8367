#include "integrate/cvodes/adjoint_driver.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/number_text.hpp"
#include "core/usable_memory.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {
namespace {

// lambda' = -J_x^T lambda (user data: the Session).
int adjoint_rhs(sunrealtype t, N_Vector y, N_Vector lambda, N_Vector lambda_dot, void* data) {
  auto* s = static_cast<Session*>(data);
  return s->guard().run([&] {
    s->ask_interrupt(t);
    double* out = N_VGetArrayPointer(lambda_dot);
    s->model().vjp_x(t, N_VGetArrayPointer(y), s->params().data(), 1,
                     N_VGetArrayPointer(lambda), out, s->workspace());
    for (std::size_t i = 0; i < s->nx(); ++i) out[i] = -out[i];
    return all_finite(out, s->nx());
  });
}

// q' = -J_p^T lambda: the gradient's integral, backwards.
int adjoint_quadrature(sunrealtype t, N_Vector y, N_Vector lambda, N_Vector q_dot, void* data) {
  auto* s = static_cast<Session*>(data);
  return s->guard().run([&] {
    double* out = N_VGetArrayPointer(q_dot);
    s->model().vjp_p(t, N_VGetArrayPointer(y), s->params().data(), 1,
                     N_VGetArrayPointer(lambda), out, s->workspace());
    for (std::size_t j = 0; j < s->np(); ++j) out[j] = -out[j];
    return all_finite(out, s->np());
  });
}

}  // namespace

std::string backward_hint(const BackwardTolerances& t, std::int64_t max_steps) {
  std::string hint = " [backward problem: rtol_adjoint = " + number_text(t.rtol_adjoint) +
                     ", atol_adjoint = " + number_text(t.atol_adjoint);
  if (!t.atol_quadrature.empty()) {
    const auto [lo, hi] = std::minmax_element(t.atol_quadrature.begin(), t.atol_quadrature.end());
    hint += ", rtol_quadrature = " + number_text(t.rtol_quadrature) + ", atol_quadrature in [" +
            number_text(*lo) + ", " + number_text(*hi) + "]";
  }
  return hint + ", max_steps = " + std::to_string(max_steps) +
         "; loosen these options or raise max_steps]";
}

AdjointDriver::AdjointDriver(Session& session, integrate::EventRunner& events,
                             const AdjointDriverSettings& settings)
    : session_(session),
      events_(events),
      settings_(settings),
      nx_(session.nx()),
      np_(session.np()),
      found_(std::max<std::size_t>(events.n_roots(), 1)) {}

// --- forward ----------------------------------------------------------------

namespace {

template <typename T>
double bytes_of(const std::vector<T>& v) {
  return static_cast<double>(v.capacity() * sizeof(T));
}

double bytes_of(const integrate::Instant& instant) {
  double b = bytes_of(instant.x_minus) + bytes_of(instant.f_minus) +
             bytes_of(instant.f_plus) + bytes_of(instant.x_plus) + bytes_of(instant.steps) +
             bytes_of(instant.fired);
  for (const auto& step : instant.steps) b += bytes_of(step.x_eval);
  for (const auto& firing : instant.fired) b += bytes_of(firing.x_fired);
  return b;
}

}  // namespace

void AdjointDriver::open_segment(double t, const double* x) {
  Segment s;
  s.t_begin = s.t_end = t;
  s.x_begin.assign(x, x + nx_);
  segment_bytes_ += static_cast<double>(sizeof(Segment)) + bytes_of(s.x_begin);
  segments_.push_back(std::move(s));
  live_segment_ = segments_.size() - 1;
}

// Outputs at t are written after what happened there (with a restart they
// belong to the segment after it: its adjoint starts after the jump).
void AdjointDriver::write_outputs_at(double t, const double* x) {
  for (; next_output_ < times_.size() && times_[next_output_] == t; ++next_output_) {
    std::copy(x, x + nx_, x_outputs_.begin() + static_cast<std::ptrdiff_t>(next_output_ * nx_));
    segments_.back().outputs.push_back(next_output_);
  }
}

// max_steps bounds the steps between two output times, the segments
// between events included (each restart resets CVODES' own count: an event
// every 0.1 over 1e6 time units made segments until memory ran out).
void AdjointDriver::set_step_budget(double t_out) {
  const long budget = static_cast<long>(settings_.max_steps) - interval_steps_;
  if (budget <= 0)
    throw Error(Status::too_much_work,
                "CVodeF: max_steps = " + std::to_string(settings_.max_steps) +
                    " steps taken before reaching t = " + number_text(t_out) + " (at t = " +
                    number_text(segments_.back().t_end) + ", across " +
                    std::to_string(segments_.size()) +
                    " segments between the model's events); raise max_steps, or check the "
                    "model's events");
  session_.check(CVodeSetMaxNumSteps(session_.mem(), budget), "CVodeSetMaxNumSteps");
}

void AdjointDriver::set_forward_stop(double stop) {
  void* mem = session_.mem();
  // A delayed execution falls due, or a switch of t alone is one ulp ahead:
  // CVODES stops there. In CV_NORMAL mode CVODES' own time may already be
  // past the returned one, and past a switch's stop: it stepped across
  // without trouble, and its root finding locates the switch as any other
  // (a stop behind its time is refused). A stop set before and not reached
  // (CVODES returned at a root first, on it or before it) outlives the
  // restart (CVodeReInit) in this SUNDIALS, which has no
  // CVodeClearStopTime: `t > 4 + T0` at T0 = 0.5 stopped at the root on
  // 4.5 with the stop 4.5 set, and the next CVodeF, asked for no stop,
  // refused the stale one at t = 4.5. An infinite stop replaces it.
  sunrealtype t_current = 0.0;
  session_.check(CVodeGetCurrentTime(mem, &t_current), "CVodeGetCurrentTime");
  if (std::isfinite(stop) && stop >= t_current) {
    session_.check(CVodeSetStopTime(mem, stop), "CVodeSetStopTime");
    stop_set_ = stop;
  } else if (stop_set_ <= t_current) {
    session_.check(CVodeSetStopTime(mem, std::numeric_limits<double>::infinity()),
                   "CVodeSetStopTime");
    stop_set_ = std::numeric_limits<double>::infinity();
  }
}

int AdjointDriver::forward_step(double t_out, double stop) {
  void* mem = session_.mem();
  set_step_budget(t_out);
  long steps_before = 0;
  session_.check(CVodeGetNumSteps(mem, &steps_before), "CVodeGetNumSteps");
  set_forward_stop(stop);
  sunrealtype t_ret = segments_.back().t_end;
  int ncheck = 0;
  int flag = 0;
  session_.require_first_step_memory();
  try {
    const auto advance = [&] {
      return CVodeF(mem, t_out, session_.state(), &t_ret, CV_NORMAL, &ncheck);
    };
    // CVodeF keeps a root it found at or after tout to report at its next
    // call, and neither CVodeReInit nor CVodeAdjReInit forgets it (SUNDIALS
    // 6.4 to 7.5): after a restart, such a report is of the solution before
    // it, at a time before the segment (`t > 4 && t < 6` with an output on
    // 4: the solve went back to 4 and fired the event twice).
    const auto stale_root = [&](int f) {
      return f == CV_ROOT_RETURN && t_ret <= segments_.back().t_begin && segments_.size() > 1;
    };
    flag = advance();
    bool after_root = after_root_;
    if (stale_root(flag)) {
      flag = advance();
      after_root = true;
    }
    // Where the model has roots, CVODES refuses inputs at a root function
    // zero at the last root and just after it (a trigger at the value the
    // solution settles to), also calls after that root (x' = -k (x - a) and
    // `x < a`: x within rounding of a from t = 30.9 on, the root located at
    // 28.49): a restart sets it aside until it leaves zero (CvodesStepper).
    if (flag == CV_ILL_INPUT && (after_root || events_.n_roots() > 0)) {
      restart_without_instant(segments_.back().t_end, N_VGetArrayPointer(session_.state()));
      steps_before = 0;
      flag = advance();
      if (stale_root(flag)) flag = advance();
      // Refused again: valid input the solver cannot go on with, as in
      // RestartableCvodes (it was "an input was refused", exit status 2).
      if (flag == CV_ILL_INPUT)
        throw Error(Status::solver_failed,
                    "CVodeF found a root function zero at and just after t = " +
                        number_text(segments_.back().t_end) + ", again after a restart there");
    }
    after_root_ = flag == CV_ROOT_RETURN;
    session_.check(flag, "CVodeF");
  } catch (const Error& e) {
    if (e.status() != Status::too_much_work) throw;
    throw Error(e.status(), e.what() + std::string(" [max_steps = ") +
                                std::to_string(settings_.max_steps) +
                                " steps between output times; raise max_steps, or check the "
                                "model for stiffness or a blow-up]");
  }
  checkpoints_ = std::max(checkpoints_, ncheck);
  live_checkpoints_ = ncheck;
  segments_.back().t_end = t_ret;
  long steps_after = 0;
  session_.check(CVodeGetNumSteps(mem, &steps_after), "CVodeGetNumSteps");
  interval_steps_ += steps_after - steps_before;
  segments_.back().steps += steps_after - steps_before;
  return flag;
}

void AdjointDriver::restart_without_instant(double t, const double* x) {
  segments_.back().t_end = t;
  open_segment(t, x);
  session_.reinit(t);
  session_.check(CVodeAdjReInit(session_.mem()), "CVodeAdjReInit");
  live_checkpoints_ = 0;
  after_root_ = false;
}

void AdjointDriver::restart_after_instant(double t_end, double t, const double* x) {
  Segment& ended = segments_.back();
  ended.t_end = t_end;
  ended.ends_with_instant = true;
  ended.instant = events_.last_instant();
  segment_bytes_ += bytes_of(ended.instant);
  open_segment(t, x);
  session_.reinit(t);
  session_.check(CVodeAdjReInit(session_.mem()), "CVodeAdjReInit");
  live_checkpoints_ = 0;
  after_root_ = false;
}

namespace {

// Each N_Vector CVODES clones also carries its own copy of the vector
// operations (about 600 bytes, measured: 1.2 GB for a million Hermite
// points of one state).
constexpr double kVectorOverhead = 600.0;

}  // namespace

double AdjointDriver::interpolation_bytes() const {
  const double per_point = settings_.interpolation == CV_POLYNOMIAL ? 1.0 : 2.0;
  return per_point * (static_cast<double>(settings_.checkpoint_steps) + 1.0) *
         (8.0 * static_cast<double>(nx_) + kVectorOverhead);
}

// CVodeAdjInit's interpolation data are checkpoint_steps + 1 points of one
// (polynomial) or two (Hermite) vectors, allocated at the first CVodeF
// whatever the steps the solve takes; SUNDIALS 6 does not survive a failed
// allocation there (a segmentation fault in N_VClone, measured with
// ulimit -v). So a size beyond half the memory this process may use is
// refused before it is asked for.
void AdjointDriver::check_interpolation_memory() const {
  require_fits_in_memory(interpolation_bytes(),
                         "checkpoint_steps = " + std::to_string(settings_.checkpoint_steps) +
                             ": " + std::to_string(settings_.checkpoint_steps + 1) +
                             " interpolation points of " + std::to_string(nx_) + " states",
                         "lower checkpoint_steps (default 100)");
}

void AdjointDriver::forward(const std::vector<double>& times, double* x_out) {
  check_interpolation_memory();
  times_ = times;
  x_outputs_.assign(times.size() * nx_, 0.0);
  void* mem = session_.mem();
  session_.check(CVodeAdjInit(mem, settings_.checkpoint_steps, settings_.interpolation),
                 "CVodeAdjInit");
  double* y = N_VGetArrayPointer(session_.state());
  const double t0 = session_.t0();
  start_forward(t0, y);
  double fired = -std::numeric_limits<double>::infinity();
  std::size_t interval_of = next_output_;
  interval_steps_ = 0;
  while (next_output_ < times_.size()) {
    if (next_output_ != interval_of) {  // an output was written: a new interval
      interval_of = next_output_;
      interval_steps_ = 0;
    }
    const double t_now = segments_.back().t_end;
    const double t_switch = time_switches_.next_after(std::max(t_now, fired));
    const double before_switch =
        std::nextafter(t_switch, -std::numeric_limits<double>::infinity());
    const double t_out = times_[next_output_];
    const bool to_switch = t_switch <= t_out;
    if (to_switch &&
        (!(before_switch > t_now) || integrate::switch_within_rounding(t_now, t_switch))) {
      fired = time_switches_.last_within_rounding(t_switch);  // all read there
      if (fire_time_switch(t_switch, y)) write_outputs_at(t_switch, y);
      continue;
    }
    const double next = events_.active() ? events_.next_execution()
                                         : std::numeric_limits<double>::infinity();
    if (output_without_step(t_now, t_out, t_switch, next, y, fired)) continue;
    const bool due_now = next <= t_now || integrate::too_close_to_step(t_now, next);
    if (next <= t_out && next < t_switch && due_now) {
      execute_without_step(t_now, next, y);
      continue;
    }
    // A stop also where the switch lies beyond the output: CVODES' steps
    // pass output times and would cross the jump of f.
    const bool switch_ahead = std::isfinite(t_switch) && before_switch > t_now;
    const double stop = switch_ahead ? std::min(next, before_switch) : next;
    const int flag = forward_step(t_out, stop);
    const double t = segments_.back().t_end;
    if (to_switch && t == before_switch && flag != CV_ROOT_RETURN) {
      fired = time_switches_.last_within_rounding(t_switch);  // all read there
      if (fire_time_switch(t_switch, y)) write_outputs_at(t_switch, y);
      continue;
    }
    if (flag != CV_ROOT_RETURN && t == t_out && t == before_switch &&
        switch_turns_after(t, t_switch, y)) {
      switch_on_output(t, t, t_switch, y, fired);
      continue;
    }
    after_forward_step(flag, t, y, fired);
  }
  session_.set_event_runner(nullptr);
  std::copy(x_outputs_.begin(), x_outputs_.end(), x_out);
}

// The first segment, the events at t0, CVODES' root functions, the output
// at t0 and the switches of t ahead.
void AdjointDriver::start_forward(double t0, double* y) {
  void* mem = session_.mem();
  open_segment(t0, y);
  if (events_.active()) {
    events_.record_instants(true);
    session_.set_event_runner(&events_);
    if (events_.start(t0, y, nullptr).restart()) restart_after_instant(t0, y);
    if (events_.n_roots() > 0) {
      session_.check(CVodeRootInit(mem, static_cast<int>(events_.n_roots()),
                                   &Session::event_roots),
                     "CVodeRootInit");
      session_.check(CVodeSetNoInactiveRootWarn(mem), "CVodeSetNoInactiveRootWarn");
    }
  }
  write_outputs_at(t0, y);
  if (events_.active() && !times_.empty()) {
    // Past the last output too (CVODES' steps pass output times, and would
    // cross a jump of f there): the switch of `t <= T` with T the last
    // output is one ulp after it (Fujita_SciSignal2010 at a fit's end
    // point: "CVodeF could not advance past t = 3599.9999999999995").
    const double past_last =
        std::max(std::nextafter(times_.back(), std::numeric_limits<double>::infinity()),
                 times_.back() + (times_.back() - t0));
    time_switches_.find(events_, t0, past_last, y);
    g_switch_.resize(events_.n_roots());
  }
}

void AdjointDriver::check_crossing_resolved(double t, const double* y, const int* found) {
  state_tolerance_.resize(session_.nx());
  session_.state_tolerances(y, state_tolerance_.data());
  double h = 0.0;
  session_.check(CVodeGetLastStep(session_.mem(), &h), "CVodeGetLastStep");
  events_.check_crossing_resolved(t, y, found, std::fabs(h), state_tolerance_.data());
}

// What a step that ended at t (CVODES' flag) leaves: an instant (a root, an
// execution due) and the outputs there, or the output the step reached.
void AdjointDriver::after_forward_step(int flag, double t, double* y, double& fired) {
  void* mem = session_.mem();
  const int* roots = nullptr;
  if (flag == CV_ROOT_RETURN) {
    session_.check(CVodeGetRootInfo(mem, found_.data()), "CVodeGetRootInfo");
    if (only_fired_time_roots(t, fired)) return;  // the instant took place at `fired`
    // `t >= 4` and `t >= 4 + 40 ulps` read as one instant, the second
    // reported again after the restart: y doubled twice.
    events_.root_values(t, y, g_switch_.data());
    if (!integrate::drop_time_roots_short_of_crossing(events_.roots_of_system(),
                                                      events_.sides(), g_switch_.data(),
                                                      found_.data()))
      return;
    roots = found_.data();
    check_crossing_resolved(t, y, roots);
  }
  if (events_.active() && events_.at(t, y, nullptr, roots).restart()) {
    // On the switch just after t where the instant took its crossing
    // (TimeSwitches::restart_time): f there is on its new branch. Not
    // after the last output, where the backward problems start.
    const double t_restart = time_switches_.found() && t < times_.back()
                                 ? time_switches_.restart_time(events_, t, y, g_switch_)
                                 : t;
    if (t_restart > t) fired = t_restart;
    restart_after_instant(t, t_restart, y);
    write_outputs_at(t, y);
    if (t_restart > t) write_outputs_at(t_restart, y);
  } else if (flag != CV_ROOT_RETURN) {
    write_outputs_at(t, y);
  }
}

// The switches of t alone fire on their own (fire_time_switch), but CVODES
// finds their roots too. Where one fired within rounding after t, its
// CVODES' report at t is the same instant seen again: `t <= 4` with the
// solve stopped on 4 fired one ulp after it, and CVODES then reported its
// g = 0 at 4 twice, rising and falling; taken as crossings, they made the
// comparison true again, and an event whose trigger holds up to t = 4 fired
// a second time (SBML Test Suite case 01000).
bool AdjointDriver::only_fired_time_roots(double t, double fired) const {
  if (!time_switches_.found() || fired < t || !integrate::switch_within_rounding(t, fired))
    return false;
  const auto& roots = events_.roots_of_system();
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (found_[i] != 0 && roots[i].reads_state) return false;
  return true;
}

// An output on, or a few ulps after, the start of a segment CVODES has not
// stepped in yet (an instant at 4 and an output at 4 + 1 ulp), with no
// instant before it: CVODES does not step that little ("tout too close to t0"), and
// the state at the start stands for the state there.
bool AdjointDriver::output_without_step(double t_now, double t_out, double t_switch,
                                        double next, double* y, double& fired) {
  const Segment& seg = segments_.back();
  if (seg.t_end != seg.t_begin || !(t_out >= t_now) || !(std::min(t_switch, next) > t_out) ||
      !integrate::too_close_to_step(t_now, t_out))
    return false;
  // `t > T` with T = t_out: its g = 0 there counts as the crossing, as where
  // a step ends on T (an execution at 0.29999999999999993, then `t > 0.3`
  // with an output on 0.3: the value after it, as in every other method).
  const bool on_switch =
      t_switch < next &&
      t_out == std::nextafter(t_switch, -std::numeric_limits<double>::infinity()) &&
      switch_turns_after(t_out, t_switch, y);
  if (on_switch)
    switch_on_output(t_now, t_out, t_switch, y, fired);
  else
    write_outputs_at(t_out, y);
  return true;
}

// A delayed execution due where the solution stands, or a few ulps ahead
// of it (an instant at 4, its restart one ulp later, and an execution due
// there): CVODES does not step that little ("tout too close to t0"), and
// the state at t_now stands for the state at t_due.
void AdjointDriver::execute_without_step(double t_now, double t_due, double* y) {
  if (events_.at(t_due, y, nullptr, nullptr).restart()) restart_after_instant(t_now, t_due, y);
  write_outputs_at(t_due, y);
}

// Whether a comparison of t alone has g = 0 at t and turns at t_switch,
// one ulp after it (`t > 4` at t = 4).
bool AdjointDriver::switch_turns_after(double t, double t_switch, const double* y) {
  const auto& roots = events_.roots_of_system();
  events_.root_values(t, y, g_switch_.data());
  g_after_switch_.resize(roots.size());
  events_.root_values(t_switch, y, g_after_switch_.data());
  const std::vector<int>& sides = events_.sides();
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (!roots[i].reads_state && g_switch_[i] == 0.0 &&
        integrate::comparison_changed(roots[i], sides[i], g_after_switch_[i]))
      return true;
  return false;
}

// The switch of `t > T` with the output time T: its g = 0 at T counts as
// its crossing there, as CVODES reports a root on a step's end in
// cvodes_fsa (CVodeF keeps such a root of its own to report at its next
// call, after the output was written as the value before). The instant is
// at T, the output the value after it, and the solution restarts on the
// switch (TimeSwitches::restart_time): an event `t > 4 && t < 6 after 1`
// fires at 4 and executes at 5, as in every other method.
void AdjointDriver::switch_on_output(double t_now, double t, double t_switch, double* y,
                                     double& fired) {
  fired = t_switch;
  events_.root_values(t_switch, y, g_switch_.data());
  const bool crossed = integrate::switch_crossings(events_.roots_of_system(), events_.sides(),
                                                   g_switch_.data(), found_.data());
  if (crossed && events_.at(t, y, nullptr, found_.data()).restart()) {
    const double t_restart =
        t < times_.back() ? time_switches_.restart_time(events_, t, y, g_switch_) : t;
    restart_after_instant(t_now, t_restart, y);
    write_outputs_at(t, y);
    if (t_restart > t) write_outputs_at(t_restart, y);
    return;
  }
  write_outputs_at(t, y);
}

bool AdjointDriver::fire_time_switch(double t_switch, double* y) {
  const double t_end = segments_.back().t_end;  // one ulp before t_switch
  const double t_read = time_switches_.last_within_rounding(t_switch);
  events_.read_time_roots_until(t_read);
  events_.root_values(t_read, y, g_switch_.data());
  integrate::take_cell_ends_as_crossings(events_, t_read, y, events_.sides(), g_switch_.data(),
                                         g_after_switch_);
  if (!integrate::switch_crossings(events_.roots_of_system(), events_.sides(), g_switch_.data(),
                        found_.data()) ||
      !events_.at(t_switch, y, nullptr, found_.data()).restart())
    return false;
  restart_after_instant(t_end, t_switch, y);
  return true;
}

// --- backward ---------------------------------------------------------------

void AdjointDriver::create_problems(std::size_t count, std::size_t np) {
  void* mem = session_.mem();
  const double t_end = segments_.back().t_end;
  atol_q_ = make_vector(np > 0 ? np : 1, session_.context());
  problems_.resize(count);
  lambda_before_.assign(count * nx_, 0.0);
  lambda_minus_.assign(nx_, 0.0);
  for (BackwardProblem& bp : problems_) {
    bp.lambda = make_vector(nx_, session_.context());
    bp.q = make_vector(np > 0 ? np : 1, session_.context());
    N_VConst(0.0, bp.lambda.get());
    N_VConst(0.0, bp.q.get());
    session_.check(CVodeCreateB(mem, settings_.lmm, &bp.which), "CVodeCreateB");
    session_.capture_messages(CVodeGetAdjCVodeBmem(mem, bp.which));
    session_.check(CVodeInitB(mem, bp.which, &adjoint_rhs, t_end, bp.lambda.get()),
                   "CVodeInitB");
    session_.check(CVodeSetUserDataB(mem, bp.which, &session_), "CVodeSetUserDataB");
    session_.check(CVodeSetMaxNumStepsB(mem, bp.which, static_cast<long>(settings_.max_steps)),
                   "CVodeSetMaxNumStepsB");
    session_.attach_backward_linear_solver(bp.which);
    if (np > 0) {
      session_.check(CVodeQuadInitB(mem, bp.which, &adjoint_quadrature, bp.q.get()),
                     "CVodeQuadInitB");
      session_.check(CVodeSetQuadErrConB(mem, bp.which, SUNTRUE), "CVodeSetQuadErrConB");
    }
  }
}

// The segment's forward pass again, from its start state to a stop time at
// its end (root finding is off: its instants are known).
void AdjointDriver::recompute(std::size_t s) {
  const Segment& seg = segments_[s];
  void* mem = session_.mem();
  std::copy(seg.x_begin.begin(), seg.x_begin.end(), N_VGetArrayPointer(session_.state()));
  session_.reinit(seg.t_begin);
  session_.check(CVodeAdjReInit(mem), "CVodeAdjReInit");
  // The replay takes the steps the forward pass took in the segment (a
  // segment may span many output intervals, each within max_steps), and
  // CVODES holds the budget the forward pass left it: the segment's own
  // count with a margin, at least max_steps.
  const long replay = std::max(static_cast<long>(settings_.max_steps), seg.steps + seg.steps / 10 + 100);
  session_.check(CVodeSetMaxNumSteps(mem, replay), "CVodeSetMaxNumSteps");
  session_.check(CVodeSetStopTime(mem, seg.t_end), "CVodeSetStopTime");
  sunrealtype t_ret = seg.t_begin;
  int ncheck = 0;
  session_.check(CVodeF(mem, seg.t_end, session_.state(), &t_ret, CV_NORMAL, &ncheck), "CVodeF");
  checkpoints_ = std::max(checkpoints_, ncheck);
  live_checkpoints_ = ncheck;
  live_segment_ = s;
  ++recomputed_;
}

void AdjointDriver::start_problems(const AdjointSeeds& seeds, double t,
                                   const std::vector<Vector>& vectors) {
  void* mem = session_.mem();
  for (std::size_t b = 0; b < problems_.size(); ++b) {
    BackwardProblem& bp = problems_[b];
    backward_counters_ += session_.backward_counters(bp.which);  // CVodeReInitB zeroes them
    std::copy(vectors[b].lambda.begin(), vectors[b].lambda.end(),
              N_VGetArrayPointer(bp.lambda.get()));
    session_.check(CVodeReInitB(mem, bp.which, t, bp.lambda.get()), "CVodeReInitB");
    const BackwardTolerances& tol = seeds.tolerances(vectors[b].idle() ? 0 : vectors[b].index);
    session_.check(CVodeSStolerancesB(mem, bp.which, tol.rtol_adjoint, tol.atol_adjoint),
                   "CVodeSStolerancesB");
    if (np_ == 0) continue;
    N_VConst(0.0, bp.q.get());
    session_.check(CVodeQuadReInitB(mem, bp.which, bp.q.get()), "CVodeQuadReInitB");
    std::copy(tol.atol_quadrature.begin(), tol.atol_quadrature.end(),
              N_VGetArrayPointer(atol_q_.get()));
    session_.check(CVodeQuadSVtolerancesB(mem, bp.which, tol.rtol_quadrature, atol_q_.get()),
                   "CVodeQuadSVtolerancesB");
  }
}

void AdjointDriver::read_problems(std::vector<Vector>& vectors) {
  void* mem = session_.mem();
  sunrealtype t_ret = 0.0;
  for (std::size_t b = 0; b < problems_.size(); ++b) {
    BackwardProblem& bp = problems_[b];
    session_.check(CVodeGetB(mem, bp.which, &t_ret, bp.lambda.get()), "CVodeGetB");
    const double* l = N_VGetArrayPointer(bp.lambda.get());
    std::copy(l, l + nx_, vectors[b].lambda.begin());
    if (np_ == 0) continue;
    session_.check(CVodeGetQuadB(mem, bp.which, &t_ret, bp.q.get()), "CVodeGetQuadB");
    const double* q = N_VGetArrayPointer(bp.q.get());
    for (std::size_t j = 0; j < np_; ++j) vectors[b].gradient[j] += q[j];
  }
}

// A failed backward solve names the tolerances and limit it ran with.
void AdjointDriver::backward_to(double t, const AdjointSeeds& seeds) {
  session_.set_replay_guard(&replay_);
  const int flag = CVodeB(session_.mem(), t, CV_NORMAL);
  session_.set_replay_guard(nullptr);
  // CVODES' check that the backward problems lie within the forward
  // interval fails on spans so short that their steps underflow (below
  // about 1e-160 from t0 = 0): said without CVODES' internals.
  if (flag == CV_BAD_TB0)
    throw Error(Status::solver_failed,
                "cvodes_asa: CVODES found a backward problem outside the forward interval [" +
                    number_text(segments_.front().t_begin) + ", " +
                    number_text(segments_.back().t_end) +
                    "], as on spans too short for its backward steps; cvodes_fsa or "
                    "erk_adjoint give the gradient over such a span");
  try {
    session_.check(flag, "CVodeB");
  } catch (const Error& e) {
    if (e.status() == Status::not_finite || e.status() == Status::callback_failed ||
        e.status() == Status::interrupted)
      throw;
    throw Error(e.status(), e.what() + backward_hint(seeds.tolerances(0), settings_.max_steps));
  }
}

// The seeds' jumps of the outputs at t (those of the segment from
// outputs[o] on, in reverse order; o moves past them).
void AdjointDriver::add_jumps_at(const AdjointSeeds& seeds, const Segment& seg,
                                 double t, std::size_t& o, std::vector<Vector>& vectors) const {
  for (; o < seg.outputs.size(); ++o) {
    const std::size_t k = seg.outputs[seg.outputs.size() - 1 - o];
    if (times_[k] != t) break;
    const double* x = x_outputs_.data() + k * nx_;
    for (Vector& v : vectors)
      if (!v.idle()) seeds.add_output_jump(v.index, k, x, v.lambda.data());
  }
}

// The jumps of the outputs at t and of those a few ulps before it, which
// CVODES does not step back to ("tout too close to t0"): two outputs one
// ulp apart, or an output just before a segment's end.
void AdjointDriver::add_jumps_within(const AdjointSeeds& seeds, const Segment& seg, double t,
                                     std::size_t& o, std::vector<Vector>& vectors) const {
  while (o < seg.outputs.size()) {
    const double t_output = times_[seg.outputs[seg.outputs.size() - 1 - o]];
    if (!(t_output <= t) || !integrate::too_close_to_step(t_output, t)) return;
    add_jumps_at(seeds, seg, t_output, o, vectors);
  }
}

// At an output time inside a segment: the problems whose lambda jumps
// there restart from lambda + jump (their quadrature so far is added to
// the gradient); the others go on undisturbed.
void AdjointDriver::jump_problems(const AdjointSeeds& seeds, const Segment& seg, double t, std::size_t& o,
                                  std::vector<Vector>& vectors) {
  void* mem = session_.mem();
  sunrealtype t_ret = t;
  for (std::size_t b = 0; b < problems_.size(); ++b) {
    session_.check(CVodeGetB(mem, problems_[b].which, &t_ret, problems_[b].lambda.get()),
                   "CVodeGetB");
    const double* l = N_VGetArrayPointer(problems_[b].lambda.get());
    vectors[b].lambda.assign(l, l + nx_);
    std::copy(l, l + nx_, lambda_before_.begin() + static_cast<std::ptrdiff_t>(b * nx_));
  }
  add_jumps_within(seeds, seg, t, o, vectors);
  for (std::size_t b = 0; b < problems_.size(); ++b) {
    if (std::equal(vectors[b].lambda.begin(), vectors[b].lambda.end(),
                   lambda_before_.begin() + static_cast<std::ptrdiff_t>(b * nx_)))
      continue;
    BackwardProblem& bp = problems_[b];
    if (np_ > 0) {
      session_.check(CVodeGetQuadB(mem, bp.which, &t_ret, bp.q.get()), "CVodeGetQuadB");
      const double* q = N_VGetArrayPointer(bp.q.get());
      for (std::size_t j = 0; j < np_; ++j) vectors[b].gradient[j] += q[j];
    }
    backward_counters_ += session_.backward_counters(bp.which);  // CVodeReInitB zeroes them
    std::copy(vectors[b].lambda.begin(), vectors[b].lambda.end(),
              N_VGetArrayPointer(bp.lambda.get()));
    session_.check(CVodeReInitB(mem, bp.which, t, bp.lambda.get()), "CVodeReInitB");
    if (np_ > 0) {
      N_VConst(0.0, bp.q.get());
      session_.check(CVodeQuadReInitB(mem, bp.which, bp.q.get()), "CVodeQuadReInitB");
    }
  }
}

// One segment backward: from its end (after the outputs there) through
// the outputs inside it to its start, then across the instant before it.
void AdjointDriver::sweep_segment(const AdjointSeeds& seeds, std::size_t s,
                                  std::vector<Vector>& vectors) {
  const Segment& seg = segments_[s];
  std::size_t o = 0;  // outputs done, from the last
  // Outputs at the end, or a few ulps before it, which CVODES does not
  // step back to ("tout too close to t0"): their seeds start lambda.
  const auto output_time = [&] { return times_[seg.outputs[seg.outputs.size() - 1 - o]]; };
  add_jumps_within(seeds, seg, seg.t_end, o, vectors);
  if (seg.t_end > seg.t_begin) {
    if (live_segment_ != s) recompute(s);
    replay_.arm(session_.mem(), live_checkpoints_, settings_.checkpoint_steps);
    start_problems(seeds, seg.t_end, vectors);
    while (o < seg.outputs.size()) {
      const double t = output_time();
      // Outputs a few ulps after the start are at it: CVODES does not step
      // that little ("tout too close to t0").
      if (!(t > seg.t_begin) || integrate::too_close_to_step(seg.t_begin, t)) break;
      backward_to(t, seeds);
      jump_problems(seeds, seg, t, o, vectors);
    }
    backward_to(seg.t_begin, seeds);
    read_problems(vectors);
  }
  // The outputs left are at the segment's start, or at the instant one ulp
  // before it whose restart moved to the switch of f (TimeSwitches::
  // restart_time): their values are after the instant, so their seeds
  // come before its jump.
  while (o < seg.outputs.size()) add_jumps_at(seeds, seg, output_time(), o, vectors);
  if (s > 0 && segments_[s - 1].ends_with_instant) {
    for (Vector& v : vectors) {
      if (v.idle()) continue;
      events_.adjoint_jump(segments_[s - 1].instant, v.lambda.data(), lambda_minus_.data(),
                           v.gradient.data(), 0.0, &v.owed);
      v.lambda.swap(lambda_minus_);
    }
  }
}

// Sweep k's vectors, one per backward problem: the first sweep takes
// vectors 0 .. P-1; later ones leave problem 0 idle (it carries vector 0,
// the objective, in the first sweep only) and take P-1 more each. With
// one problem, sweep k takes vector k.
std::vector<AdjointDriver::Vector> AdjointDriver::sweep_vectors(std::size_t k,
                                                                std::size_t count) const {
  const std::size_t P = problems_.size();
  std::vector<Vector> vectors(P);
  for (std::size_t b = 0; b < P; ++b) {
    Vector& v = vectors[b];
    v.lambda.assign(nx_, 0.0);
    v.gradient.assign(np_, 0.0);
    const std::size_t index = P == 1   ? k
                              : k == 0 ? b
                              : b == 0 ? Vector::kIdle
                                       : P + (k - 1) * (P - 1) + b - 1;
    v.index = index < count ? index : Vector::kIdle;
  }
  return vectors;
}

void AdjointDriver::sweep(const AdjointSeeds& seeds, std::size_t k, double* gradients) {
  ++sweeps_;
  std::vector<Vector> vectors = sweep_vectors(k, seeds.count());
  for (std::size_t s = segments_.size(); s-- > 0;) sweep_segment(seeds, s, vectors);
  // dG/dp = lambda(t0-)^T dx0/dp + the integrals and jumps.
  const auto& s0 = session_.initial_sensitivity();
  for (const Vector& v : vectors) {
    if (v.idle()) continue;
    double* g = gradients + v.index * np_;
    for (std::size_t j = 0; j < np_; ++j) {
      double value = v.gradient[j];
      for (std::size_t i = 0; i < nx_; ++i) value += v.lambda[i] * s0[i + j * nx_];
      g[j] = value;
    }
  }
}

void AdjointDriver::backward(const AdjointSeeds& seeds, double* gradients) {
  const std::size_t count = seeds.count();
  if (count == 0) return;
  // CVodeB recomputes the forward solution between checkpoints, one step
  // at a time; the roots inside a segment changed nothing, and a root
  // return there would end a recomputed step early: root finding is off.
  if (events_.n_roots() > 0)
    session_.check(CVodeRootInit(session_.mem(), 0, nullptr), "CVodeRootInit");
  const std::size_t P = std::min(std::max<std::size_t>(settings_.batch, 1), count);
  create_problems(P, np_);
  const std::size_t sweeps = P == 1       ? count
                             : P >= count ? 1
                                          : 1 + (count - P + P - 2) / (P - 1);
  try {
    for (std::size_t k = 0; k < sweeps; ++k) sweep(seeds, k, gradients);
  } catch (const ReplayOverflow& overflow) {
    hold_whole_segments(overflow, P);
    try {
      for (std::size_t k = 0; k < sweeps; ++k) sweep(seeds, k, gradients);
    } catch (const ReplayOverflow& again) {
      throw Error(Status::solver_failed,
                  std::string("cvodes_asa: ") + again.what() +
                      ", again after the segments were held whole; cvodes_fsa or erk_adjoint "
                      "give the gradient without recomputing");
    }
  }
  for (const BackwardProblem& bp : problems_)
    backward_counters_ += session_.backward_counters(bp.which);
}

// After a recomputation that needed more steps than the forward pass
// (replay_guard.hpp): the adjoint memory again, with room for the most
// steps a segment took (and a margin), so that recomputing a segment
// stores all its steps from its start and nothing is recomputed from a
// checkpoint; then every segment is recomputed on its turn.
void AdjointDriver::hold_whole_segments(const ReplayOverflow& overflow, std::size_t problems) {
  long most = 0;
  for (const Segment& seg : segments_) most = std::max(most, seg.steps);
  const long whole = most + most / 10 + 100;
  if (whole <= settings_.checkpoint_steps)
    throw Error(Status::solver_failed,
                std::string("cvodes_asa: ") + overflow.what() + " (a segment of " +
                    std::to_string(most) + " steps within checkpoint_steps = " +
                    std::to_string(settings_.checkpoint_steps) +
                    "); cvodes_fsa or erk_adjoint give the gradient without recomputing");
  ++widened_;
  settings_.checkpoint_steps = whole;
  try {
    check_interpolation_memory();
  } catch (const Error& e) {
    throw Error(e.status(), std::string("cvodes_asa: ") + overflow.what() +
                                ", and holding whole segments does not fit: " + e.what());
  }
  void* mem = session_.mem();
  CVodeAdjFree(mem);  // the backward problems with it
  session_.check(CVodeAdjInit(mem, settings_.checkpoint_steps, settings_.interpolation),
                 "CVodeAdjInit");
  create_problems(problems, np_);
  live_segment_ = segments_.size();  // none: each is recomputed
  replay_.disarm();
}

double AdjointDriver::checkpoint_bytes() const {
  // Checkpoints hold the integrator's history (up to 13 vectors for Adams,
  // 6 for BDF), besides the interpolation data of one interval.
  const double history = settings_.lmm == CV_ADAMS ? 13.0 : 6.0;
  return history * static_cast<double>(checkpoints_) *
             (8.0 * static_cast<double>(nx_) + kVectorOverhead) +
         interpolation_bytes();
}

}  // namespace odesens::cvodes
