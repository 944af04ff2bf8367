// The check the methods make on the model's x0(p) before they integrate:
// a value that is not finite is named with its state (an x0 of 1/k at
// k = 0), where the integrators would only say that some x0 is not.
// Model::initial_state itself stays lenient (PEtab keeps only some of its
// values, and odesd's callers may give their own).
#pragma once

#include <cmath>
#include <string>

#include "core/number_text.hpp"
#include "odesens/model.hpp"
#include "odesens/status.hpp"

namespace odesens {

inline void require_finite_initial_state(const Model& model, const double* x0) {
  for (std::size_t i = 0; i < model.nx(); ++i)
    if (!std::isfinite(x0[i]))
      throw Error(Status::not_finite,
                  "the initial value of state '" + model.state_names()[i] + "' is " +
                      (std::isnan(x0[i]) ? std::string("NaN") : number_text(x0[i])) +
                      " at these parameters (from the model's x0(p))");
}

}  // namespace odesens
