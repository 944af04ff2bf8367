// steady_state(): Newton first, integration when Newton fails or J_x is
// singular (steady_state.hpp), every attempt's outcome kept.
#include "odesens/steady_state.hpp"

#include <algorithm>
#include <cmath>

#include "core/finite_values.hpp"
#include "core/number_text.hpp"
#include "estimate/conservation_laws.hpp"
#include "estimate/jacobian_factors.hpp"
#include "estimate/steady_integration.hpp"
#include "estimate/steady_newton.hpp"
#include "estimate/steady_residual.hpp"
#include "linalg/dense.hpp"
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

// dx0/dp of the problem's start: Problem::initial_sensitivity with an
// initial state given (zero where empty), else the model's.
std::vector<double> initial_sensitivity_of(const Problem& pr, const std::vector<double>& p,
                                           Workspace* ws) {
  const Model& model = *pr.model;
  if (!pr.initial_state.empty())
    return pr.initial_sensitivity.empty() ? std::vector<double>(model.nx() * model.np(), 0.0)
                                          : pr.initial_sensitivity;
  std::vector<double> s0(model.nx() * model.np());
  model.initial_sensitivity(p.data(), s0.data(), ws);
  return s0;
}

// Each law's total at x* (reached by integration) that at x0, to the
// integration's accuracy (1000 times the tolerances of the totals' terms):
// an input that acted on the way (f reads t) did not move it.
bool totals_kept(const estimate::ConservationLaws& laws, const std::vector<double>& x0,
                 const std::vector<double>& x, estimate::NormTolerances tol) {
  for (std::size_t l = 0; l < laws.count(); ++l) {
    double change = 0.0, allowed = 0.0;
    for (std::size_t i = 0; i < laws.nx; ++i) {
      const double w = laws.w[l * laws.nx + i];
      change += w * (x[i] - x0[i]);
      allowed += std::fabs(w) * (tol.rtol * std::fabs(x[i]) + tol.atol);
    }
    if (!(std::fabs(change) <= 1e3 * allowed)) return false;
  }
  return true;
}

// Where J_x is singular at x0, the model's conservation laws (none where
// J_x is regular, or singular for another reason, where events act, or
// where the factors are KLU's), `factors` constrained to them; W S0 with
// them where S is asked for. Where f reads t at p (Model::time_reading_at),
// an input may move a total before x is steady (a pulse into a conserved
// pool), which only the path shows: no laws for Newton from x0 (reached
// null), and for the formula at an integrated x* only where x* kept the
// totals of x0 (totals_kept; the laws are checked at later times too,
// find_conservation_laws). Where J_p reads t at p, S's totals may move
// though x's do not (a pulse whose dose is 0 at p, its column of S not 0):
// no laws where S is asked for.
estimate::ConservedRows conserved_rows(const Problem& pr, Model::TimeReading reading,
                                       const std::vector<double>& p,
                                       const std::vector<double>& x0,
                                       const std::vector<double>* reached,
                                       estimate::NormTolerances tol, bool sensitivities,
                                       estimate::ConservationLaws& laws,
                                       estimate::JacobianFactors& factors, Workspace* ws) {
  const EventSystem* events = pr.model->event_system();
  if (events && !events->events().empty()) return {};  // they may move a conserved total
  if ((reading.rhs && !reached) || (sensitivities && reading.jac_p)) return {};
  if (!factors.can_constrain() || factors.factor(pr.t0, x0.data(), p.data())) return {};
  laws = estimate::find_conservation_laws(*pr.model, pr.t0, x0.data(), p.data(),
                                         reading.rhs || reading.jac_p, ws);
  if (laws.count() == 0 || (reading.rhs && !totals_kept(laws, x0, *reached, tol))) return {};
  factors.constrain(laws);
  estimate::ConservedRows conserved{&laws, {}};
  if (sensitivities) {
    const std::vector<double> s0 = initial_sensitivity_of(pr, p, ws);
    conserved.s0 = laws.times(pr.model->np(), s0.data());
  }
  return conserved;
}

