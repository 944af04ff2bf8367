// Errors of f that a perturbed trajectory meets and the nominal does not.
// f can be undefined right next to the solution, where differences must
// evaluate it: x^h of a state below 0 is real at an integer h only, so
// perturbing h finds NaN where the solution itself has a value. The
// engines' messages suppose one trajectory (a step that overshoots, a
// state that left f's domain); these say which trajectory it was.
#pragma once

#include <cstddef>
#include <string>

#include "methods/internal_diff/bundle_integrator.hpp"
#include "methods/internal_diff/sensitivity_directions.hpp"
#include "odesens/model.hpp"
#include "odesens/status.hpp"

namespace odesens::internal_diff {

// What direction j (0-based) of S·R is, in the caller's terms.
std::string direction_name(const SensitivityDirections& d, const Model& model, std::size_t j);

// After `e`, thrown while `bundle` stepped: where e is a non-finite f that a
// perturbed trajectory met at the evaluation where the nominal's f was
// finite, throws not_finite naming its direction. Returns otherwise.
void rethrow_if_off_the_nominal(const Error& e, const BundleIntegrator& bundle,
                                const SensitivityDirections& d, const Model& model,
                                double delta);

// The message of `e`, thrown by the independent solve of direction j (the
// nominal having solved), with that direction named.
std::string on_a_perturbed_solve(const Error& e, const SensitivityDirections& d,
                                 const Model& model, std::size_t j);

}  // namespace odesens::internal_diff
