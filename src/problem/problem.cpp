#include "odesens/problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
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

// The default objective, chosen here: G = sum_i x_i(t_final), for one
// objective without running costs; with running costs or several
// objectives, no discrete terms (all weights zero).
std::vector<double> objective_weights(const Problem& problem) {
  if (!problem.adjoint_weights.empty()) return problem.adjoint_weights;
  const std::size_t nx = problem.model->nx(), nt = problem.output_times.size();
  std::vector<double> w(nx * nt * problem.n_objectives, 0.0);
  if (problem.n_objectives == 1 && !problem.integrand)
    std::fill(w.end() - static_cast<std::ptrdiff_t>(nx), w.end(), 1.0);
  return w;
}

// Below the machine epsilon no step can meet it: the step sizes collapse or
// overflow, and each method failed in its own misleading words.
void require_reachable_rtol(double rtol) {
  if (rtol < std::numeric_limits<double>::epsilon())
    throw Error(Status::invalid_argument,
                "rtol = " + number_text(rtol) + " is below the machine epsilon " +
                    number_text(std::numeric_limits<double>::epsilon()) +
                    ": no method can meet it in double precision");
}

void validate_solver_settings(const std::optional<double>& rtol, const std::vector<double>& atol,
                              std::int64_t max_steps) {
  if (rtol) {
    if (!std::isfinite(*rtol)) throw Error(Status::not_finite, "rtol is NaN or Inf");
    // rtol = 0 (a pure absolute test, which CVODES allows) is refused too:
    // the adjoint's derived tolerances scale with rtol and would all be 0;
    // rtol >= 1 asks for no correct digit, and the sensitivities come out
    // with any sign.
    if (!(*rtol > 0.0 && *rtol < 1.0))
      throw Error(Status::invalid_argument, "rtol must be in (0, 1), got " + number_text(*rtol));
    require_reachable_rtol(*rtol);
  }
  for (std::size_t i = 0; i < atol.size(); ++i) {
    const std::string name = atol.size() == 1 ? "atol" : "atol[" + std::to_string(i) + "]";
    if (!std::isfinite(atol[i])) throw Error(Status::not_finite, name + " is NaN or Inf");
    if (atol[i] < 0.0)
      throw Error(Status::invalid_argument,
                  name + " must not be negative, got " + number_text(atol[i]));
    // Its inverse, the error weight of a state at 0, overflows: the first
    // step then fails with a message about the step size.
    if (atol[i] > 0.0 && atol[i] < std::numeric_limits<double>::min())
      throw Error(Status::invalid_argument,
                  name + " = " + number_text(atol[i]) +
                      " is below the smallest normal double (2.2e-308), where 1/atol "
                      "overflows: give 0 or at least 1e-300");
  }
  if (max_steps <= 0)
    throw Error(Status::invalid_argument,
                "max_steps must be positive, got " + std::to_string(max_steps));
}

