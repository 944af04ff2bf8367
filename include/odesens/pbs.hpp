// Sensitivities from a state trajectory by the Peano-Baker series (PBSR)
// and the matrix exponential (Exp): Eriksson, Kramer, Milinanni, Nyquist,
// "Sensitivity approximation by the Peano-Baker series" (2021),
// Algorithms 2 and 3.
//
// The methods `pbsr` and `exp` integrate the states with CVODES and update
// S on the solver's own step grid. This header offers the same update on a
// grid the caller chooses, for example to study convergence.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::pbs {

enum class Algorithm {
  pbsr,  // Peano-Baker series with refinement and the switching rule, Algorithm 2
  exp    // exponential update on every interval, Algorithm 3
};

// How PBSR places the states inside a refined interval.
enum class StateInterpolation {
  linear,  // straight line between the trajectory points, as in the paper
  hermite  // cubic Hermite from x and f = dx/dt at both ends: O(dt^4) instead of O(dt^2)
};

// Where the exponential update (Eq. 18) takes its frozen J_x and J_p.
enum class ExpJacobian {
  mean,     // the mean of both ends' (trapezoidal Magnus term): second order
  left,     // at the left end of the interval, as in the paper: first order
  midpoint  // at its midpoint, the state there from the state solver's
            // interpolant: the exponential midpoint rule, second order, at
            // the same number of Jacobian evaluations per step for exp.
            // Used where a midpoint state is given (the methods pbsr and
            // exp); sensitivities_on_grid() has none and uses left.
};

// How the exponential update treats J_p over an interval.
enum class ExpJp {
  linear,  // linear in time between its values at the interval's ends:
           // S <- e^{J dt} S + dt phi1(J dt) Jp_0 + dt phi2(J dt) (Jp_1 - Jp_0).
           // Second order like the frozen form where J dt is small, and
           // right in the stiff limit, where fast components follow J_p:
           // they end at -J^{-1} Jp_1, not at the value of a frozen J_p
           // (which is off by the change of J_p over the step: a growing
           // state makes that error O(dt), whatever the tolerances).
  frozen   // held at the point exp_jacobian chooses (Eq. 18 as in the paper)
};

// How the exponential update treats the change of J_x over an interval.
enum class ExpJx {
  linear,  // J_x's departure from the frozen J_m, (J_x(t) - J_m) S(t), as
           // a forcing linear in time between its values at the ends (S
           // at the right end from the frozen update):
           // S += dt phi1 D_0 + dt phi2 (D_1 - D_0), D = (J_x - J_m) S.
           // The frozen update leaves the fast components of S at
           // -J_m^{-1} (J_x,m S + Jp_1): off by O(dt) where J_x moves over
           // a stiff step, whatever the tolerances; this ends them at
           // -J_x,1^{-1} Jp_1 as the exact solution does. Where J dt is
           // small the correction is O(dt^3), like the update's own error.
           // Needs J_x at both ends (exp evaluates them then, with or
           // without error control) and exp_jp=linear; sparse updates
           // apply D by a second action of the exponential.
  frozen   // held at the point exp_jacobian chooses (Eq. 18 as in the paper)
};

// How S is updated: with dense n x n matrices (the exponential by scaling
// and squaring, Peano-Baker transition matrices by BLAS-3), or with the
// sparse J_x (the exponential's action on [S; I] by a truncated Taylor
// series, Peano-Baker steps as sparse-times-dense products; memory O(nnz +
// nx np)). automatic: sparse when the model has a J_x pattern and at least
// sparse_threshold states, and then each exponential update by whichever
// of the sparse action and the dense exponential of the scattered J costs
// fewer flops (the sparse action needs about |J dt|_1 products: cheap for
// non-stiff models and short steps, costly for stiff ones over long steps;
// dense only up to 2000 states). sparse: always the sparse action.
enum class Updates { automatic, dense, sparse };

