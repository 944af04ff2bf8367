// The options of the method `odesd` and the typed settings read from them
// once per solve. Where the paper (Gonnet et al. 2012) is silent, the
// defaults are ours and say so in their documentation.
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/implicit/newton_matrix.hpp"
#include "integrate/step_control.hpp"
#include "odesens/options.hpp"
#include "odesens/problem.hpp"

namespace odesens::odesd {

enum class PredictorKind {
  quintic,  // Hermite quintic through (x, f, a) at the last two step ends
  taylor    // x0 + h f0 + h²/2 a0 on every step
};

enum class JacobianUpdate {
  every_step,  // one Jacobian set per step (the paper's choice)
  lazy         // keep J, J_a while Newton contracts fast, and the LU while h changes < 30%
};

struct Settings {
  integrate::Tolerances tolerances;
  std::vector<double> param_scale;  // p̄_j = |p_j| (1 when p_j = 0): S's atol_i / p̄_j
  bool sensitivities = true;
  bool sens_error_control = true;
  bool stop_at_outputs = true;  // else the quintic Hermite interpolant
  double fixed_step = 0.0;  // > 0: every step this long, no error control
  double h0 = 0.0;          // 0: from ‖f0‖ and ‖a0‖
  double h_max = 0.0;       // 0: no bound
  double factor_min = 0.2, factor_max = 5.0;
  int newton_max_iterations = 4;
  double newton_tolerance = 0.01;
  PredictorKind predictor = PredictorKind::quintic;
  JacobianUpdate jacobian_update = JacobianUpdate::every_step;
  integrate::NewtonMatrixOptions linear_solver;
  long max_attempts = 0;  // step attempts between two output times
  long max_total_attempts = 0;  // step attempts over the solve; 0: no bound
};

std::vector<OptionSpec> option_specs();

// Throws Error(option_type) for values the specs cannot express (h_max < h0).
Settings read_settings(const Problem& problem, const MethodOptions& options);

}  // namespace odesens::odesd
