// steady_state(): Newton first, integration when Newton fails or J_x is
// singular (steady_state.hpp), every attempt's outcome kept.
#include "odesens/steady_state.hpp"

#include <cmath>

#include "core/number_text.hpp"
#include "estimate/jacobian_factors.hpp"
#include "estimate/steady_integration.hpp"
#include "estimate/steady_newton.hpp"
#include "odesens/methods.hpp"
#include "odesens/status.hpp"
#include "problem/initial_values.hpp"

namespace odesens {
namespace {

void check_options(const SteadyStateOptions& o) {
  if (!(o.rtol >= 0.0 && o.atol >= 0.0 && o.rtol + o.atol > 0.0 && std::isfinite(o.rtol) &&
        std::isfinite(o.atol)))
    throw Error(Status::invalid_argument,
                "steady state tolerances must be finite, not negative and not both zero; got "
                "rtol " + number_text(o.rtol) + ", atol " + number_text(o.atol));
  if (!(o.max_time > 0.0 && o.max_time <= max_time_span))
    throw Error(Status::invalid_argument, "steady state max_time must be in (0, " +
                                              number_text(max_time_span) + "], got " +
                                              number_text(o.max_time));
  if (o.max_newton_iterations < 0)
    throw Error(Status::invalid_argument, "max_newton_iterations must not be negative");
}

// The problem as cvodes_fsa would take it (its default tolerances where
// unset), validated; its output times are not used but must pass.
Problem checked_problem(const Problem& given, const SteadyStateOptions& options) {
  Problem pr = given;
  const MethodInfo& fsa = method_info("cvodes_fsa");
  if (!pr.rtol) pr.rtol = fsa.default_rtol;
  if (pr.atol.empty()) pr.atol = {fsa.default_atol};
  pr.output_times = {pr.t0 + options.max_time};
  validate_problem(pr);
  return pr;
}

// The threshold of cvodes_fsa's linear_solver=auto, the problem's if set.
std::size_t sparse_threshold(const Problem& problem) {
  const auto& values = problem.options.values();
  const auto it = values.find("sparse_threshold");
  if (it != values.end())
    if (const auto* v = std::get_if<std::int64_t>(&it->second); v && *v > 0)
      return static_cast<std::size_t>(*v);
  return 100;
}

bool try_newton(const Problem& pr, const SteadyStateOptions& o, SteadyState& out) {
  const Model& model = *pr.model;
  const std::vector<double> p = effective_params(pr);
  auto ws = model.make_workspace();
  auto factors = estimate::make_jacobian_factors(model, ws.get(), sparse_threshold(pr));
  const estimate::NewtonOutcome n = estimate::newton_steady_state(
      model, pr.t0, initial_state_of(pr, p, ws.get()), p.data(),
      {{o.rtol, o.atol}, o.max_newton_iterations, o.sensitivities}, *factors, ws.get());
  out.attempts.push_back(n.attempt);
  if (!n.converged) return false;
  out.x = n.x;
  out.S = n.S;
  out.how = "newton";
  out.time = pr.t0;
  out.residual = n.residual;
  return true;
}

bool try_integration(const Problem& pr, const SteadyStateOptions& o, bool sensitivities,
                     SteadyState& out, double first_span = 10.0) {
  estimate::IntegrationOutcome i = estimate::integrate_to_steady_state(
      pr, {{o.rtol, o.atol}, o.max_time, sensitivities, first_span});
  out.attempts.push_back(i.attempt);
  if (!i.reached) return false;
  out.x = std::move(i.x);
  out.S = std::move(i.S);
  out.how = "integration";
  out.time = i.time;
  out.residual = i.residual;
  return true;
}

// S* = -J_x^{-1} J_p at the x* that integration of x alone reached (out),
// where J_x is regular: the limit of the integrated S, without integrating
// np more columns. J_x singular at x0 (species that start at 0) is often
// regular at x*; where it is singular there too (conservation laws), false.
bool sensitivities_by_formula(const Problem& pr, const SteadyStateOptions& o, SteadyState& out) {
  const Model& model = *pr.model;
  const std::vector<double> p = effective_params(pr);
  auto ws = model.make_workspace();
  auto factors = estimate::make_jacobian_factors(model, ws.get(), sparse_threshold(pr));
  const estimate::NewtonOutcome n =
      estimate::newton_steady_state(model, out.time, out.x, p.data(),
                                    {{o.rtol, o.atol}, 0, true}, *factors, ws.get());
  if (!n.converged) {
    out.attempts.push_back(n.attempt);
    return false;
  }
  out.S = n.S;
  out.attempts.push_back(std::string("S* = -J_x^{-1} J_p at that x* (") + factors->kind() + ")");
  return true;
}

// Integration of x alone, then S* by the formula where J_x is regular at
// x*, else integration of x and S; x and S integrated at once where the
// options rule Newton out.
bool try_integrations(const Problem& pr, const SteadyStateOptions& o, SteadyState& out) {
  if (!o.try_newton) return try_integration(pr, o, o.sensitivities, out);
  if (!try_integration(pr, o, false, out)) return false;
  if (!o.sensitivities || sensitivities_by_formula(pr, o, out)) return true;
  // From the span where x alone became steady: the shorter ones would not be.
  return try_integration(pr, o, true, out, out.time - pr.t0);
}

}  // namespace

SteadyState steady_state(const Problem& problem, const SteadyStateOptions& options) {
  check_options(options);
  const Problem pr = checked_problem(problem, options);
  SteadyState out;
  if (pr.model->nx() == 0) {  // nothing moves: every state is steady
    out.how = "newton";
    out.time = pr.t0;
    out.attempts.push_back("newton: the model has no states");
    return out;
  }
  if (options.try_newton && try_newton(pr, options, out)) return out;
  if (try_integrations(pr, options, out)) return out;
  std::string message = "no steady state found from the initial state:";
  for (const auto& a : out.attempts) message += "\n  " + a;
  throw Error(Status::solver_failed, message);
}

}  // namespace odesens