namespace {

// The sizes of the result and the parameters and initial values given.
void validate_values(const Problem& pr, std::size_t nx, std::size_t np) {
  // A forward method's result holds n_times x nx x (1 + np) values, indexed
  // by products of these sizes: sizes whose product cannot even be
  // addressed (a careless or hostile caller's) are refused before anything
  // is allocated or the product wraps around.
  const double entries = static_cast<double>(pr.output_times.size()) *
                         static_cast<double>(nx) * (static_cast<double>(np) + 1.0);
  if (entries > 0x1p53)
    throw Error(Status::invalid_argument,
                "the result would hold n_times x nx x (np + 1) = " +
                    std::to_string(pr.output_times.size()) + " x " + std::to_string(nx) + " x " +
                    std::to_string(np + 1) + " values, far more than any memory holds");
  if (!pr.params.empty()) require_size(pr.params, np, "parameter vector");
  require_finite(effective_params(pr), "parameter");
  if (!pr.initial_state.empty()) {
    require_size(pr.initial_state, nx, "initial state");
    require_finite(pr.initial_state, "initial state");
  }
  if (!pr.initial_sensitivity.empty()) {
    if (pr.initial_state.empty())
      throw Error(Status::invalid_argument,
                  "an initial sensitivity dx0/dp is given without an initial state: it is the "
                  "derivative of Problem::initial_state, so set both (or neither, for the "
                  "model's x0(p) and dx0/dp)");
    require_size(pr.initial_sensitivity, nx * np, "initial sensitivity dx0/dp (nx x np)");
    require_finite(pr.initial_sensitivity, "initial sensitivity");
  }
}

// T0 and the output times: finite, increasing, after t0 and resolvable from it, within the span CVODES handles.
void validate_times(const Problem& pr) {
  if (!std::isfinite(pr.t0)) throw Error(Status::not_finite, "t0 is NaN or Inf");
  if (pr.output_times.empty()) throw Error(Status::invalid_argument, "no output times given");
  if (pr.output_times.size() > max_output_times)
    throw Error(Status::invalid_argument,
                std::to_string(pr.output_times.size()) + " output times, at most " +
                    std::to_string(max_output_times));
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
  // A first step shorter than the smallest normal double has no resolution
  // left (CVODES: "could not advance past t = 0" for an output at 1e-320).
  for (const double t : pr.output_times) {
    if (t == pr.t0) continue;
    if (t - pr.t0 < std::numeric_limits<double>::min())
      throw Error(Status::invalid_argument,
                  "output time " + number_text(t) + " is " + number_text(t - pr.t0) +
                      " after t0 = " + number_text(pr.t0) +
                      ", closer than the smallest normal double (2.2e-308): no step resolves "
                      "that; put it at t0");
    break;
  }
  // CVODES' step-size arithmetic overflows on longer spans (from about 1e306
  // on, a step became NaN and CVode never returned); the span itself may
  // overflow to Inf (t0 = -1e308, last time 1e308).
  const double span = pr.output_times.back() - pr.t0;
  if (!(span <= max_time_span))
    throw Error(Status::invalid_argument,
                "the time span from t0 = " + number_text(pr.t0) + " to the last output time " +
                    number_text(pr.output_times.back()) + " is " + number_text(span) +
                    ", at most " + number_text(max_time_span));
}

// Rtol, atol and max_steps.
void validate_tolerances(const Problem& pr, std::size_t nx) {
  if (!pr.rtol) throw Error(Status::invalid_argument, "rtol is not set");
  validate_solver_settings(pr.rtol, pr.atol, pr.max_steps);
  if (pr.atol.size() != 1 && pr.atol.size() != nx)
    throw Error(Status::invalid_argument, "atol has " + std::to_string(pr.atol.size()) +
                                              " entries, expected 1 or nx = " +
                                              std::to_string(nx));
}

// The objectives: their count, the adjoint weights, the integrand and the objective's sizes.
void validate_objectives(const Problem& pr, std::size_t nx, std::size_t np) {
  if (pr.n_objectives < 1 || pr.n_objectives > max_objectives)
    throw Error(Status::invalid_argument, "n_objectives must be from 1 to " +
                                              std::to_string(max_objectives) + ", got " +
                                              std::to_string(pr.n_objectives));
  if (static_cast<double>(nx + np) * static_cast<double>(pr.n_objectives) > 0x1p53)
    throw Error(Status::invalid_argument,
                "the gradients would hold (nx + np) x n_objectives = " +
                    std::to_string(nx + np) + " x " + std::to_string(pr.n_objectives) +
                    " values, far more than any memory holds");
  if (!pr.adjoint_weights.empty()) {
    if (static_cast<double>(nx) * static_cast<double>(pr.output_times.size()) *
            static_cast<double>(pr.n_objectives) != static_cast<double>(pr.adjoint_weights.size()))
      throw Error(Status::invalid_argument,
                  "adjoint weights has " + std::to_string(pr.adjoint_weights.size()) +
                      " entries, expected " +
                      number_text(static_cast<double>(nx * pr.output_times.size()) *
                                  static_cast<double>(pr.n_objectives)) +
                      " (nx x n_times x n_objectives = " + std::to_string(nx) + " x " +
                      std::to_string(pr.output_times.size()) + " x " +
                      std::to_string(pr.n_objectives) + ")");
    require_finite(pr.adjoint_weights, "adjoint weight");
  }
  if (pr.integrand && pr.integrand->count() != pr.n_objectives)
    throw Error(Status::invalid_argument,
                "the integrand has " + std::to_string(pr.integrand->count()) +
                    " running costs, expected one per objective (n_objectives = " +
                    std::to_string(pr.n_objectives) + ")");
  if (pr.objective) {
    if (pr.n_objectives != 1 || !pr.adjoint_weights.empty())
      throw Error(Status::invalid_argument,
                  "a problem with an objective has one (n_objectives = 1) and no adjoint "
                  "weights (they are the linear objective)");
    pr.objective->check_sizes(pr.output_times.size(), nx, np);
  }
}

// The sensitivity directions, the parameter box and the objective data.
void validate_directions_box_data(const Problem& pr, std::size_t nx, std::size_t np) {
  if (!pr.sens_directions.empty()) {
    const std::size_t rows = nx + np;
    if (pr.sens_directions.size() % rows != 0)
      throw Error(Status::invalid_argument,
                  "sensitivity directions has " + std::to_string(pr.sens_directions.size()) +
                      " entries, expected a multiple of nx + np = " + std::to_string(rows) +
                      " (one column of (x0, p) perturbations per direction)");
    const double ns = static_cast<double>(pr.sens_directions.size() / rows);
    if (static_cast<double>(pr.output_times.size()) * static_cast<double>(nx) * ns > 0x1p53)
      throw Error(Status::invalid_argument,
                  "S·R would hold n_times x nx x n_directions = " +
                      std::to_string(pr.output_times.size()) + " x " + std::to_string(nx) +
                      " x " + number_text(ns) + " values, far more than any memory holds");
    require_finite(pr.sens_directions, "sensitivity direction entry");
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
  if (!pr.objective_data.empty()) {
    require_size(pr.objective_data, pr.output_times.size() * nx,
                 "objective data (n_times x nx, NaN where unobserved)");
    for (double d : pr.objective_data)
      if (std::isinf(d))
        throw Error(Status::not_finite,
                    "objective data holds an infinite value (NaN marks an unobserved state)");
  }
}

}  // namespace

void validate_problem(const Problem& pr) {
  if (!pr.model) throw Error(Status::invalid_argument, "problem has no model");
  const std::size_t nx = pr.model->nx(), np = pr.model->np();
  validate_values(pr, nx, np);
  validate_times(pr);
  validate_tolerances(pr, nx);
  validate_objectives(pr, nx, np);
  validate_directions_box_data(pr, nx, np);
}

bool same_set_up(const Problem& a, const Problem& b) {
  return a.model == b.model && a.t0 == b.t0 && a.rtol == b.rtol && a.atol == b.atol &&
         a.max_steps == b.max_steps && a.adjoint_weights == b.adjoint_weights &&
         a.n_objectives == b.n_objectives && a.integrand == b.integrand &&
         a.objective == b.objective &&
         a.sens_directions == b.sens_directions && a.param_lower == b.param_lower &&
         a.param_upper == b.param_upper && a.objective_data == b.objective_data &&
         a.options.values() == b.options.values();
}

}  // namespace odesens