// Newton finds any root of f, unstable ones too: x' = x - x^3 from 0.2
// goes to 1, Newton to 0. "" where the root x is stable (no eigenvalue of
// J_x with real part above 1e-6 of the largest magnitude: the zeros of
// conservation laws, rounded, are not growth) or cannot be checked (more
// than max_conservation_states states, J_x not finite, dgeev failing),
// else the eigenvalue that makes it unstable.
std::string unstable_root(const Model& model, double t, const std::vector<double>& x,
                          const double* p, Workspace* ws) {
  const std::size_t nx = model.nx();
  if (nx == 0 || nx > estimate::max_conservation_states) return "";
  std::vector<double> jac(nx * nx), wr(nx), wi(nx), work(linalg::general_eigen_workspace(nx));
  model.jac_x(t, x.data(), p, jac.data(), ws);
  if (!all_finite(jac.size(), jac.data())) return "";
  if (!linalg::general_eigen(nx, jac.data(), wr.data(), wi.data(), nullptr, work.data()))
    return "";
  double largest = 0.0;
  std::size_t growing = 0;
  for (std::size_t k = 0; k < nx; ++k) {
    largest = std::max(largest, std::hypot(wr[k], wi[k]));
    if (wr[k] > wr[growing]) growing = k;
  }
  if (!(wr[growing] > 1e-6 * largest)) return "";
  return "J_x has the eigenvalue " + number_text(wr[growing]) +
         (wi[growing] != 0.0 ? " +- " + number_text(std::fabs(wi[growing])) + "i" : "") +
         " there";
}

bool try_newton(const Problem& pr, const SteadyStateOptions& o, Model::TimeReading reading,
                SteadyState& out) {
  const Model& model = *pr.model;
  const std::vector<double> p = effective_params(pr);
  auto ws = model.make_workspace();
  auto factors = estimate::make_jacobian_factors(model, ws.get(), sparse_threshold(pr));
  const std::vector<double> x0 = initial_state_of(pr, p, ws.get());
  estimate::ConservationLaws laws;
  const estimate::ConservedRows conserved =
      conserved_rows(pr, reading, p, x0, nullptr, {o.rtol, o.atol}, o.sensitivities, laws,
                     *factors, ws.get());
  const estimate::NewtonOutcome n = estimate::newton_steady_state(
      model, pr.t0, x0, p.data(),
      {{o.rtol, o.atol}, o.max_newton_iterations, o.sensitivities, conserved}, *factors,
      ws.get());
  out.attempts.push_back(n.attempt);
  if (!n.converged) return false;
  // x0 itself a root stays one, however unstable: only a root Newton moved
  // to must be one a trajectory from x0 can reach.
  if (n.x != x0) {
    const std::string unstable = unstable_root(model, pr.t0, n.x, p.data(), ws.get());
    if (!unstable.empty()) {
      out.attempts.back() += ", but at an unstable root (" + unstable + "): not the state x0 "
                             "goes to";
      return false;
    }
  }
  out.x = n.x;
  out.S = n.S;
  out.how = "newton";
  out.time = pr.t0;
  out.residual = n.residual;
  return true;
}

// The span x became steady over, for the integration of x and S that may
// follow; 0 when it did not.
double try_integration(const Problem& pr, const SteadyStateOptions& o, bool sensitivities,
                       SteadyState& out, double first_span = 10.0) {
  estimate::IntegrationOutcome i = estimate::integrate_to_steady_state(
      pr, {{o.rtol, o.atol}, o.max_time, sensitivities, first_span});
  out.attempts.push_back(i.attempt);
  if (!i.reached) return 0.0;
  out.x = std::move(i.x);
  out.S = std::move(i.S);
  out.how = "integration";
  out.time = i.time;
  out.residual = i.residual;
  return i.span;
}

// At (t + 10^k, x), k = 0 ... 9, f within the tolerances and J_x and J_p
// those at (t, x) to rounding (1e-12 of each entry's magnitude): f reads t
// only through what no longer changes after t (an input switched before
// it, a term with no effect). Samples: a change between them (a pulse
// inside (t, t + 1), a period of 1) is not seen. Dense: at most
// max_conservation_states states.
bool settled_after(const Model& model, double t, const double* x, const double* p,
                   estimate::NormTolerances tol, Workspace* ws) {
  const std::size_t nx = model.nx(), np = model.np();
  // Past 1e15, t + 1 is t: the later times would not be later.
  if (nx > estimate::max_conservation_states || !(std::fabs(t) < 1e15)) return false;
  std::vector<double> at(nx * (nx + np)), later(at.size()), f;
  auto jacobians = [&](double when, std::vector<double>& j) {
    model.jac_x(when, x, p, j.data(), ws);
    if (np > 0) model.jac_p(when, x, p, j.data() + nx * nx, ws);
  };
  jacobians(t, at);
  for (int k = 0; k <= 9; ++k) {
    const double when = t + std::pow(10.0, k);
    if (!(estimate::residual_norm(model, when, x, p, tol, f, ws) <= 1.0)) return false;
    jacobians(when, later);
    for (std::size_t i = 0; i < at.size(); ++i)
      if (!(std::fabs(at[i] - later[i]) <= 1e-12 * (std::fabs(at[i]) + std::fabs(later[i]))))
        return false;
  }
  return true;
}

