// The table of methods. A new method adds its folder and one entry here.
#include "arith/model_functions.hpp"
#include "core/quoted_text.hpp"
#include "methods/bounds/bounds_asa_method.hpp"
#include "methods/bounds/bounds_fsa_method.hpp"
#include "methods/choice/method_choice.hpp"
#include "methods/cvodes/cvodes_methods.hpp"
#include "methods/erk_adjoint/erk_adjoint_method.hpp"
#include "methods/internal_diff/dopri8s_method.hpp"
#include "methods/internal_diff/grk4as_method.hpp"
#include "methods/odesd/odesd_method.hpp"
#include "methods/pbs/pbs_methods.hpp"
#include "methods/registry.hpp"
#include "odesens/methods.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

MethodCapabilities trajectory_method() {
  MethodCapabilities c;
  c.s_trajectory = true;
  return c;
}

// Evaluates f alone (no Jacobians or other derivatives of the model).
MethodCapabilities difference_method() {
  MethodCapabilities c = trajectory_method();
  c.rhs_only = true;
  c.directions = true;
  c.events = true;
  return c;
}

// Internal differences on an implicit engine: f and the exact J_x (and
// J_x·v) of the model, no J_p.
MethodCapabilities grk4as_method() {
  MethodCapabilities c = trajectory_method();
  c.exact_jacobians = true;
  c.directions = true;
  c.events = true;
  return c;
}

MethodCapabilities second_derivative_method() {
  MethodCapabilities c = trajectory_method();
  c.second_derivatives = true;
  c.events = true;
  return c;
}

// Enclosures over Problem::param_lower/upper from the model's expressions.
MethodCapabilities bounds_method() {
  MethodCapabilities c;
  c.s_trajectory = true;
  c.gradient = true;
  c.bounds = true;
  c.parameter_box = true;
  return c;
}

MethodCapabilities bounds_adjoint_method() {
  MethodCapabilities c = bounds_method();
  c.s_trajectory = false;
  return c;
}

MethodCapabilities gradient_method() {
  MethodCapabilities c;
  c.gradient = true;
  c.final_s = true;
  return c;
}

MethodCapabilities integrand_gradient_method() {
  MethodCapabilities c = gradient_method();
  c.integrands = true;
  c.events = true;
  return c;
}

MethodCapabilities forward_sensitivity_method() {
  MethodCapabilities c = trajectory_method();
  c.events = true;
  return c;
}

MethodCapabilities event_gradient_method() {
  MethodCapabilities c = gradient_method();
  c.events = true;
  return c;
}

