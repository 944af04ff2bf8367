// Internal differences (Franz & Kiehl §2.1–2.4): the nominal and the n_s
// perturbed trajectories on one shared step-size sequence.
//
// Each step, (9)–(10): the bundle [η_i, η_i + ε_j σ_j] (parameters
// p + ε_j R_p,j) goes from t_i to t_{i+1} under the error test (14); then
// (11) σ_j = (η̂_j − η_{i+1})/ε_j, (12)–(13) new ε_j at η_{i+1}, and the
// re-perturbed bundle starts the next step. Outputs: σ(t) = (η̂_j(t) −
// η(t))/ε_j from the step that covers t (dense output, else steps land on
// the output times).
//
// nominal=accurate (§2.4): the bundle steps against TOLS, and each step
// starts from η̃_i, integrated alone at TOL from t_i to t_{i+1} (about
// (TOLS/TOL)^(1/p) substeps); σ still differences against the bundle's own
// η_{i+1}, not η̃_{i+1} (which would bring the error of (8) back), and the
// states in the Result are η̃.
#pragma once

#include "methods/internal_diff/sensitivity_output.hpp"
#include "methods/internal_diff/solve_setup.hpp"

namespace odesens::internal_diff {

RunTally run_internal_differences(const SolveSetup& setup, SensitivityOutput& out);

}  // namespace odesens::internal_diff
