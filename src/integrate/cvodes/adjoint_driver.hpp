// The one checkpointed adjoint driver on CVODES, for a model with or
// without events (without, the solve is one segment).
//
// Forward: CVodeF records checkpoints through the output times; at every
// instant that restarts the solution (an event's assignment, a switch of
// f, a scheduled execution: integrate/events/EventRunner, recording) the
// segment ends, the integrator restarts (CVodeReInit, CVodeAdjReInit: the
// checkpoints of one segment at a time), and the driver keeps of each
// segment only its time span, its start state (nx doubles), the outputs
// written in it and the instant that ends it.
//
// Backward: the adjoint vectors (AdjointSeeds: the objective's, rows of
// S(T), ...) run in sweeps of `batch` CVODES backward problems, each
// lambda' = -J_x^T lambda with the quadrature q' = -J_p^T lambda, from the
// last segment to the first: in each, lambda jumps by the seeds' output
// terms at the output times, the segment's forward pass is recomputed from
// its start state where its checkpoints are not the ones in memory (with a
// stop time at its end), and at the instant before it lambda crosses by the
// transpose of the forward jump (EventRunner::adjoint_jump, which adds the
// instant's own part of the gradient and carries delayed events' debts).
// Finally gradient = lambda(t0-)^T dx0/dp + the integrals and jumps.
// Memory: the session's integrator, `batch` backward problems (vectors,
// Newton matrix, linear solver each) and one segment's checkpoints, whatever
// the number of rows and segments. Shaped after SUNDIALS 7's adjoint
// stepper with a checkpoint scheme: here the scheme keeps one segment's
// checkpoints and recomputes the others from their start states.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <limits>
#include <vector>

#include "integrate/cvodes/cvodes_counters.hpp"
#include "integrate/cvodes/cvodes_session.hpp"
#include "integrate/events/event_runner.hpp"
#include "integrate/events/time_switches.hpp"

namespace odesens::cvodes {

// Tolerances of one backward problem (adjoint states and quadratures).
struct BackwardTolerances {
  double rtol_adjoint = 0.0;
  double atol_adjoint = 0.0;
  double rtol_quadrature = 0.0;
  std::vector<double> atol_quadrature;  // np
};

// The adjoint vectors of a solve: how many, where they jump, their tolerances.
class AdjointSeeds {
 public:
  virtual ~AdjointSeeds() = default;
  virtual std::size_t count() const = 0;
  // Adds vector v's jump at output k into lambda (nx): d phi_k / dx at the
  // forward state x (nx) there, 0 for vectors without a term at k.
  virtual void add_output_jump(std::size_t v, std::size_t k, const double* x,
                               double* lambda) const = 0;
  virtual const BackwardTolerances& tolerances(std::size_t v) const = 0;
};

struct AdjointDriverSettings {
  int lmm;                    // CV_BDF or CV_ADAMS, as the forward problem
  int interpolation;          // CV_HERMITE or CV_POLYNOMIAL
  long checkpoint_steps;      // steps between two checkpoints
  std::int64_t max_steps;     // between two output times, forward and backward
  std::size_t batch;          // backward problems per sweep (>= 1)
};

class AdjointDriver {
 public:
  // The session's integrator is created; events: the model's (inactive
  // without), on the session's parameters and workspace.
  AdjointDriver(Session& session, integrate::EventRunner& events,
                const AdjointDriverSettings& settings);
  AdjointDriver(const AdjointDriver&) = delete;
  AdjointDriver& operator=(const AdjointDriver&) = delete;

  // Forward from t0 through the output times (sorted, >= t0); x at each
  // into x_out (nx per time, time slowest).
  void forward(const std::vector<double>& times, double* x_out);
  // Every vector of `seeds` backward, in sweeps of `batch` backward
  // problems (the first carries vector 0, the objective, which idles in
  // later sweeps): gradients (np per vector, vector slowest).
  void backward(const AdjointSeeds& seeds, double* gradients);

  std::size_t segments() const { return segments_.size(); }
  std::size_t sweeps() const { return sweeps_; }
  std::size_t backward_problems() const { return problems_.size(); }
  // The most checkpoints one segment held, and the forward recomputations.
  int checkpoints() const { return checkpoints_; }
  std::size_t recomputed_segments() const { return recomputed_; }
  // Backward passes begun again with whole segments held (replay_guard.hpp).
  std::size_t widened() const { return widened_; }
  Counters backward_counters() const { return backward_counters_; }
  // Bytes the checkpoints and interpolation data of one segment take (the
  // session's workspace_bytes() counts the integrators and solvers).
  double checkpoint_bytes() const;
  // Bytes the segments' records take (each: its start state, its outputs'
  // indices, the instant that ends it), which grow with the events.
  double segment_bytes() const { return segment_bytes_; }

 private:
  integrate::TimeSwitches time_switches_;
  // Steps of the forward pass since the last output time, across segments.
  long interval_steps_ = 0;
  // The last stop time given to CVODES in the forward pass (+inf: none).
  double stop_set_ = std::numeric_limits<double>::infinity();
  std::vector<double> g_switch_, g_after_switch_;
  std::vector<double> state_tolerance_;  // rtol |x_i| + atol_i at a located crossing
  // Before the instant of the roots CVODES found at (t, y):
  // EventRunner::check_crossing_resolved with CVODES' last step.
  void check_crossing_resolved(double t, const double* y, const int* found);
  struct Segment {
    double t_begin = 0.0, t_end = 0.0;
    std::vector<double> x_begin;
    std::vector<std::size_t> outputs;  // written in this segment, increasing
    long steps = 0;                    // the forward pass' steps in it
    bool ends_with_instant = false;
    integrate::EventRunner::Instant instant;  // at t_end, when ends_with_instant
  };
  struct BackwardProblem {  // one CVODES backward problem
    int which = -1;
    VectorPtr lambda, q;
  };
  // What one adjoint vector carries across segments.
  struct Vector {
    static constexpr std::size_t kIdle = static_cast<std::size_t>(-1);
    std::size_t index = kIdle;  // in the seeds; kIdle: the problem idles at 0
    bool idle() const { return index == kIdle; }
    std::vector<double> lambda, gradient;
    std::vector<integrate::EventRunner::DelayedAdjoint> owed;
  };

