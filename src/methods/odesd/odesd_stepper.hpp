// The odeSD integrator as a one-step solution the output grid can drive:
// the rule and its Newton iteration (Eqs. 7-8), the g5 error estimate
// (Eq. 11) and step-size rule (Eq. 12), direct sensitivities (Eq. 15) and
// quintic Hermite output.
//
// The solution vector is y = [x; S] (n + n·n_p values, S column-major),
// carried with ẏ = [f; Ṡ] and ÿ = [a; S̈], so that predictor, estimate and
// output treat states and sensitivities alike.
//
// Linear algebra per step (the paper's reuse): with sensitivities, the
// Jacobian set is evaluated once, at the accepted x1, factored with this
// step's h for Eq. 15 and reused for the next step's Newton iteration (a
// new LU only when h changes): one Jacobian set and at most two LUs a step.
// States only, the set is evaluated at the predictor (every_step) or kept
// while Newton converges fast, with the LU of any h within 30% (lazy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "integrate/implicit/newton_matrix.hpp"
#include "integrate/output_grid.hpp"
#include "methods/odesd/model_derivatives.hpp"
#include "methods/odesd/odesd_options.hpp"
#include "odesens/status.hpp"

namespace odesens::odesd {

struct StepperStats {
  std::size_t steps = 0, attempts = 0, error_test_failures = 0, newton_failures = 0;
  std::size_t singular_matrices = 0, newton_iterations = 0;
  std::size_t sensitivity_refinements = 0;  // iterative-refinement steps of Eq. 15
  std::size_t spurious_roots = 0;  // Newton roots refused for an unresolved growing component
};

class OdesdStepper final : public integrate::RestartableSolution {
 public:
  // S0 (n x np) = dx0/dp, or null for a state-only solve. t_end bounds the
  // first step.
  OdesdStepper(const Model& model, const double* p, Workspace* ws, const Settings& settings,
               double t0, const double* x0, const double* S0, double t_end);

  std::size_t size() const override { return len_; }
  double t() const override { return t_; }
  const double* x() const override { return y0_.data(); }
  void step(double t_limit) override;
  // max_steps counts the attempts from here on.
  void begin_output_interval() override { budget_start_ = stats_.attempts; }
  void interpolate(double t, double* out) override;
  // Starts again at t from y (x, then S) after an event or a switch: the
  // first-step predictor and estimate, a fresh step size.
  void restart(double t, const double* y) override;
  bool state_tolerances(const double* x, double* tol) const override;

  const StepperStats& stats() const { return stats_; }
  const EvaluationCounts& evaluations() const { return d_.counts(); }
  const integrate::NewtonMatrixStats& matrix_stats() const { return N_.stats(); }
  integrate::NewtonBackendKind backend() const { return N_.backend(); }
  std::size_t nnz_j() const { return d_.nnz_j(); }
  std::size_t nnz_ja() const { return d_.nnz_ja(); }
  bool sparse_parameter_jacobians() const { return d_.sparse_parameter_jacobians(); }

 private:
  enum class Attempt { accepted, retry };

  Attempt attempt(double t_limit);
  // The step to a t_limit closer than the resolution of t: Taylor terms.
  Attempt step_within_rounding(double t_limit);
  // The parts of attempt (odesd_stepper.cpp says what each does).
  void check_budgets(double t_limit) const;
  [[noreturn]] void refuse_collapsed_step(double h) const;
  bool newton_matrix_for(double h, double t1);
  Attempt sensitivities_over_step(double h, double t1, double& err);
  double initial_step(double t_end);
  void begin(double t_end);
  bool set_and_factor(double h);
  void predict(double h, double* x1) const;
  double state_error(double h);
  double sensitivity_error(double h);
  double sensitivity_norm(const double* e) const;
  void solve_sensitivities(double h);
  Attempt after_newton_failure(double h, bool not_finite);
  bool turned_to_unresolved_growth(double h);
  void accept(double t1, double h, double err);
  void reject(double h, double err);
  void shrink_after_failure(double h, const char* why);
  [[noreturn]] void fail(Status status, const std::string& why, double h) const;

  const Settings& settings_;
  ModelDerivatives d_;
  integrate::NewtonMatrix N_;
  std::size_t n_, np_, len_;  // np_ = 0 without sensitivities
  double t_, t_prev_ = 0.0, h_ = 0.0, h_prev_ = 0.0, t_end_ = 0.0;
  bool has_previous_ = false;     // ym1 holds the start of the last accepted step
  bool restart_from_x0_ = false;  // Newton starts from x0 (after a failure)
  bool jacobians_at_x0_ = false;  // the held set was evaluated at (t, x0)
  bool refresh_jacobians_ = false;
  // States only: accepted steps left that set Newton's Jacobians at x0, not
  // at the predictor, since the predictor's made Newton fail (attempt()).
  long x0_jacobian_steps_ = 0;
  bool predictor_jacobians_failed_ = false;  // in the step being attempted
  bool saw_non_finite_ = false;
  double rate_ = 0.5;             // last Newton contraction
  double factored_h_ = 0.0;       // the h and Jacobian set of the LU held (0: none)
  std::uint64_t factored_version_ = 0;
  // y, ẏ, ÿ at t − h_prev (m1), t (0) and the candidate t + h (1).
  std::vector<double> ym1_, ydm1_, yddm1_, y0_, yd0_, ydd0_, y1_, yd1_, ydd1_;
  std::vector<double> weights_, delta_, err_, adot0_;
  std::vector<double> j_diagonal0_, j_diagonal1_;  // diag J at x0 and at the candidate x1
  StepperStats stats_;
  std::size_t budget_start_ = 0;  // stats_.attempts when the output interval began
};

}  // namespace odesens::odesd
