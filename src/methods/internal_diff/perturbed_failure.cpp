#include "methods/internal_diff/perturbed_failure.hpp"

#include "core/number_text.hpp"

namespace odesens::internal_diff {

std::string direction_name(const SensitivityDirections& d, const Model& model, std::size_t j) {
  if (d.set() == DirectionSet::params) return "dx/d" + model.param_names()[j];
  if (d.set() == DirectionSet::states) return "dx/dx0 of " + model.state_names()[j];
  if (d.set() == DirectionSet::all)
    return j < d.nx() ? "dx/dx0 of " + model.state_names()[j]
                      : "dx/d" + model.param_names()[j - d.nx()];
  return "direction " + std::to_string(j + 1) + " of R";
}

void rethrow_if_off_the_nominal(const Error& e, const BundleIntegrator& bundle,
                                const SensitivityDirections& d, const Model& model,
                                double delta) {
  if (e.status() != Status::not_finite) return;
  const std::size_t l = bundle.non_finite_trajectory();
  if (l == 0 || l > d.count()) return;  // the nominal's own, or none found
  const std::string engine = e.what();
  throw Error(Status::not_finite,
              engine.substr(0, engine.find(": ")) + " on the trajectory perturbed along " +
                  direction_name(d, model, l - 1) + " (by about " + rounded_number_text(delta) +
                  " relative), where the nominal trajectory's f is finite: f is undefined "
                  "right next to the solution (x^h of a state below 0 is real only at an "
                  "integer exponent h), and differences cannot reach across; cvodes_fsa and "
                  "odesd differentiate f instead");
}

std::string on_a_perturbed_solve(const Error& e, const SensitivityDirections& d,
                                 const Model& model, std::size_t j) {
  return std::string(e.what()) + " (in the solve perturbed along " +
         direction_name(d, model, j) + ", the nominal solve having succeeded)";
}

}  // namespace odesens::internal_diff