struct Settings {
  Algorithm algorithm = Algorithm::pbsr;
  // PBSR switches to the exponential update when the relative changes of
  // J_x and of J_p over an interval, |J_{k+1} - J_k| / |J_k| (Frobenius
  // norms), are both at most eps_tol (Algorithm 1's condition; Eq. 45 tests
  // J_x alone), or when refinement would need more than n_max sub-intervals. The interval [t_k, t_{k+1}] is refined into
  // n_int = ceil(c * dt * |J_k|) sub-intervals with x interpolated linearly.
  double eps_tol = 1e-4;
  std::int64_t n_max = 10;
  double c = 10.0;
  // Never switch: always the Peano-Baker update with refinement, as the
  // paper does for the random linear systems.
  bool force_pbs = false;
  // Most sub-intervals one step may be refined into; a step that needs more
  // (with force_pbs, or n_max above it) ends the solve with too_much_work
  // instead of running for hours. The solve's max_steps bounds it as well.
  std::int64_t max_refinement = 100000;
  std::int64_t max_steps = std::numeric_limits<std::int64_t>::max();
  StateInterpolation interpolation = StateInterpolation::linear;
  ExpJacobian exp_jacobian = ExpJacobian::midpoint;
  ExpJp exp_jp = ExpJp::linear;
  ExpJx exp_jx = ExpJx::linear;
  Updates updates = Updates::automatic;
  std::int64_t sparse_threshold = 100;
  // S at output times inside a step of the methods pbsr and exp: from the
  // step's own Jacobians by a rational form of its update (no model
  // evaluations; dense updates with the error estimate's midpoint
  // Jacobians), else by a partial update over [t_k, t_out].
  bool interpolate_outputs = true;
  // ... and there, where the step's update has J_p linear and J_x's change
  // (the defaults), by one eigen-decomposition of the step's midpoint J_x
  // for all its outputs instead of an exponential each; steps whose
  // eigenvectors are too ill-conditioned for the tolerance keep the
  // exponential (src/methods/pbs/spectral_outputs.hpp).
  bool spectral_outputs = true;
};

struct Counters {
  std::int64_t pbs_intervals = 0;    // intervals updated by Eq. 24
  std::int64_t exp_intervals = 0;    // intervals updated by Eq. 18
  std::int64_t sub_intervals = 0;    // Peano-Baker steps, refinement included
  std::int64_t jacobian_evals = 0;   // evaluations of J_x (with J_p where needed)
  std::int64_t jac_p_evals = 0;      // evaluations of J_p alone (at the ends, with midpoint J_x)
  // exp_jp=frozen: the largest relative change |Jp_1 - Jp_0| / |Jp_0| (Frobenius)
  // over an exponential step with dt |J_x|_F > 1. Fast components of S
  // lag a moving J_p by about half its change on such a step.
  double frozen_jp_lag = 0.0;
  std::int64_t output_updates = 0;   // partial updates to output times inside a step
  std::int64_t output_interpolations = 0;  // outputs inside a step from the interpolant
  std::int64_t output_spectral = 0;        // ... of them by a step's eigen-decomposition
  std::int64_t output_decompositions = 0;  // eigen-decompositions of a step's J_m for outputs
  std::int64_t output_decompositions_refused = 0;  // ill-conditioned or failed: exponential
  std::int64_t exponential_products = 0;  // sparse J products of the sparse exponential
  std::int64_t sparse_exponentials = 0;   // exponential updates taken as a sparse action
};

// S at every grid point t[k] (nx x np blocks, time slowest), from states
// x (nx per grid point) on a strictly increasing grid and S(t[0]) = s0.
std::vector<double> sensitivities_on_grid(const Model& model, const std::vector<double>& p,
                                          const std::vector<double>& t,
                                          const std::vector<double>& x,
                                          const std::vector<double>& s0,
                                          const Settings& settings, Counters* counters = nullptr);

}  // namespace odesens::pbs
