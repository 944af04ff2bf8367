// The arithmetic of one Rosenbrock step: what is evaluated once at t_n
// (f, ∂f/∂t, the nominal's J), the matrix I − hγJ, the stages of every lane
// with one LU, the new state and the error estimate.
//
// Stage right-hand sides (HNW II (7.4'), stages from 0, γ_i = γ + Σ γ_ij):
//   r_i = h f(Y_i) + γ_i h² f_t + hJ Σ_{j<i} γ_ij k_j,   (I − hγJ) k_i = r_i.
// The product hJ k_j is never formed: the stage equation gives
//   hγ J k_j = k_j − r_j,  so  hJ Σ_{j<i} γ_ij k_j = Σ_{j<i} (γ_ij/γ)(k_j − r_j)
// (what HNW's transformed variables u_i = Σ γ_ij k_j achieve), for the
// nominal lane and for frozen lanes (whose J is the nominal's W).
#include <algorithm>
#include <cmath>
#include <string>

#include "core/finite_values.hpp"
#include "core/number_text.hpp"
#include "integrate/implicit/rosenbrock_engine.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {

namespace {
// Interleaved lanes [first, m) of an n×m buffer into consecutive columns of
// a column-major block, and back.
void lanes_to_columns(std::size_t n, std::size_t m, std::size_t first, const double* X,
                      double* B) {
  for (std::size_t l = first; l < m; ++l)
    for (std::size_t i = 0; i < n; ++i) B[(l - first) * n + i] = X[i * m + l];
}
void columns_to_lanes(std::size_t n, std::size_t m, std::size_t first, const double* B,
                      double* X) {
  for (std::size_t l = first; l < m; ++l)
    for (std::size_t i = 0; i < n; ++i) X[i * m + l] = B[(l - first) * n + i];
}
}  // namespace

void RosenbrockEngine::evaluate_rhs(double t, const double* X, double* F, int stage) {
  system_.rhs(t, X, F);
  ++stats_.rhs_evaluations;
  if (!all_finite(workspace_.size(), F))
    throw Error(Status::not_finite, "f returned NaN or Inf at t = " + number_text(t) +
                                        " (stage " + std::to_string(stage + 1) + ")");
}

// f, ∂f/∂t and J at (t_n, x_n): once per step, kept over rejected attempts.
void RosenbrockEngine::prepare_step_start() {
  double* X = workspace_.x();
  if (!f_ready_) {
    evaluate_rhs(t_, X, workspace_.f_start(), 0);
    f_ready_ = true;
  }
  if (!autonomous_ && !dfdt_ready_) {
    system_.dfdt(t_, X, workspace_.dfdt_start());
    ++stats_.dfdt_evaluations;
    if (!all_finite(workspace_.size(), workspace_.dfdt_start()))
      throw Error(Status::not_finite, "df/dt returned NaN or Inf at t = " + number_text(t_));
    dfdt_ready_ = true;
  }
  // The lanes' states as columns: the nominal's J and the lanes' products.
  double* columns = workspace_.lane_states();
  lanes_to_columns(n_, m_, 0, X, columns);
  if (!jacobian_ready_) {
    system_.jacobian(t_, columns, workspace_.jacobian());
    ++stats_.jacobian_evaluations;
    ++jacobian_version_;
    if (!all_finite(workspace_.jacobian_size(), workspace_.jacobian()))
      throw Error(Status::not_finite, "the Jacobian has NaN or Inf entries at t = " +
                                          number_text(t_));
    jacobian_ready_ = true;
  }
}

// M = I − hγJ, factored unless this h and this J were factored last
// (NewtonMatrix compares coefficient and version). False when singular.
bool RosenbrockEngine::factor_matrix(double h) {
  NewtonMatrix& matrix = workspace_.newton();
  matrix.set(1.0, {{-h * tableau_.gamma, workspace_.jacobian(), jacobian_version_}});
  const bool ok = matrix.factor();
  if (!ok) ++stats_.singular;
  return ok;
}

// k (interleaved) of lanes [first, m) = M⁻¹ r of the same lanes, one solve.
void RosenbrockEngine::solve_lanes(double* r, double* k, std::size_t first) {
  if (first >= m_) return;
  double* B = workspace_.solve_block();
  lanes_to_columns(n_, m_, first, r, B);
  workspace_.newton().solve(m_ - first, B);
  columns_to_lanes(n_, m_, first, B, k);
}

// Perturbed lanes of stage i in the corrected mode, the nominal's k_i and
// r_i already known:
//   r̂_i = h f(Ŷ_i) + γ_i h² f̂_t + h Ĵ (Σ_{j<i} γ_ij k̂_j + γ k_i) − (k_i − r_i),
// where k_i − r_i = hγ W k_i (W the nominal's J).
void RosenbrockEngine::corrected_stage(int i, double h, const double* F) {
  double* const* k = workspace_.stages();
  double* r = workspace_.stage_rhs(i);
  const double* D = workspace_.dfdt_start();
  const double* columns = workspace_.lane_states();
  double* v = workspace_.product_vector();
  double* Jv = workspace_.product_result();
  const double g = tableau_.gamma, gi_h2 = tableau_.gamma_sum[i] * h * h;
  for (std::size_t l = 1; l < m_; ++l) {
    for (std::size_t q = 0; q < n_; ++q) {
      double s = g * k[i][q * m_];
      for (int j = 0; j < i; ++j) s += tableau_.gamma_ij[i][j] * k[j][q * m_ + l];
      v[q] = s;
    }
    system_.jvp(l, t_, columns + l * n_, v, Jv);
    ++stats_.jvp_evaluations;
    // Said here, not later as an f of a stage that is not finite.
    if (!all_finite(n_, Jv))
      throw Error(Status::not_finite, "the Jacobian-vector product (jvp) returned NaN or Inf at t = " +
                                          number_text(t_) + " (stage " + std::to_string(i + 1) + ")");
    for (std::size_t q = 0; q < n_; ++q) {
      const std::size_t at = q * m_ + l, nominal = q * m_;
      double s = h * F[at] + h * Jv[q] - (k[i][nominal] - r[nominal]);
      if (!autonomous_) s += gi_h2 * D[at];
      r[at] = s;
    }
  }
  solve_lanes(r, k[i], 1);
}

