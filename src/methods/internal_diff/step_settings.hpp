// The BundleStepSettings of one integrator of a solve: the solve's step
// options with the tolerances and error norm of that integrator.
#pragma once

#include "methods/internal_diff/bundle_integrator.hpp"
#include "methods/internal_diff/internal_diff_settings.hpp"

namespace odesens::internal_diff {

inline BundleStepSettings step_settings(const InternalDiffSettings& s,
                                        const integrate::Tolerances& tolerances,
                                        integrate::StepErrorNorm* norm) {
  BundleStepSettings b;
  b.tolerances = tolerances;
  b.error_norm = norm;
  b.h0 = s.h0;
  b.h_max = s.h_max;
  b.h_fixed = s.h_fixed;
  b.max_steps = s.max_steps;
  b.detect_stiffness = s.detect_stiffness;
  return b;
}

}  // namespace odesens::internal_diff
