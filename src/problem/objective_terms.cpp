#include "problem/objective_terms.hpp"

#include "odesens/objective.hpp"

namespace odesens {
namespace {

// G_m = sum_k w_{k,m}^T x(t_k): constant weights, no p-dependence.
ObjectiveTerms linear_terms(const Problem& problem, const double* x) {
  const std::size_t nx = problem.model->nx(), np = problem.model->np();
  const std::size_t nt = problem.output_times.size(), m = problem.n_objectives;
  ObjectiveTerms terms{objective_weights(problem), std::vector<double>(np * m, 0.0),
                       std::vector<double>(m, 0.0)};
  for (std::size_t v = 0; v < m; ++v)
    for (std::size_t k = 0; k < nt; ++k)
      for (std::size_t i = 0; i < nx; ++i)
        terms.values[v] += terms.weights[i + k * nx + v * nx * nt] * x[i + k * nx];
  return terms;
}

}  // namespace

ObjectiveTerms objective_terms(const Problem& problem, const double* x, const double* p,
                               Workspace* ws) {
  if (!problem.objective) return linear_terms(problem, x);
  const std::size_t nx = problem.model->nx(), np = problem.model->np();
  const auto& times = problem.output_times;
  ObjectiveTerms terms{std::vector<double>(nx * times.size(), 0.0),
                       std::vector<double>(np, 0.0), std::vector<double>(1, 0.0)};
  for (std::size_t k = 0; k < times.size(); ++k)
    terms.values[0] += problem.objective->term(k, times[k], x + k * nx, p,
                                               terms.weights.data() + k * nx,
                                               terms.gradient_p.data(), ws);
  return terms;
}

}  // namespace odesens