  // Bytes of CVodeAdjInit's interpolation data.
  double interpolation_bytes() const;
  // Refuses interpolation data beyond the memory at hand (out_of_memory).
  void check_interpolation_memory() const;
  void open_segment(double t, const double* x);
  void write_outputs_at(double t, const double* x);
  // stop: where the step must end at the latest (a delayed execution, or
  // one ulp before a switch of t alone), or +infinity.
  int forward_step(double t_out, double stop);
  void set_step_budget(double t_out);
  void set_forward_stop(double stop);
  void start_forward(double t0, double* y);
  // fired: the latest switch of t alone that has been fired (raised here
  // when an instant restarts the solution on the switch just after it).
  void after_forward_step(int flag, double t, double* y, double& fired);
  // The segment ends at t_end and the next begins at t (t_end < t: one ulp
  // before a switch of t alone, integrate/events/time_switches.hpp).
  void restart_after_instant(double t, const double* x) { restart_after_instant(t, t, x); }
  void restart_after_instant(double t_end, double t, const double* x);
  // The segment ends at t without an instant (CVODES restarted there).
  void restart_without_instant(double t, const double* x);
  // The instant of a switch of t alone at t_switch, the state one ulp before
  // it standing for the state there; true when it restarted the solution.
  bool fire_time_switch(double t_switch, double* y);
  // Writes the output at t_out (true) where it lies a few ulps after the
  // start t_now of a segment not stepped in yet, before the next switch of
  // t alone and the next execution (the value after a switch that turns
  // just after t_out: switch_on_output).
  bool output_without_step(double t_now, double t_out, double t_switch, double next, double* y,
                           double& fired);
  // The executions due at t_due, where the solution stands (t_now) or a
  // few ulps ahead of it, without a step; then the outputs at t_due.
  void execute_without_step(double t_now, double t_due, double* y);
  // A comparison of t alone at g = 0 at t that turns at t_switch, one ulp
  // after t; and the instant of that switch on the output time t, the
  // segment ending at t_now (t, or a few ulps before it without a step).
  bool switch_turns_after(double t, double t_switch, const double* y);
  void switch_on_output(double t_now, double t, double t_switch, double* y, double& fired);
  // Whether CVODES' roots found at t (found_) are all of t alone, with a
  // switch fired at `fired` within rounding after t.
  bool only_fired_time_roots(double t, double fired) const;
  void create_problems(std::size_t count, std::size_t np);
  // The adjoint memory anew with every segment's steps in one interval.
  void hold_whole_segments(const ReplayOverflow& overflow, std::size_t problems);
  // Replays segment s's forward pass so that its checkpoints are in memory.
  void recompute(std::size_t s);
  std::vector<Vector> sweep_vectors(std::size_t k, std::size_t count) const;
  void sweep(const AdjointSeeds& seeds, std::size_t k, double* gradients);
  void sweep_segment(const AdjointSeeds& seeds, std::size_t s,
                     std::vector<Vector>& vectors);
  // The vectors' lambda into the problems, at t (CVodeReInitB, q = 0).
  void start_problems(const AdjointSeeds& seeds, double t,
                      const std::vector<Vector>& vectors);
  // lambda from the problems into the vectors, q added to their gradients.
  void read_problems(std::vector<Vector>& vectors);
  void backward_to(double t, const AdjointSeeds& seeds);
  void add_jumps_at(const AdjointSeeds& seeds, const Segment& seg, double t,
                    std::size_t& o, std::vector<Vector>& vectors) const;
  void add_jumps_within(const AdjointSeeds& seeds, const Segment& seg, double t, std::size_t& o,
                        std::vector<Vector>& vectors) const;
  void jump_problems(const AdjointSeeds& seeds, const Segment& seg, double t, std::size_t& o,
                     std::vector<Vector>& vectors);

  Session& session_;
  integrate::EventRunner& events_;
  AdjointDriverSettings settings_;
  std::size_t nx_, np_;
  std::vector<double> times_;
  std::vector<double> x_outputs_;  // nx per output time
  std::size_t next_output_ = 0;
  std::vector<Segment> segments_;
  std::size_t live_segment_ = 0;  // whose checkpoints CVODES holds
  std::vector<int> found_;
  std::vector<BackwardProblem> problems_;
  VectorPtr atol_q_;
  // Scratch of the backward sweeps, sized with the problems: lambda of
  // every problem before an output's jumps, and lambda across an instant.
  std::vector<double> lambda_before_, lambda_minus_;
  int checkpoints_ = 0;
  int live_checkpoints_ = 0;  // CVodeF's count for the live segment
  bool after_root_ = false;   // the last CVodeF returned on a root
  ReplayGuard replay_;
  std::size_t sweeps_ = 0, recomputed_ = 0, widened_ = 0;
  double segment_bytes_ = 0.0;
  Counters backward_counters_;
};

// What to change when a backward solve fails: the tolerances it ran with
// and the limit it hit.
std::string backward_hint(const BackwardTolerances& t, std::int64_t max_steps);

}  // namespace odesens::cvodes
