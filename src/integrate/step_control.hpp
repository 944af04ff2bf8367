// Step-size control shared by the explicit RK and Rosenbrock engines: error weights with
// the meaning CVODES gives rtol/atol, the weighted RMS norm, the PI
// controller of Gustafsson (1991) and the starting step of Hairer, Nørsett &
// Wanner, "Solving ODEs I", 2nd ed., §II.4.
//
// Layout of every state buffer here: n states × `lanes` trajectories,
// interleaved state-major, value of state i in trajectory l at [i*lanes + l]
// (lanes = 1 is a plain vector). Norms are taken per trajectory; where one
// number is needed for all trajectories it is the largest (the most
// demanding trajectory decides a shared step).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <vector>

namespace odesens::integrate {

// Where an engine reset at t heads (reset needs t0 != t_end): t_end, or
// past it for a start on t_end itself (a restart on the switch one ulp
// after an instant on the last output time), which takes no step.
inline double heading_from(double t, double t_end) {
  return t != t_end ? t_end : t_end + std::max(std::fabs(t_end), 1.0);
}

// rtol and atol as in CVODES: a component is accurate enough when its error
// is below atol_i + rtol*|x_i|.
struct Tolerances {
  double rtol = 1e-6;
  double atol = 1e-8;                  // used when atol_per_state is empty
  std::vector<double> atol_per_state;  // n values, overrides atol

  // Throws Error(invalid_argument) for negative or non-finite values, a
  // per-state vector of the wrong length, or rtol = atol = 0.
  void validate(std::size_t n) const;
  double atol_of(std::size_t i) const {
    return atol_per_state.empty() ? atol : atol_per_state[i];
  }
  // What x_i = xi is held to: rtol |xi| + atol_i.
  double of(std::size_t i, double xi) const { return rtol * std::fabs(xi) + atol_of(i); }
};

// w_i = 1 / (atol_i + rtol * max(|x_old_i|, |x_new_i|)) (CVODES' ewt with the
// larger of the two ends of the step, as in Hairer's codes). x_new may be
// null: then w_i = 1 / (atol_i + rtol*|x_old_i|).
void error_weights(const Tolerances& tol, std::size_t n, std::size_t lanes, const double* x_old,
                   const double* x_new, double* w);

// sums[l] = Σ_i (e_i w_i)^2 over the states of trajectory l.
void weighted_sum_squares(std::size_t n, std::size_t lanes, const double* e, const double* w,
                          double* sums);

// max over trajectories of sqrt(mean_i (e_i w_i)^2); a step is accepted iff
// this is <= 1.
double weighted_rms_norm(std::size_t n, std::size_t lanes, const double* e, const double* w);

// What an engine knows of one attempted step, for a method that judges
// steps by its own norm (internal differences weigh the differences of
// perturbed trajectories, not each trajectory alone). Buffers are n x lanes
// in the layout above.
struct StepErrorEstimate {
  std::size_t n = 0, lanes = 1;
  double t = 0, h = 0;               // the step from t to t + h
  const double* x_old = nullptr;     // x_n
  const double* x_new = nullptr;     // the candidate x_{n+1}
  const double* err = nullptr;       // the embedded error estimate
  const double* err_low = nullptr;   // dop853's 3rd-order estimate, else null
};

// A method's error norm over all trajectories of a step: accepted iff
// <= 1, and the engine's step-size controller reads it as it would its
// own (so it must scale like the engine's estimate, O(h^(p_hat+1))).
class StepErrorNorm {
 public:
  virtual ~StepErrorNorm() = default;
  virtual double norm(const StepErrorEstimate& estimate) = 0;
};

// Settings of the PI controller; defaults are Gustafsson's gains and the
// usual safety factor and clamps.
struct PiSettings {
  double safety = 0.9;
  double factor_min = 0.2;   // h_new/h never below this
  double factor_max = 5.0;   // h_new/h never above this
  double alpha_gain = 0.7;   // alpha = alpha_gain / (p_hat + 1)
  double beta_gain = 0.4;    // beta  = beta_gain / (p_hat + 1)
};

// PI step-size controller (K. Gustafsson, ACM TOMS 17, 1991; HNW II §IV.2):
//   h_new = h * clamp(safety * err_n^-alpha * err_{n-1}^beta, factor_min, factor_max)
// p_hat is the order of the error estimate (the lower order of the pair):
// err = O(h^(p_hat+1)). After a rejection the controller falls back to the
// elementary rule safety*err^(-1/(p_hat+1)) (never above 1), and the first
// accepted step after a rejection does not grow the step.
class PiController {
 public:
  explicit PiController(int p_hat, PiSettings settings = {});

  // h_new/h after a step accepted with error err <= 1.
  double factor_after_accept(double err);
  // h_new/h after a step rejected with error err > 1.
  double factor_after_reject(double err);
  void reset();

  double alpha() const { return alpha_; }
  double beta() const { return beta_; }

 private:
  PiSettings settings_;
  int p_hat_;
  double alpha_, beta_;
  double err_previous_ = 1.0;  // neutral memory before the first accepted step
  bool rejected_last_ = false;
};

// The size of the next step attempt of an engine at t heading for t_limit:
// h_next bounded by h_max (0: no bound), shortened to end exactly on
// t_limit when it would reach it (or stop within a relative 1e-6 of it, so
// that rounding in t never leaves a sliver step at the end).
struct StepAttempt {
  double h = 0;           // the step to take
  double h_proposed = 0;  // before landing on t_limit
  bool lands = false;     // t + h == t_limit
};
// Throws Error(too_much_work) when `attempts` has reached max_steps and,
// for adaptive steps, Error(solver_failed) when the step collapses below
// 16 eps |t| (the solution may blow up there).
StepAttempt next_step_attempt(long attempts, long max_steps, double t, double t_limit,
                              double direction, double h_next, double h_max, bool adaptive);

// f(t, x) for all trajectories of a buffer (same layout as above).
using RhsCallback = std::function<void(double t, const double* x, double* f)>;

struct InitialStepInput {
  std::size_t n = 0, lanes = 1;
  double t0 = 0;
  const double* x0 = nullptr;
  const double* f0 = nullptr;  // f(t0, x0), already evaluated
  double direction = 1;        // +1 or -1: sign of t_end - t0
  int order = 1;               // order p of the method
  double h_max = 0;            // > 0: upper bound of |h|
};

// Scratch of n*lanes values each, owned by the caller.
struct InitialStepScratch {
  double* x1;
  double* f1;
  double* weights;
};

// Starting step algorithm of HNW I §II.4 (steps a–f), with one extra
// evaluation of f through `rhs`. Returns the signed step.
double initial_step(const Tolerances& tol, const InitialStepInput& in, const RhsCallback& rhs,
                    const InitialStepScratch& scratch);

}  // namespace odesens::integrate
