#include "methods/common/objective_from_sensitivities.hpp"

#include "problem/objective_terms.hpp"

namespace odesens::methods {

bool gives_objective_through_s(const Result& result) {
  return result.nx > 0 && result.gradient.empty() && !result.times.empty() &&
         result.s_times == result.times && result.s.size() == result.nx * result.np * result.times.size();
}

void add_objective_from_sensitivities(const Problem& problem, Result& result, Workspace* ws) {
  const std::size_t nx = result.nx, np = result.np;
  const std::vector<double> p = effective_params(problem);
  const ObjectiveTerms terms = objective_terms(problem, result.x.data(), p.data(), ws);
  result.objective_values = terms.values;
  result.gradient = terms.gradient_p;
  for (std::size_t k = 0; k < result.times.size(); ++k) {
    const double* w = terms.weights.data() + k * nx;
    const double* s = result.s.data() + k * nx * np;
    for (std::size_t j = 0; j < np; ++j) {
      double sum = 0.0;
      for (std::size_t i = 0; i < nx; ++i) sum += w[i] * s[i + j * nx];
      result.gradient[j] += sum;
    }
  }
}

}  // namespace odesens::methods