// Stages k_0..k_{s-1} of every lane, x_{n+1} and nothing else.
void RosenbrockEngine::compute_stages(double h) {
  const std::size_t size = workspace_.size();
  const double* X = workspace_.x();
  const double* D = workspace_.dfdt_start();
  double* const* k = workspace_.stages();
  const bool corrected = settings_.jacobian == RosenbrockJacobian::corrected && m_ > 1;
  const double* F = workspace_.f_start();
  for (int i = 0; i < tableau_.stages; ++i) {
    if (i > 0 && !tableau_.same_point_as_previous[i]) {
      double* Y = workspace_.stage_value();
      for (std::size_t q = 0; q < size; ++q) {
        double y = X[q];
        for (int j = 0; j < i; ++j) y += tableau_.alpha[i][j] * k[j][q];
        Y[q] = y;
      }
      F = workspace_.stage_f();
      evaluate_rhs(t_ + tableau_.alpha_sum[i] * h, Y, workspace_.stage_f(), i);
    }
    // r_i for all lanes (the nominal's and, when frozen, everyone's).
    double* r = workspace_.stage_rhs(i);
    const double gi_h2 = tableau_.gamma_sum[i] * h * h;
    const std::size_t lanes_here = corrected ? 1 : m_;
    for (std::size_t q = 0; q < n_; ++q) {
      for (std::size_t l = 0; l < lanes_here; ++l) {
        const std::size_t at = q * m_ + l;
        double s = h * F[at];
        if (!autonomous_) s += gi_h2 * D[at];
        for (int j = 0; j < i; ++j)
          s += tableau_.gamma_ij[i][j] / tableau_.gamma * (k[j][at] - workspace_.stage_rhs(j)[at]);
        r[at] = s;
      }
    }
    if (corrected) {
      // The nominal first: the perturbed lanes' right-hand sides need its k_i.
      double* B = workspace_.solve_block();
      for (std::size_t q = 0; q < n_; ++q) B[q] = r[q * m_];
      workspace_.newton().solve(1, B);
      for (std::size_t q = 0; q < n_; ++q) k[i][q * m_] = B[q];
      corrected_stage(i, h, F);
    } else {
      solve_lanes(r, k[i], 0);
    }
  }
  // x_{n+1} = x_n + Σ b_j k_j, compensated: the increment is summed first
  // and added with its rounding error kept in x_low (TwoSum), so that over
  // many steps the states drift by rounding only at the increments' scale.
  // Internal differences need this: σ = (x̂ − x)/ε magnifies every rounding
  // of x by 1/ε ≈ 1e8, and without compensation 10⁵ steps of rounding at
  // the states' scale dominate the error of σ.
  double* x_new = workspace_.x_candidate();
  const double* low = workspace_.x_low();
  double* low_new = workspace_.x_low_candidate();
  for (std::size_t q = 0; q < size; ++q) {
    double increment = low[q];
    for (int j = 0; j < tableau_.stages; ++j) increment += tableau_.b[j] * k[j][q];
    const double x = X[q] + increment;
    const double increment_kept = x - X[q];
    low_new[q] = (X[q] - (x - increment_kept)) + (increment - increment_kept);
    x_new[q] = x;
  }
  if (!all_finite(size, x_new))
    throw Error(Status::not_finite, "the solution became NaN or Inf after t = " + number_text(t_));
}

// Error of the step, x_{n+1} − x̂_{n+1} = Σ (b_j − b̂_j) k_j, in the weighted
// RMS norm (largest over lanes) or the method's norm; <= 1 accepts.
double RosenbrockEngine::estimate_error(double h) {
  const std::size_t size = workspace_.size();
  double* const* k = workspace_.stages();
  double* e = workspace_.error();
  for (std::size_t q = 0; q < size; ++q) {
    double s = 0;
    for (int j = 0; j < tableau_.stages; ++j) s += tableau_.error[j] * k[j][q];
    e[q] = s;
  }
  if (settings_.error_norm) {
    StepErrorEstimate estimate;
    estimate.n = n_;
    estimate.lanes = m_;
    estimate.t = t_;
    estimate.h = h;
    estimate.x_old = workspace_.x();
    estimate.x_new = workspace_.x_candidate();
    estimate.err = e;
    return settings_.error_norm->norm(estimate);
  }
  double* w = workspace_.weights();
  error_weights(settings_.tolerances, n_, m_, workspace_.x(), workspace_.x_candidate(), w);
  return weighted_rms_norm(n_, m_, e, w);
}

}  // namespace odesens::integrate
