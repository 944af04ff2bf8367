#include "odesens/problem.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

void require_finite(const std::vector<double>& v, const std::string& what) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      throw Error(Status::not_finite, what + "[" + std::to_string(i) + "] is NaN or Inf");
}

void require_size(const std::vector<double>& v, std::size_t n, const std::string& what) {
  if (v.size() != n)
    throw Error(Status::invalid_argument, what + " has " + std::to_string(v.size()) +
                                              " entries, expected " + std::to_string(n));
}

}  // namespace

std::vector<double> effective_params(const Problem& problem) {
  return problem.params.empty() ? problem.model->nominal_params() : problem.params;
}

std::vector<double> objective_weights(const Problem& problem) {
  if (!problem.adjoint_weights.empty()) return problem.adjoint_weights;
  const std::size_t nx = problem.model->nx(), nt = problem.output_times.size();
  std::vector<double> w(nx * nt, 0.0);
  std::fill(w.end() - static_cast<std::ptrdiff_t>(nx), w.end(), 1.0);
  return w;
}

void validate_problem(const Problem& pr) {
  if (!pr.model) throw Error(Status::invalid_argument, "problem has no model");
  const std::size_t nx = pr.model->nx(), np = pr.model->np();
  if (!pr.params.empty()) require_size(pr.params, np, "parameter vector");
  require_finite(effective_params(pr), "parameter");
  if (!pr.initial_state.empty()) {
    require_size(pr.initial_state, nx, "initial state");
    require_finite(pr.initial_state, "initial state");
  }
  if (!std::isfinite(pr.t0)) throw Error(Status::not_finite, "t0 is NaN or Inf");
  if (pr.output_times.empty()) throw Error(Status::invalid_argument, "no output times given");
  require_finite(pr.output_times, "output time");
  if (pr.output_times.front() < pr.t0)
    throw Error(Status::invalid_argument, "output time " + number_text(pr.output_times[0]) +
                                              " is before t0 = " + number_text(pr.t0));
  for (std::size_t k = 1; k < pr.output_times.size(); ++k)
    if (!(pr.output_times[k] > pr.output_times[k - 1]))
      throw Error(Status::invalid_argument,
                  "output times must be strictly increasing: times[" + std::to_string(k) +
                      "] = " + number_text(pr.output_times[k]) + " <= times[" +
                      std::to_string(k - 1) + "] = " + number_text(pr.output_times[k - 1]));
  if (!(pr.output_times.back() > pr.t0))
    throw Error(Status::invalid_argument, "the last output time must be after t0");
  if (!pr.rtol) throw Error(Status::invalid_argument, "rtol is not set");
  if (!std::isfinite(*pr.rtol)) throw Error(Status::not_finite, "rtol is NaN or Inf");
  if (!(*pr.rtol > 0.0)) throw Error(Status::invalid_argument, "rtol must be positive");
  if (pr.atol.size() != 1 && pr.atol.size() != nx)
    throw Error(Status::invalid_argument, "atol has " + std::to_string(pr.atol.size()) +
                                              " entries, expected 1 or nx = " +
                                              std::to_string(nx));
  require_finite(pr.atol, "atol");
  for (double a : pr.atol)
    if (a < 0.0) throw Error(Status::invalid_argument, "atol must not be negative");
  if (pr.max_steps <= 0) throw Error(Status::invalid_argument, "max_steps must be positive");
  if (!pr.adjoint_weights.empty()) {
    require_size(pr.adjoint_weights, nx * pr.output_times.size(),
                 "adjoint weights (n_times x nx)");
    require_finite(pr.adjoint_weights, "adjoint weight");
  }
  if (!pr.param_lower.empty() || !pr.param_upper.empty()) {
    require_size(pr.param_lower, np, "parameter box lower bound");
    require_size(pr.param_upper, np, "parameter box upper bound");
    require_finite(pr.param_lower, "parameter box lower bound");
    require_finite(pr.param_upper, "parameter box upper bound");
    for (std::size_t j = 0; j < np; ++j)
      if (pr.param_lower[j] > pr.param_upper[j])
        throw Error(Status::invalid_argument,
                    "parameter box of '" + pr.model->param_names()[j] +
                        "': lower bound is above the upper bound");
  }
}

}  // namespace odesens
