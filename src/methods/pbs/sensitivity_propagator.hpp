// Carries S(t) = dx/dp along a state trajectory, one interval at a time,
// by the Peano-Baker update (Eq. 24, with refinement; peano_baker_update.hpp)
// or the exponential update (Eq. 18; exponential_update.hpp), chosen per
// interval by the switching rule. Workspaces are sized once; advance() does
// not allocate.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "methods/pbs/exponential_update.hpp"
#include "methods/pbs/output_interpolant.hpp"
#include "methods/pbs/peano_baker_update.hpp"
#include "methods/pbs/propagator_jacobians.hpp"
#include "methods/pbs/spectral_outputs.hpp"
#include "methods/pbs/update_error.hpp"
#include "odesens/model.hpp"
#include "odesens/pbs.hpp"

namespace odesens::pbs {

class SensitivityPropagator {
 public:
  SensitivityPropagator(const Model& model, const double* p, const Settings& settings);

  void start(double t0, const double* x0, const double* s0);
  // Estimates the error of each step (update_error.hpp). Needs the
  // midpoint states: then every step evaluates J at both ends.
  void control_error(const ErrorControlSettings& control);
  // Before advance(t1, x1, x_mid) to the end of a state solver step: the
  // estimate of the step's error, and the number of equal pieces it should
  // be split into (1 without error control). The Jacobians it evaluates
  // serve advance() when the step is taken whole.
  std::int64_t plan(double t1, const double* x1, const double* x_mid);
  // The Jacobians plan() evaluates, without the estimate: for the pieces
  // of a split step, each recorded (record_planned_step) before it is taken.
  void prepare(double t1, const double* x1, const double* x_mid);
  // Outputs inside steps can come from the interpolant (dense updates with
  // error control and Settings::interpolate_outputs).
  bool interpolates() const { return interpolates_; }
  void record_planned_step(StepKnot& knot) const;
  // The solve's output times (sorted; kept by the caller): the spectral
  // form serves a step only where it holds several of them.
  void set_output_times(const std::vector<double>* times) { output_times_ = times; }
  // S at t in (knot.t0, knot.t1) from a recorded step, into s_out.
  bool interpolate_in(const StepKnot& knot, double t, double* s_out);
  // A copy of the propagator's point (t, x, S, the left end's Jacobians),
  // and its return there: for outputs inside a step split into pieces.
  void save();
  void restore();
  // Moves from the current point to (t1, x1), t1 > current time. x_mid:
  // the state at the interval's midpoint, for the midpoint exponential
  // update (Settings::exp_jacobian), or null (left-end Jacobians).
  void advance(double t1, const double* x1, const double* x_mid = nullptr);
  // S at (t, x(t)), t > current time, by the same update over [current, t]
  // (a partial step: how output times inside a solver step get their S),
  // into s_out (nx x np); the propagator stays where it was.
  void sensitivity_at(double t, const double* x, const double* x_mid, double* s_out);
  // S at t inside the step plan() planned, from its Jacobians
  // (output_interpolant.hpp), into s_out; false where that does not apply
  // (no plan, Settings::interpolate_outputs off).
  bool interpolated_sensitivity(double t, double* s_out);

  double t() const { return t_; }
  const double* s() const { return s_.data(); }
  const Counters& counters() const { return counters_; }
  const ErrorCounters& error_counters() const { return error_counters_; }
  // Bytes held by the propagator's buffers (Stats' workspace_bytes).
  double workspace_bytes() const;

 private:
  enum class Parts { both, jx_only, jp_only };
  void evaluate(double t, const double* x, Jacobians& out, Parts parts = Parts::both);
  // right_ at (t1, x1) as the interval needs it: copied from left_
  // (constant Jacobians), evaluated, or only its J_p (midpoint exp).
  void evaluate_right_end(double t1, const double* x1, bool need_ends);
  // The switching rule: whether the interval takes the exponential update;
  // n_int: the sub-intervals the Peano-Baker update would refine it into.
  bool use_exponential(double dt, std::int64_t& n_int) const;
  // Eq. 18 over the interval, with J at its midpoint, the ends' mean or
  // the left end (Settings::exp_jacobian).
  // mid_ready: mid_ holds the Jacobians at x_mid already (plan()).
  // ends_jx: left_ and right_ hold J_x at the ends (for Settings::exp_jx).
  void exponential_interval(double dt, const double* x_mid, bool midpoint, bool jp_ends,
                            bool mid_ready, bool ends_jx);
  // Eq. 24 over the interval refined into n_int sub-intervals.
  void peano_baker_interval(double t1, const double* x1, std::int64_t n_int);
  void refined_peano_baker(double t1, const double* x1, std::int64_t n_int);
  // x at fraction w of the interval from the current point to (x1, right_).
  void interpolate(double w, double dt, const double* x1, double* out) const;
  SensitivityBlocks blocks() { return {s_, s_next_}; }
  // interpolate_in by spectral_ where it applies and is accepted.
  bool spectral_interpolation(const StepKnot& knot, double t, double* s_out);

  [[noreturn]] void throw_not_finite_jx(double t, const std::vector<double>& jx) const;

  const Model& model_;
  const double* p_;
  Settings settings_;
  std::unique_ptr<Workspace> workspace_;  // every model evaluation of this solve
  PropagatorShape shape_;
  std::size_t nx_, np_;
  // The model's J_x and J_p do not depend on t or x: evaluated once.
  bool constant_jacobians_;
  PeanoBakerUpdate peano_baker_;
  ExponentialUpdate exponential_;
  Counters counters_;

  double t_ = 0.0;
  std::vector<double> x_, x_sub_;
  Jacobians left_, right_, sub_a_, sub_b_, mid_;
  std::vector<double> s_, s_next_;
  std::vector<double> s_saved_, x_saved_;  // sensitivity_at's restore point
  bool ends_swapped_ = false;              // the last advance() swapped left_/right_

  ErrorControlSettings control_;
  std::unique_ptr<UpdateError> error_;
  // Outputs from the step's Jacobians (with error control and
  // Settings::interpolate_outputs): the step being planned, and the
  // interpolated Jacobians and S of an output.
  bool interpolates_ = false;
  StepKnot planned_knot_;
  bool knot_recorded_ = false;  // planned_knot_ holds the current plan
  mutable std::uint64_t knots_recorded_ = 0;  // the last StepKnot::id given
  Jacobians out_mid_, out_right_;
  // Outputs by one eigen-decomposition of each step's J_m
  // (Settings::spectral_outputs), where it applies; else the exponential.
  std::unique_ptr<SpectralOutputs> spectral_;
  const std::vector<double>* output_times_ = nullptr;
  // A decomposition costs about one exponential (dgeev on CaMKII's 21 x 21
  // J: 46 us; its exponentials 45-65 us): a step takes the spectral form
  // where at least this many outputs lie inside it.
  static constexpr std::size_t kSpectralOutputsPerStep = 3;
  std::size_t outputs_inside(const StepKnot& knot) const;
  std::vector<double> out_s_, out_next_;
  ErrorCounters error_counters_;
  // right_ and mid_ hold the Jacobians of the step planned to end at planned_t_.
  bool planned_ = false;
  // plan() chose the exponential update for the step (and its pieces)
  // ending here, over the Peano-Baker update its switching rule chose.
  double exponential_until_ = -INFINITY;
  double planned_t_ = 0.0;
  double saved_t_ = 0.0;
  std::vector<double> saved_x_, saved_s_;
  Jacobians saved_left_;
};

}  // namespace odesens::pbs