const std::vector<MethodEntry>& registry() {
  static const std::vector<MethodEntry> entries = {
      {{"cvodes_fsa",
        "CVODES forward sensitivities (BDF or Adams, simultaneous or staggered corrector): S at "
        "every output time",
        forward_sensitivity_method(), 1e-8, 1e-10, cvodes::forward_option_specs()},
       cvodes::prepare_forward},
      {{"cvodes_asa",
        "CVODES checkpointed adjoint: gradient of G = sum_k w_k^T x(t_k) and S at the final "
        "time (one backward problem per state)",
        event_gradient_method(), 1e-8, 1e-10, cvodes::adjoint_option_specs()},
       methods::keeps_nothing(cvodes::solve_adjoint)},
      {{"pbsr",
        "Peano-Baker series with refinement (Algorithm 2 of the PBS paper): S at every output "
        "time from a state-only solve, switching to the exponential update where J_x and J_p "
        "are nearly constant",
        forward_sensitivity_method(), 1e-5, 1e-6, pbs::pbsr_option_specs()},
       methods::keeps_nothing(pbs::solve_pbsr)},
      {{"exp",
        "exponential update of S on every solver step (Algorithm 3 of the PBS paper): exact "
        "for constant J_x and J_p",
        forward_sensitivity_method(), 1e-5, 1e-6, pbs::exp_option_specs()},
       methods::keeps_nothing(pbs::solve_exp)},
      {{"erk_adjoint",
        "discrete adjoint of an adaptive explicit Runge-Kutta solve (dopri5 by default): the "
        "exact gradients of M objectives sum_k w_k^T x(t_k) + integral of R(t, x, p) for the "
        "discrete solution, and S at the final time",
        integrand_gradient_method(), 1e-6, 1e-8, erk_adjoint::option_specs()},
       methods::keeps_nothing(erk_adjoint::solve)},
      {{"dopri8s",
        "internal differences on dop853 (Franz & Kiehl's DOPRI8S, non-stiff problems): S*R for "
        "directions R (dx/dp by default, dx/dx0, both, or Problem::sens_directions) at every "
        "output time, from 1 + n_s trajectories on one shared step sequence whose error test "
        "also bounds the error of S*R (sens_rtol, sens_atol)",
        difference_method(), 1e-8, 1e-10, dopri8s::option_specs()},
       methods::keeps_nothing(dopri8s::solve)},
      {{"grk4as",
        "internal differences on a Rosenbrock method (Franz & Kiehl's GRK4AS, stiff problems; "
        "RODAS4 by default, the paper's GRK4A with tableau=grk4a): S*R as dopri8s computes it, "
        "with one exact J_x and one LU of I - h*gamma*J per step shared by all 1 + n_s "
        "trajectories; steps land on the output times",
        grk4as_method(), 1e-8, 1e-10, grk4as::option_specs()},
       methods::keeps_nothing(grk4as::solve)},
      {{"odesd",
        "odeSD (Gonnet et al. 2012): the 4th-degree implicit rule in f and its time "
        "derivative a = J f + df/dt, error estimate from the 5th-degree g5, direct "
        "sensitivities (Eq. 15) on the same LU: S at every output time",
        second_derivative_method(), 1e-8, 1e-10, odesd::option_specs()},
       methods::keeps_nothing(odesd::solve)},
      {{"bounds_fsa",
        "set-valued sensitivity bounds (Peric, Villanueva & Chachuat 2017), forward variant: "
        "Chebyshev or Taylor models in the parameters over a box, with interval or ellipsoidal "
        "remainders, enclosing x, S and dF/dp at every output time for all p in the box",
        bounds_method(), 1e-8, 1e-10, bounds::bounds_fsa_option_specs()},
       methods::keeps_nothing(bounds::solve_bounds_fsa)},
      {{"bounds_asa",
        "set-valued sensitivity bounds (Peric, Villanueva & Chachuat 2017), adjoint variant: "
        "one forward state bounding and one backward adjoint bounding enclose x at every "
        "output time and dF/dp (no S) for all p in the box, whatever the number of parameters",
        bounds_adjoint_method(), 1e-8, 1e-10, bounds::bounds_asa_option_specs()},
       methods::keeps_nothing(bounds::solve_bounds_asa)},
  };
  return entries;
}

}  // namespace

const MethodEntry& method_entry(const std::string& id) {
  for (const auto& e : registry())
    if (e.info.id == id) return e;
  std::string known;
  for (const auto& e : registry()) known += (known.empty() ? "" : ", ") + e.info.id;
  throw Error(Status::unknown_method,
              "unknown method " + quoted_text(id) + " (methods: " + known + ", or auto to choose one)");
}

const std::vector<MethodInfo>& method_infos() {
  static const std::vector<MethodInfo> infos = [] {
    std::vector<MethodInfo> v;
    for (const auto& e : registry()) v.push_back(e.info);
    return v;
  }();
  return infos;
}

const MethodInfo& method_info(const std::string& method_id) {
  if (method_id == kAutomaticMethod) return methods::automatic_method_info();
  return method_entry(method_id).info;
}

bool declares_option(const MethodInfo& info, const std::string& key) {
  for (const auto& spec : info.options)
    if (spec.key == key) return true;
  return false;
}

// A box's enclosures start from x0(p) of the model's expressions over
// the box; a point value of dx0/dp does not say how x0 moves across it.
void check_run_inputs(const std::string& method_id, const MethodCapabilities& needs,
                      const Problem& problem) {
  if (needs.bounds && !problem.initial_sensitivity.empty())
    throw Error(Status::unsupported,
                "method '" + method_id +
                    "' encloses solutions over a parameter box and takes no initial "
                    "sensitivity (Problem::initial_sensitivity, one value of dx0/dp); give "
                    "x0 as the model's expressions of p instead");
}

