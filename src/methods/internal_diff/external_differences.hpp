// External differences, the paper's baseline (§4): the nominal and each
// perturbed problem integrated alone at TOL with its own step sizes,
// σ_j(t) = (x(t; x0 + ε_j R_x,j, p + ε_j R_p,j) − x(t))/ε_j, with ε_j from
// (12)–(13), (17) at t0 and δ = TOLS in place of √eps (the perturbation
// must stand above the integration error, which now differs between the
// solves). (12) is taken componentwise whatever the option `scaling`: the
// normwise choice guards against rounding, no concern at δ = TOLS ≫ √eps,
// and a perturbation of TOLS relative to the whole solution would move
// small components by far more than TOLS of their size (on DETEST C5, 20
// times the error).

#pragma once

#include "methods/internal_diff/sensitivity_output.hpp"
#include "methods/internal_diff/solve_setup.hpp"

namespace odesens::internal_diff {

RunTally run_external_differences(const SolveSetup& setup, SensitivityOutput& out);

}  // namespace odesens::internal_diff
