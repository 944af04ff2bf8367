// S·R by internal differences with sensitivity error control (Franz &
// Kiehl), for any engine that steps a bundle of trajectories
// (bundle_integrator.hpp): the part of dopri8s and grk4as that does not
// know whether the engine is explicit or implicit. It prepares the
// directions, the perturbations and the Result, runs internal or external
// differences, and reports statistics:
//   steps, error_test_failures    the bundle's accepted and rejected steps
//                                 (external: all runs together)
//   rhs_evals                     evaluations of f at one point
//   jac_evals, linear_setups      from implicit engines
//   extra: directions (n_s), lanes (SIMD width of the batched f),
//          rhs_batches (calls of the batched f), rejected_steps,
//          reperturbations (steps after which trajectories were
//          re-perturbed), sensitivity_limited_steps (accepted steps whose
//          size the error of σ decided), nominal_steps (nominal=accurate),
//          runs (integrations).
#pragma once

#include "methods/internal_diff/bundle_integrator.hpp"
#include "methods/internal_diff/internal_diff_settings.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::internal_diff {

Result solve(const Problem& problem, const InternalDiffSettings& settings,
             const BundleIntegratorFactory& factory);

}  // namespace odesens::internal_diff
