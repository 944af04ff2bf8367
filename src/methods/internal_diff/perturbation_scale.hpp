// The size ε_j of the perturbation η̂_j − η = ε_j σ_j of one direction
// (Franz & Kiehl §2.2, §2.6). Too small an ε loses σ to cancellation
// (the error term O(eps/ε) of (8)), too large a one lets the non-linear
// term O(ε) dominate; ε = O(√eps) balances the two when the perturbation is
// measured relative to the solution:
//   (12) v_k = |σ_k| / (|η_k| + 1) on the states (mixed relative/absolute),
//   (17) v_k = |σ_k / p_k| on the parameters (|σ_k| where p_k = 0), so that
//        badly scaled parameters are perturbed relatively too,
//   (13) ε = δ / (‖v‖ + δ), δ = √eps.
// The paper leaves the norm open; ours is the max norm, in one of two ways
// (option `scaling`):
//   normwise       v = ‖σ‖∞ / (‖η‖∞ + 1): the perturbation is δ relative to
//                  the solution as a whole. The rounding error σ_k picks up
//                  is eps|η_k|/ε, so no component loses σ to cancellation.
//   componentwise  v = ‖(|σ_k| / (|η_k| + 1))_k‖∞, (12) literally: no
//                  component moves by more than δ of its own size, which
//                  guards against non-linearity in small components but
//                  shrinks ε wherever a component with a large σ crosses
//                  zero, and then the large components lose σ to rounding
//                  (DETEST C5 at TOLS 1e-7: 40 times the error of normwise).
// Both are the same for a single state. The external-difference
// baseline uses the same formulas with δ = TOLS (its perturbations must
// stand above the integration error rather than the rounding error).
//
// The parameter rows of σ stay R_p,j for the whole solve, so their part of
// ‖v‖ is computed once (§2.6). (17) counts only the parameters f reads: one
// that only sets x0 (DETEST C5's initial positions as parameters) moves
// nothing but x0, which the state rows already carry, and a small one would
// otherwise shrink ε until the states' own rounding, eps|η|/ε, swamps σ.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::internal_diff {

enum class Scaling { normwise, componentwise };

// Whether f reads parameter k (np flags): the non-empty columns of J_p's
// sparsity pattern, or all when the model has none. All too when the model
// has events or switches of f: a parameter may appear only in a comparison
// (whose derivative is zero, so J_p does not show it) or in an event, and
// it then moves the solution all the same.
std::vector<char> parameters_read_by_f(const Model& model);

// (17): max_k |r_k| / |p_k| over the np parameters f reads (|r_k| where
// p_k = 0; for a unit direction that is the paper's v_k = 1).
double parameter_scale(std::size_t np, const double* r_p, const double* p,
                       const std::vector<char>& read_by_f);

// (12)–(13): ε for a state σ (nx values) at η, with the parameter part
// v_param of ‖v‖ (parameter_scale) and δ (√eps for internal differences).
// A zero direction gives ε = 1 (it moves nothing anyway).
double perturbation_size(Scaling scaling, std::size_t nx, const double* eta, const double* sigma,
                         double v_param, double delta);

// δ of internal differences: √eps, the balance point of (8).
double internal_delta();

}  // namespace odesens::internal_diff
