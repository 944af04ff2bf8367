// The objective's value and gradient from S at every output time, for the
// forward methods: dpsi/dp = sum_k (dphi_k/dx S(t_k) + dphi_k/dp), the
// chain rule through the solution (S includes dx0/dp at t0).
#pragma once

#include "odesens/model.hpp"
#include "odesens/problem.hpp"
#include "odesens/result.hpp"

namespace odesens::methods {

// Whether the result holds what the chain rule needs: S at every output
// time of a model with states, and no gradient from the method itself.
bool gives_objective_through_s(const Result& result);

// Sets result.objective_values (one) and result.gradient (np).
void add_objective_from_sensitivities(const Problem& problem, Result& result, Workspace* ws);

}  // namespace odesens::methods
