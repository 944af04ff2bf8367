// A problem's objective evaluated on a solution: what the gradient methods
// need of it once the states at the output times are known (the weights of
// the adjoint methods' backward problems, the forward methods' chain rule).
#pragma once

#include <vector>

#include "odesens/model.hpp"
#include "odesens/problem.hpp"

namespace odesens {

struct ObjectiveTerms {
  // dphi_k/dx at x(t_k): n_objectives x n_t blocks of nx, time then
  // objective slowest (the layout of objective_weights()).
  std::vector<double> weights;
  // sum_k dphi_k/dp: np x n_objectives, column-major.
  std::vector<double> gradient_p;
  // sum_k phi_k per objective (without running costs).
  std::vector<double> values;

  // Some weight is not 0 (NaN counts): an adjoint has something to carry
  // back from the outputs.
  bool any_weight() const {
    for (double w : weights)
      if (w != 0.0) return true;
    return false;
  }
};

// From the states x (n_t blocks of nx) at the problem's output times and
// the parameters p: Problem::objective when set, else the linear objective
// of the adjoint weights (objective_weights()).
ObjectiveTerms objective_terms(const Problem& problem, const double* x, const double* p,
                               Workspace* ws);

}  // namespace odesens