void check_method_needs(const std::string& method_id, const MethodCapabilities& needs,
                        const Problem& problem) {
  check_run_inputs(method_id, needs, problem);
  const Model& model = *problem.model;
  const std::string who = "method '" + method_id + "' needs ";
  if (needs.exact_jacobians && !model.has_analytic_jacobians())
    throw Error(Status::unsupported,
                who + "exact Jacobians J_x and J_p, which model " + model.name() +
                    " does not provide (give them as callbacks, or load the model from .ode or "
                    "SBML, whose derivatives are exact)");
  if (needs.second_derivatives && !model.second_derivatives())
    throw Error(Status::unsupported,
                who + "the second derivatives of the model (xddot = J_x f + df/dt and its "
                      "Jacobians), which model " + model.name() +
                    " does not provide (models from .ode, SBML or record() have them)");
  const EventSystem* events = model.event_system();
  if (needs.bounds && events) {
    // One polynomial model in p cannot follow a solution that jumps or
    // switches at a place that moves with p (or x) inside the box.
    if (!events->events().empty())
      throw Error(Status::unsupported,
                  "method '" + method_id + "' cannot enclose a model with events (event '" +
                      events->events().front().id +
                      "'): a jump inside the parameter box cannot be enclosed by one polynomial "
                      "model in the parameters");
    for (const auto& root : events->roots())
      if (root.switches_rhs && root.moves)
        throw Error(Status::unsupported,
                    "method '" + method_id + "' cannot enclose a model whose right-hand side "
                    "switches where the states or parameters say (the " + root.text +
                    "): a switch inside the parameter box cannot be enclosed by one polynomial "
                    "model in the parameters");
  }
  if (!needs.events && events && !events->events().empty()) {
    std::string runs;
    for (const auto& e : registry())
      if (e.info.capabilities.events) runs += (runs.empty() ? "" : ", ") + e.info.id;
    throw Error(Status::unsupported,
                "method '" + method_id + "' does not run the model's events yet (event '" +
                    events->events().front().id + "'; " + runs + " does)");
  }
  if (!needs.integrands && (problem.n_objectives != 1 || problem.integrand))
    throw Error(Status::unsupported,
                "method '" + method_id + "' differentiates one objective G = sum_k w_k^T x(t_k) " +
                    (needs.gradient ? "" : "(if any) ") +
                    "and takes neither several objectives nor integrands (erk_adjoint does)");
  if (needs.integrands && problem.integrand) {
    // The quadrature steps across a jump of R, and the gradient lacks the
    // jump's term (R- - R+) dtau/dp: erk_adjoint's dpsi/dT1 of
    // piecewise(2 x, t < T1, x) was 0 where it is x(T1).
    const std::string moving = problem.integrand->moving_switch();
    if (!moving.empty())
      throw Error(Status::unsupported,
                  "method '" + method_id + "' takes no running cost that switches along the "
                  "solution (" + moving + "): its quadrature would step across the switch, and "
                  "where the running cost jumps there its gradient would lack the jump's "
                  "term. Integrate it as a state instead "
                  "(dz/dt = the running cost, z(t0) = 0) and take z at the last output time "
                  "as the objective (--weights z=1), whose switches every method locates");
  }
  if (!needs.directions && !problem.sens_directions.empty())
    throw Error(Status::unsupported,
                "method '" + method_id +
                    "' computes S = dx/dp and takes no sensitivity directions "
                    "(Problem::sens_directions; dopri8s and grk4as do)");
  if (!needs.bounds && !problem.objective_data.empty())
    throw Error(Status::unsupported,
                "method '" + method_id +
                    "' takes no objective data (Problem::objective_data; bounds_fsa does)");
  if (needs.bounds && !arith::has_expressions(model))
    throw Error(Status::unsupported,
                who + "the model's expressions, to evaluate it over the parameter box; model " +
                    model.name() +
                    " has none (load it from .ode or SBML, or build it with record())");
  if (needs.parameter_box && problem.param_lower.empty() && model.np() > 0)
    throw Error(Status::invalid_argument,
                who + "a parameter box (Problem::param_lower and param_upper; --box "
                      "name=lower:upper,... on the command line)");
}

}  // namespace odesens