// The formula gives the limit of S along any path to a regular x* of an
// autonomous f, and of an f whose J_x and J_p no longer change after the
// time x* was reached (settled_after: the integrated S's equation
// dS/dt = J_x S + J_p is then autonomous from there on). "" where it
// applies, else why not; where events act, S is integrated along the path.
std::string formula_refused(const Model& model, Model::TimeReading reading, double t,
                            const double* x, const double* p, estimate::NormTolerances tol,
                            Workspace* ws) {
  const EventSystem* e = model.event_system();
  if (e != nullptr && !e->events().empty()) return "events act";
  if ((reading.rhs || reading.jac_p) && !settled_after(model, t, x, p, tol, ws))
    return "f reads t, and f, J_x or J_p change after that time";
  return "";
}

// S* = -J_x^{-1} J_p at the x* that integration of x alone reached (out),
// where J_x is regular: the limit of the integrated S, without integrating
// np more columns (J_x singular at x0, where species start at 0, is often
// regular at x*); with the model's conservation laws where J_x is singular
// by them (conserved_rows). Not where J_x is singular at x* otherwise, nor
// where the root of f is further from x* than the tolerances (f small
// along a slow mode far from the root: the formula would be S of the root,
// not of x*).
bool sensitivities_by_formula(const Problem& pr, const SteadyStateOptions& o,
                              Model::TimeReading reading, SteadyState& out) {
  const Model& model = *pr.model;
  if (model.np() == 0) return true;  // S* has no columns
  const std::string head = "S* = -J_x^{-1} J_p at that x*: ";
  const std::vector<double> p = effective_params(pr);
  auto ws = model.make_workspace();
  const estimate::NormTolerances tol{o.rtol, o.atol};
  if (std::string why =
          formula_refused(model, reading, out.time, out.x.data(), p.data(), tol, ws.get());
      !why.empty()) {
    out.attempts.push_back(head + "not taken (" + why + ": S is integrated)");
    return false;
  }
  auto factors = estimate::make_jacobian_factors(model, ws.get(), sparse_threshold(pr));
  estimate::ConservationLaws laws;
  // The totals' check with the looser of the steady state's and the
  // integrator's tolerances (x* is an integrated state).
  const estimate::NormTolerances loose{std::max(o.rtol, *pr.rtol),
                                       std::max(o.atol, *std::max_element(pr.atol.begin(),
                                                                          pr.atol.end()))};
  const estimate::ConservedRows conserved =
      conserved_rows(pr, reading, p, initial_state_of(pr, p, ws.get()), &out.x, loose, true,
                     laws, *factors, ws.get());
  if (!factors->factor(out.time, out.x.data(), p.data())) {
    out.attempts.push_back(head + factors->why_not());
    return false;
  }
  std::vector<double> f;
  estimate::residual_norm(model, out.time, out.x.data(), p.data(), tol, f, ws.get());
  if (std::string far = estimate::root_too_far(out.x, std::move(f), tol, *factors, conserved);
      !far.empty()) {
    out.attempts.push_back(head + "not taken: " + far);
    return false;
  }
  out.S = estimate::steady_sensitivities(model, out.time, out.x.data(), p.data(), *factors,
                                        ws.get(), conserved);
  out.attempts.push_back(std::string("S* = -J_x^{-1} J_p at that x* (") + factors->kind() +
                         (conserved.laws ? ", " + laws.describe() : std::string()) + ")");
  return true;
}

// Integration of x alone, then S* by the formula where it applies, else
// integration of x and S; x and S integrated at once where the options
// rule Newton out.
bool try_integrations(const Problem& pr, const SteadyStateOptions& o,
                      Model::TimeReading reading, SteadyState& out) {
  if (!o.try_newton) return try_integration(pr, o, o.sensitivities, out) > 0.0;
  const double span = try_integration(pr, o, false, out);
  if (!(span > 0.0)) return false;
  if (!o.sensitivities || sensitivities_by_formula(pr, o, reading, out)) return true;
  // From the span x alone became steady over: x and S are rarely steady
  // sooner, and each span is a solve from t0.
  return try_integration(pr, o, true, out, span) > 0.0;
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
  // Which of f and J_p read t at these parameters: decided once.
  const Model::TimeReading reading =
      pr.model->time_reading_at(effective_params(pr).data(), nullptr);
  if (options.try_newton && try_newton(pr, options, reading, out)) return out;
  if (try_integrations(pr, options, reading, out)) return out;
  std::string message = out.x.empty() ? "no steady state found from the initial state:"
                                      : "x reached a steady state, but its sensitivities "
                                        "could not be integrated:";
  for (const auto& a : out.attempts) message += "\n  " + a;
  throw Error(Status::solver_failed, message);
}

}  // namespace odesens
