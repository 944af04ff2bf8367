// A Rosenbrock method as data (HNW II §IV.7, form (7.4')): for a step from
// (t_n, x_n) of size h, with J = f_x(t_n, x_n) and f_t = ∂f/∂t(t_n, x_n),
//
//   (I − hγJ) k_i = h f(t_n + α_i h, x_n + Σ_{j<i} α_ij k_j)
//                   + γ_i h² f_t + hJ Σ_{j<i} γ_ij k_j,           i = 1..s,
//   x_{n+1} = x_n + Σ b_j k_j,     x̂_{n+1} = x_n + Σ b̂_j k_j,
//
// with α_i = Σ_{j<i} α_ij and γ_i = γ + Σ_{j<i} γ_ij. One matrix I − hγJ
// serves every stage, so a step costs one LU and s solves. The engine
// (rosenbrock_engine.hpp) reads these numbers only through this struct.
// Stages are numbered from 0 here.
#pragma once

namespace odesens::integrate {

struct RosenbrockTableau {
  static constexpr int max_stages = 6;

  const char* name;
  int stages;          // s
  int order;           // p of x_{n+1}
  int embedded_order;  // p̂ of x̂_{n+1}: the error estimate is O(h^(p̂+1))
  double gamma;        // γ, the diagonal of (γ_ij)
  double alpha[max_stages][max_stages];     // α_ij, strictly lower triangle
  double gamma_ij[max_stages][max_stages];  // γ_ij, strictly lower triangle
  double b[max_stages];
  double b_hat[max_stages];

  // Derived from the above by make_rosenbrock_tableau:
  double alpha_sum[max_stages];   // α_i: stage i evaluates f at t_n + α_i h
  double gamma_sum[max_stages];   // γ_i: the weight of h² f_t in stage i
  double error[max_stages];       // b_i − b̂_i: x_{n+1} − x̂_{n+1} = Σ error_j k_j
  // Stage i evaluates f at the point of stage i−1 (equal rows of α and
  // α_{i,i−1} = 0), so f is not evaluated again (GRK4A's fourth stage).
  bool same_point_as_previous[max_stages];
};

// Fills the derived members of t (its data members must be set).
constexpr RosenbrockTableau make_rosenbrock_tableau(RosenbrockTableau t) {
  for (int i = 0; i < t.stages; ++i) {
    t.alpha_sum[i] = 0.0;
    t.gamma_sum[i] = t.gamma;
    for (int j = 0; j < i; ++j) {
      t.alpha_sum[i] += t.alpha[i][j];
      t.gamma_sum[i] += t.gamma_ij[i][j];
    }
    t.error[i] = t.b[i] - t.b_hat[i];
    bool same = i > 0 && t.alpha[i][i - 1] == 0.0;
    for (int j = 0; same && j + 1 < i; ++j) same = t.alpha[i][j] == t.alpha[i - 1][j];
    t.same_point_as_previous[i] = same;
  }
  return t;
}

// GRK4A of Kaps & Rentrop: order 4, embedded order 3, 4 stages, 3 f per step.
const RosenbrockTableau& grk4a();
// ROS4 with γ = 0.57282, L-stable (R(∞) = 0): for very stiff models.
const RosenbrockTableau& ros4();
// RODAS4, stiffly accurate, 6 stages: for very stiff models.
const RosenbrockTableau& rodas4();

}  // namespace odesens::integrate
