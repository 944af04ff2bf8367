// Problem: what to solve. A model, parameter values, the start time, the
// output times, tolerances and method options; plus, for adjoint methods,
// the weights of the objective.
#pragma once

#include <cstddef>
#include <functional>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "odesens/integrand.hpp"
#include "odesens/model.hpp"
#include "odesens/objective.hpp"
#include "odesens/options.hpp"

namespace odesens {

// The most output times a problem may have (every method stores at least
// the states at each of them).
inline constexpr std::size_t max_output_times = 100'000'000;
// The longest time span from t0 to the last output time.
inline constexpr double max_time_span = 1e300;
// The most objectives of one solve.
inline constexpr std::size_t max_objectives = 1'000'000;

struct Problem {
  std::shared_ptr<const Model> model;

  // Parameter values (np); empty means the model's nominal values.
  std::vector<double> params;
  // Initial state override (nx); empty means x0(p) from the model. With an
  // override, dx0/dp is initial_sensitivity below, zero when that is empty
  // (the state no longer depends on p).
  std::vector<double> initial_state;
  // dx0/dp that goes with initial_state (nx x np, column-major:
  // S0[i + j*nx] = dx0_i/dp_j), for a solve that continues another (from
  // x(T1) and S(T1)) or starts at a steady state and its S*. Empty: zero
  // with an initial_state, the model's dx0/dp without. Non-empty needs
  // initial_state and exactly nx*np finite values. The set-valued methods
  // (bounds_fsa, bounds_asa) refuse it.
  std::vector<double> initial_sensitivity;

  double t0 = 0.0;
  // Strictly increasing, all >= t0, at most max_output_times. An output at
  // t0 itself is allowed.
  std::vector<double> output_times;

  // Relative and absolute tolerances, meaning what they mean in CVODES:
  // the local error e_i of each state is kept so that
  // sqrt(mean((e_i / (rtol*|x_i| + atol_i))^2)) <= 1. atol has one entry
  // (all states) or nx entries. Unset (rtol empty, atol empty) means the
  // method's defaults (MethodInfo::default_rtol, default_atol).
  std::optional<double> rtol;
  std::vector<double> atol;
  // Maximum internal steps between two output times.
  std::int64_t max_steps = 100000;

  // The objective of every method that gives S or a gradient
  // (objective.hpp): sum_k phi_k(x(t_k), p), e.g. least squares over
  // observables. Null: the linear objective of adjoint_weights below. With
  // an objective, n_objectives is 1 and adjoint_weights is empty.
  std::shared_ptr<const Objective> objective;

  // Adjoint objective G = sum_k w_k^T x(t_k): n_t blocks of nx weights,
  // time slowest (w[i + k*nx]). Empty means G = sum_i x_i(t_final).
  // Every gradient method reads it through objective_weights().
  // With n_objectives = M > 1: M such sets, objective slowest
  // (w[i + k*nx + m*nx*n_t]); empty then means all zero (the objectives
  // are the integrals of `integrand`), as it does with an integrand.
  std::vector<double> adjoint_weights;
  // Objectives differentiated at once (methods with
  // MethodCapabilities::integrands; the others take 1). At most
  // max_objectives.
  std::size_t n_objectives = 1;
  // Running costs R_m of the objectives, psi_m = sum_k w_{k,m}^T x(t_k) +
  // integral of R_m over [t0, t_final] (integrand.hpp); null: none. Its
  // count() must be n_objectives.
  std::shared_ptr<const Integrand> integrand;

  // Sensitivity directions R of the methods that compute S·R (dopri8s):
  // (nx + np) x n_s, column-major, n_s = size / (nx + np). Rows 0..nx-1 of
  // column j perturb x(t0), rows nx.. perturb p, and the method gives
  // S(t) r_j = dx(t)/d(x0, p) r_j in Result::sr. Empty: the method's
  // `directions` option decides (dx/dp by default). Methods without
  // MethodCapabilities::directions refuse it (Status::unsupported).
  std::vector<double> sens_directions;

  // Parameter box for set-valued methods: lower and upper bounds (np each,
  // lower <= upper), or both empty.
  std::vector<double> param_lower;
  std::vector<double> param_upper;
  // Least-squares objective of the set-valued methods: F = sum over output
  // times k and states i of (d[k*nx + i] - x_i(t_k))^2, n_t x nx values
  // (time slowest), NaN where a state is not observed. Empty: F is the
  // adjoint_weights objective. Other methods refuse it.
  std::vector<double> objective_data;

  Options options;

  // Asked now and then during the solve by the methods built on CVODES
  // (cvodes_fsa, cvodes_asa, pbsr, exp: every 64 evaluations of f, S' or
  // the adjoint right-hand side) and by odesd (every 16 steps); true ends
  // the solve with Error(Status::interrupted) naming the time reached. The
  // other methods do not ask it. Empty: never
  // interrupted. A prepared session keeps the problem's and asks it in
  // every run that gives none of its own (RunInputs::interrupt); it is not
  // part of the set-up that same_set_up compares. Ensembles ask it from
  // their worker threads at once: it must be safe to call so.
  std::function<bool()> interrupt;
};

// Throws Error naming the first thing wrong with the problem (sizes,
// non-finite values, tolerances, time order).
void validate_problem(const Problem& problem);

// Error(invalid_argument) for an rtol in (0, 1) below the machine epsilon,
// which no method can meet in double precision (validate_problem, and the
// C setter when it is set).
void require_reachable_rtol(double rtol);

// Error naming the first bad solver setting: rtol (when set) NaN or Inf
// (not_finite), outside (0, 1) or below the machine epsilon; an atol entry
// NaN or Inf, or negative; max_steps below 1. atol's size is not checked
// (validate_problem checks it against nx). validate_problem and the PEtab
// evaluations (check_petab_tolerances) apply these rules.
void validate_solver_settings(const std::optional<double>& rtol, const std::vector<double>& atol,
                              std::int64_t max_steps);

// Whether two problems differ at most in what a prepared session's run
// changes (params, initial_state, initial_sensitivity, output_times): the
// same model, t0,
// tolerances, limits, objectives, directions, box, data and options.
bool same_set_up(const Problem& a, const Problem& b);

// Parameters to use: the problem's or the model's nominal values.
std::vector<double> effective_params(const Problem& problem);

// The objectives' weights, n_objectives x n_t blocks of nx (time, then
// objective slowest): the problem's adjoint_weights, or the default: G =
// sum_i x_i(t_final) for one objective without integrand, zero otherwise.
std::vector<double> objective_weights(const Problem& problem);

}  // namespace odesens
