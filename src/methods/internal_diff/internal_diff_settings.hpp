// The options internal-difference methods share (dopri8s, and grk4as on the
// same framework), read once into typed settings.
#pragma once

#include <optional>
#include <vector>

#include "integrate/step_control.hpp"
#include "methods/internal_diff/perturbation_scale.hpp"
#include "methods/internal_diff/sensitivity_directions.hpp"
#include "methods/internal_diff/sensitivity_error_norm.hpp"
#include "odesens/options.hpp"
#include "odesens/problem.hpp"

namespace odesens::internal_diff {

// Where the nominal trajectory comes from (§2.4).
enum class Nominal {
  shared,   // η is trajectory 0 of the bundle, all at TOL
  accurate  // the bundle steps at TOLS, each step starting from η̃, integrated alone at TOL
};

enum class Differences {
  internal,  // (9)–(11): one shared step sequence
  external   // the paper's baseline: 1 + n_s independent solves at TOL
};

struct InternalDiffSettings {
  DirectionSet directions = DirectionSet::params;
  bool rescale = true;
  Scaling scaling = Scaling::normwise;
  integrate::Tolerances tolerances;   // TOL: rtol, atol of the states
  SensitivityTolerances sensitivity;  // TOLS: sens_rtol, sens_atol
  Nominal nominal = Nominal::shared;
  Differences differences = Differences::internal;
  int lanes = 0;  // SIMD lanes of the batched f: 0 (widest), 1, 4, 8
  double h0 = 0, h_max = 0;
  std::optional<double> h_fixed;
  long max_steps = 100000;  // step attempts of one integrator over the whole solve
  bool detect_stiffness = true;  // explicit engines: end with Status::stiff (dopri8s' stiffness_check)
  bool state_check = false;      // the states' global error (methods/common/state_error_ratio.hpp)
  bool non_stiff = false;        // explicit engines: the check solves the states itself
  bool states_only = false;      // no directions: the nominal trajectory alone (the check's solve)
};

// The shared options, with their defaults and documentation.
std::vector<OptionSpec> option_specs();

// Throws Error(option_type) naming the option for a value the ranges of
// option_specs() cannot express (sens_rtol <= √eps, lanes 2, 3, 5..7).
InternalDiffSettings read_settings(const Problem& problem, const MethodOptions& options);

// TOL, the problem's rtol and atol (one or per state).
integrate::Tolerances tolerances_of(const Problem& problem);

}  // namespace odesens::internal_diff
