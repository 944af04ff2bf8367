// A model's events and switches of f on any restartable one-step solver
// (docs/events.md): after each step the wrapper looks for the root
// functions whose comparison changed over the step, locates the earliest
// crossing on the step's dense output (bisection to the resolution of t),
// ends the step there, lets the EventRunner act (S jumps with it), and
// restarts the inner solver from the state after the instant. Executions
// pending after a delay cut the steps at their times.
//
// A solver that locates the roots itself (CVODES, RestartableSolution::
// locates_roots) ends its steps on them: the wrapper then only acts at the
// roots it reports and at pending executions (set_stop_time), and puts an
// instant located within the solver's root tolerance after an output time
// on that output time, as the bisection does.
//
// The solution vector is x (nx), then S (nx x ns, column-major) when the
// solver carries sensitivities. Outputs before an instant are still read
// from the inner solver's last step; the restart happens on the next step.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "integrate/events/event_runner.hpp"
#include "integrate/events/time_switches.hpp"
#include "integrate/output_grid.hpp"

namespace odesens::integrate {

class EventedSolution final : public SteppedSolution {
 public:
  // ns: the columns of S after x in the inner solution (0: states only).
  EventedSolution(RestartableSolution& inner, EventRunner& events, std::size_t nx,
                  std::size_t ns);

  // Output times (sorted, kept by the caller): an instant located within
  // the resolution of t of one of them is put on it, so that the output
  // there is the value after the instant, as CVODES gives it (also for a
  // strict t > t_out, which turns true just after t_out).
  void set_output_times(const double* times, std::size_t count) {
    output_times_ = times;
    output_count_ = count;
  }

  // An instant at t() changed the state or f: the inner solver restarts
  // there on the next step (x() is already the state after it).
  bool restart_pending() const { return restart_pending_; }

  std::size_t size() const override { return inner_.size(); }
  double t() const override { return t_; }
  const double* x() const override;
  void step(double t_limit) override;
  void begin_output_interval() override { inner_.begin_output_interval(); }
  void interpolate(double t, double* out) override;

 private:
  // The instant at t with the solution y (in-out); found: located root or null.
  void instant(double t, double* y, const int* found);
  double locate(std::size_t root, double t0, double t1);
  // The instant of one root in the step (t_from, t1]; NaN for none.
  // Whether root i, on the side side_ an instant took early, is still
  // coming to 0 from the other side with the value g (g_start_ at the
  // step's start).
  bool still_arriving(std::size_t i, double g) const;
  double instant_of_root(std::size_t i, double t_from, double t1);
  // step() without the context of an accumulation of events in its errors.
  void step_events(double t_limit);
  // step() for a solver that locates the roots itself.
  void step_located(double t_limit);
  // The parts of step_events (evented_solution.cpp says what each does).
  void restart_after_instant();
  void enter_sides();
  // Every so many steps: an error where the solution slides along a
  // switch of f (RootSides::sliding_switch).
  void watch_for_sliding();
  int steps_since_sliding_check_ = 0;
  double t_sliding_check_ = 0.0;  // t at the last check (at the start: t0)
  bool warned_off_sides_ = false;  // enter_sides warned once
  // Before an instant of located roots: EventRunner::check_crossing_resolved.
  void check_crossing_resolved(double t, const double* y, const int* found);
  double step_length_ = 0.0;        // of the last step, for a solver that does not locate roots
  std::vector<double> tolerance_;  // the states' tolerances (scratch)
  bool instants_in_step(double t0, double t1);
  // The root with the earliest instant in (t_from, t1], and that instant in
  // tau; the number of roots for none.
  std::size_t earliest_root(double t_from, double t1, double& tau);
  void mark_crossed(std::size_t first, double tau);
  bool relocate_after_retake(std::size_t first, double tau);
  // The triggers at the output times in (t0, tau), and at tau too when
  // with_tau, with the located roots: the root finder sees only the signs
  // at a step's ends, and a root function of t that changes sign twice
  // within a step (a fast oscillation against a slow state) shows no root
  // there. True when an instant at one of them restarts the solver.
  bool outputs_in_step(double t0, double tau, bool with_tau);
  bool at_output_time(double t) const;
  // The located roots (found) that crossed at tau: found_, or null for none.
  const int* crossings_at(const int* found, double tau);
  // The output time within `tolerance` before t (after t_from), else t.
  double output_time_near(double t_from, double t, double tolerance) const;

  RestartableSolution& inner_;
  EventRunner& events_;
  std::size_t nx_, ns_;
  double t_;
  double t_start_;  // the solve's t0
  const double* output_times_ = nullptr;
  std::size_t output_count_ = 0;
  bool restart_pending_ = false;
  // Steps taken again to a crossing whose state was still before it.
  static constexpr int kMaxRelocations = 4;
  int relocations_ = 0;
  // Instants in a row at one time (located roots), beyond which the root
  // finder is taken to be stuck on a root function that stays at zero.
  static constexpr int kMaxInstantsAtOneTime = 1000;
  // Instants located within one step without a restart, beyond which the
  // same: a comparison whose root function is zero over an interval (two
  // truth values compared) "crosses" at every ulp of it.
  static constexpr int kMaxInstantsInOneStep = 1000;
  int instants_here_ = 0;
  std::vector<double> y_after_, y_scratch_, g_new_, g_start_, g_end_, g_after_switch_;
  std::vector<int> side_;  // the sides at the start of the part of the step searched
  std::vector<int> found_;
  std::vector<double> root_instants_;  // by root: its instant in the step (NaN: none)
  // [from, to]: ulps a restart after an instant stepped over (to the switch
  // just after it), or from the solver to an instant taken within rounding
  // ahead of it, and the state there.
  double skipped_from_ = std::numeric_limits<double>::quiet_NaN();
  double skipped_to_ = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> y_skipped_;
  // Switches of t alone, where the steps of a solver that does not locate
  // roots end.
  TimeSwitches time_switches_;
  double fired_switch_ = -std::numeric_limits<double>::infinity();
  // The time of the last instant with located roots.
  double located_at_ = -std::numeric_limits<double>::infinity();
  void fire_time_switch(double t_switch);
  void hold_state_until(double t_instant);
  void take_zeros_as_crossed(double t_solver, double t_switch);
  // An instant pending at t_ whose state after it outputs in [after_from_, t_] take.
  double after_from_ = -std::numeric_limits<double>::infinity();
  // Drops from found_ the crossings of roots of the states settled at an
  // instant within rounding before t_switch; whether any crossing is left.
  bool keep_settled_state_roots(double t_switch);
  // Finds the switches of t alone once, over [t0, the last output time].
  void find_time_switches(double t0, double t_limit);
};

}  // namespace odesens::integrate
