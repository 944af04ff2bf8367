// pbsr and exp: the states from CVODES (BDF by default) in one-step mode
// (cvodes/cvodes_stepper.hpp), and S carried along the solver's own step
// grid by the SensitivityPropagator; output times inside a step get S by a
// partial update, so the steps do not depend on the output times. Only the nx-dimensional state
// system is integrated; S costs matrix products per step.
#include "methods/pbs/pbs_methods.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/number_text.hpp"
#include "integrate/events/event_runner.hpp"
#include "methods/common/evented_cvodes_outputs.hpp"
#include "integrate/output_grid.hpp"
#include "methods/common/result_builder.hpp"
#include "methods/common/cvodes_options.hpp"
#include "integrate/cvodes/cvodes_session.hpp"
#include "integrate/cvodes/cvodes_stepper.hpp"
#include "methods/pbs/propagator_follower.hpp"
#include "methods/pbs/sensitivity_propagator.hpp"
#include "methods/pbs/state_error_check.hpp"
#include "odesens/status.hpp"

namespace odesens::pbs {
namespace {

// What the error estimates found (update_error.hpp), and the warnings of
// steps whose estimate stayed above the tolerances.
void write_error_stats(const ErrorCounters& e, methods::ResultBuilder& out) {
  Stats& stats = out.stats();
  stats.extra["error_estimate_largest"] = e.largest;
  stats.extra["steps_over_tolerance"] = static_cast<double>(e.steps_over);
  stats.extra["steps_split"] = static_cast<double>(e.steps_refined);
  stats.extra["split_pieces"] = static_cast<double>(e.pieces);
  stats.extra["steps_to_exponential"] = static_cast<double>(e.steps_to_exponential);
  if (e.steps_refined == 0 && e.steps_over > 0)
    out.warn("the estimated error of S exceeded the tolerances on " +
             std::to_string(e.steps_over) + " of " + std::to_string(e.steps_estimated) +
             " steps, by up to " + rounded_number_text(e.largest) +
             " times (error_control=refine splits such steps; cvodes_fsa controls S's error "
             "itself)");
  if (e.steps_left_over > 0)
    out.warn("the estimated error of S stayed above the tolerances on " +
             std::to_string(e.steps_left_over) + " steps after splitting them into " +
             "max_pieces pieces, by up to " + rounded_number_text(e.largest_left_over) +
             " times (raise max_pieces, tighten rtol, or use cvodes_fsa)");
}

// Statistics of the state solve over all its restarts and of the
// propagator, and the warning of a frozen J_p that lagged.
void write_stats(const cvodes::Session& session, const SensitivityPropagator& propagator,
                 const PropagatorFollower& follow, const Settings& settings,
                 const Problem& problem, methods::ResultBuilder& out) {
  Stats& stats = out.stats();
  cvodes::add_counters(session.counters(), stats, /*sensitivities=*/false);
  const Counters& c = propagator.counters();
  stats.jac_evals += c.jacobian_evals;
  stats.extra["grid_points"] = static_cast<double>(follow.grid_points);
  stats.extra["pbs_intervals"] = static_cast<double>(c.pbs_intervals);
  stats.extra["exp_intervals"] = static_cast<double>(c.exp_intervals);
  stats.extra["pbs_sub_intervals"] = static_cast<double>(c.sub_intervals);
  stats.extra["output_updates"] = static_cast<double>(c.output_updates);
  stats.extra["output_interpolations"] = static_cast<double>(c.output_interpolations);
  stats.extra["output_spectral"] = static_cast<double>(c.output_spectral);
  stats.extra["output_decompositions"] = static_cast<double>(c.output_decompositions);
  stats.extra["output_decompositions_refused"] =
      static_cast<double>(c.output_decompositions_refused);
  stats.extra["exponential_products"] = static_cast<double>(c.exponential_products);
  stats.extra["sparse_exponentials"] = static_cast<double>(c.sparse_exponentials);
  stats.extra["jac_p_evals"] = static_cast<double>(c.jac_p_evals);
  stats.extra["workspace_bytes"] = session.workspace_bytes() + propagator.workspace_bytes();
  write_error_stats(propagator.error_counters(), out);
  if (settings.exp_jp == ExpJp::frozen && c.frozen_jp_lag > 10.0 * problem.rtol.value_or(1e-6)) {
    out.warn("exp_jp=frozen: over stiff steps (dt |J_x| > 1) J_p changed by up to " +
             rounded_number_text(2.0 * c.frozen_jp_lag) +
             " relative to its value; fast components of S lag such a change by about half of "
             "it, so S may be off by as much (exp_jp=linear follows J_p)");
  }
}

// S from the propagator as the columns beside CVODES' state, for the
// shared event loop. S at a time inside the last step never moves the
// propagator (outputs before an instant located at the step's end are read
// after it); a restart starts it again from the instant.
//
// A located crossing of a switch of f that compares states gives the state
// at it on the new side, within rounding of the switch: S there is read
// with the state moved back within rounding onto the sides held before
// (EventRunner::onto_sides), so that the update to it takes J on the
// branch of the step that ends there (0.3 % off in S on dx/dt =
// piecewise(-k*x, x <= a, -k*a) at the default tolerances without it).
class PropagatedSensitivities final : public cvodes::SensitivityColumns {
 public:
  PropagatedSensitivities(SensitivityPropagator& propagator, PropagatorFollower& follow,
                          integrate::EventRunner& events, std::size_t nx, std::size_t np)
      : propagator_(propagator), follow_(follow), events_(events), nx_(nx), np_(np),
        x_held_(nx) {}
  std::size_t columns() const override { return np_; }
  void at(double t, const double* x, double* S) override {
    const bool moved = events_.onto_sides(t, x, x_held_.data());
    const double* at_x = moved ? x_held_.data() : x;
    double t_end = t;
    const double* x_end = follow_.pending_end(&t_end);
    // A step whose end lies across such a switch: S inside it by partial
    // updates alone, whose J is taken inside it.
    const bool crossing = moved || (x_end && events_.off_sides(t_end, x_end));
    const double* s =
        crossing ? follow_.sensitivity_by_update(t, at_x) : follow_.sensitivity_ahead(t, at_x);
    std::copy(s, s + nx_ * np_, S);
  }
  void restart(double t, const double* x, const double* S) override {
    propagator_.start(t, x, S);
    follow_.restart();
  }

 private:
  SensitivityPropagator& propagator_;
  PropagatorFollower& follow_;
  integrate::EventRunner& events_;
  std::size_t nx_, np_;
  std::vector<double> x_held_;
};

// The outputs of a model without events: the state solve steps freely to
// the last output time, S follows its steps.
void reach_plain(const Problem& problem, cvodes::CvodesStepper& stepper,
                 PropagatorFollower& follow, methods::ResultBuilder& out) {
  const auto& times = problem.output_times;
  for (std::size_t k = 0; k < times.size(); ++k) {
    stepper.begin_output();
    integrate::reach_outputs(stepper, &times[k], 1, stepper.grid_settings(), out.x(k));
    out.set_s(k, follow.sensitivity_at(times[k], out.x(k)));
  }
}

// The outputs of a model with events or switches of f (docs/events.md),
// through the shared event loop: CVODES locates the roots and stops at
// pending executions; at each instant S is read at it, jumps, and the
// state solve and the propagator restart there.
void reach_with_events(const Problem& problem, cvodes::Session& session,
                       cvodes::CvodesStepper& stepper, SensitivityPropagator& propagator,
                       PropagatorFollower& follow, integrate::EventRunner& events,
                       methods::ResultBuilder& out) {
  const std::size_t nx = session.nx(), np = session.np();
  PropagatedSensitivities sensitivities(propagator, follow, events, nx, np);
  methods::reach_outputs_with_events(problem, session, stepper, events,
                                     np > 0 ? &sensitivities : nullptr, out);
}

// The estimate needs J at each step's midpoint on the trajectory, which
// only exp_jacobian=midpoint provides.
ErrorControlSettings error_control_for(const Problem& problem, const MethodOptions& options,
                                       const Settings& settings) {
  ErrorControlSettings control;
  const std::string mode = options.get_string("error_control");
  if (mode == "off" || settings.exp_jacobian != ExpJacobian::midpoint) return control;
  control.mode = mode == "warn" ? ErrorControl::warn : ErrorControl::refine;
  control.rtol = *problem.rtol;
  control.atol = problem.atol;
  control.max_pieces = options.get_int("max_pieces");
  return control;
}

Result run(const Problem& problem, const MethodOptions& options, const Settings& settings) {
  cvodes::Session session(cvodes::initial_value_problem(problem),
                          cvodes::read_session_settings(options));
  session.set_interrupt(&problem.interrupt);
  session.create_integrator();
  const std::size_t nx = session.nx(), np = session.np();
  const double* x = N_VGetArrayPointer(session.state());

  SensitivityPropagator propagator(session.model(), session.params().data(), settings);
  propagator.start(problem.t0, x, session.initial_sensitivity().data());
  propagator.control_error(error_control_for(problem, options, settings));
  PropagatorFollower follow(propagator, nx, np);

  const auto& times = problem.output_times;
  propagator.set_output_times(&times);
  cvodes::CvodesStepper stepper(session, problem.t0, problem.max_steps,
                                /*stop_at_outputs=*/false, &follow);
  if (settings.exp_jacobian == ExpJacobian::midpoint) follow.set_solution(&stepper);
  if (!times.empty() && times.back() > problem.t0) stepper.set_horizon(times.back());

  methods::ResultBuilder out(problem, nx, np, methods::SensitivityLayout::every_output);
  integrate::EventRunner events(session.model(), session.params().data(), np,
                                session.workspace());
  if (events.active()) {
    reach_with_events(problem, session, stepper, propagator, follow, events, out);
  } else {
    if (!times.empty() && times.back() > problem.t0)
      session.check(CVodeSetStopTime(session.mem(), times.back()), "CVodeSetStopTime");
    reach_plain(problem, stepper, follow, out);
  }
  write_stats(session, propagator, follow, settings, problem, out);
  if (settings.exp_jacobian != ExpJacobian::midpoint &&
      options.get_string("error_control") != "off" && np > 0)
    out.warn("S's error is not estimated with exp_jacobian=" +
             options.get_string("exp_jacobian") +
             " (the estimate needs J at each step's midpoint: exp_jacobian=midpoint)");
  return out.take();
}

// The state solve runs at the methods' loose tolerances (rtol 1e-5 by
// default), and on some stiff models CVODES cannot advance at them where it
// can at tighter ones (Laske_PLOSComputBiol2019: "could not advance past
// t = 97.5" at 1e-5, 1589 steps at 1e-6). A state solve that fails so is
// taken again at tolerances 10, then 100 times tighter, with a warning that
// says so: the user asked for S, and a tighter state solve only costs
// steps. A better message alone would not do: which tolerance works is only
// known by trying. max_steps is not retried (tighter costs more steps).
Result run_or_tighten(const Problem& problem, const MethodOptions& options,
                      const Settings& settings) {
  const auto tolerances = [](const Problem& p) {
    return "rtol " + rounded_number_text(*p.rtol) + ", atol " +
           rounded_number_text(p.atol.empty() ? 0.0 : p.atol[0]);
  };
  std::string failures;
  for (const double factor : {1.0, 10.0, 100.0}) {
    Problem tighter = problem;
    tighter.rtol = *problem.rtol / factor;
    for (double& a : tighter.atol) a /= factor;
    try {
      Result r = run(tighter, options, settings);
      if (options.get_int("state_check") != 0 && r.np > 0) check_state_error(tighter, options, r);
      if (factor > 1.0)
        r.warnings.push_back("the state solve failed at " + failures +
                             "; these results are from a state solve at " + tolerances(tighter));
      return r;
    } catch (const Error& e) {
      if (e.status() != Status::solver_failed) throw;
      failures += (failures.empty() ? "" : " and at ") + tolerances(tighter) + " (" + e.what() + ")";
    }
  }
  throw Error(Status::solver_failed, "the state solve failed at " + failures +
                                         "; cvodes_fsa or odesd may manage this model");
}

}  // namespace

namespace {

// Options of both methods beyond the CVODES state solve's.
std::vector<OptionSpec> pbs_common_option_specs() {
  auto specs = cvodes::common_option_specs();
  specs.push_back({"exp_jacobian", OptionType::text, std::string("midpoint"),
                   "where the exponential update (Eq. 18) freezes J_x and J_p: midpoint (the "
                   "state there from the solver's interpolant; second order) or left (the "
                   "paper's left end; first order)",
                   {"midpoint", "mean", "left"}});
  specs.push_back({"exp_jp", OptionType::text, std::string("linear"),
                   "J_p over an exponential update: linear (a ramp ending at its value at "
                   "the step's end, started so that it integrates like Simpson's rule where "
                   "J_p at the midpoint is known: the phi_2 term; right where fast modes "
                   "follow a moving J_p, one more J_p evaluation per step) or frozen (at the point exp_jacobian "
                   "chooses, as in the paper's Eq. 18)",
                   {"linear", "frozen"}});
  specs.push_back({"exp_jx", OptionType::text, std::string("linear"),
                   "J_x's change over an exponential update: linear (its departure from the "
                   "frozen J_x, times S, as a forcing linear between the step's ends: right "
                   "where fast modes follow a moving J_x over stiff steps; no model "
                   "evaluation, four products per step; needs J_x at the ends and exp_jp=linear;"
                   " sparse actions take a second action) or frozen (the paper's Eq. 18)",
                   {"linear", "frozen"}});
  specs.push_back({"error_control", OptionType::text, std::string("refine"),
                   "what to do with each step's estimated error of S (from J at the step's "
                   "ends and midpoint; the updates are second order in the state solver's "
                   "steps): refine (split a step whose estimate exceeds the tolerances into "
                   "pieces, states from the solver's interpolant), warn (say so in the "
                   "result) or off; needs exp_jacobian=midpoint",
                   {"refine", "warn", "off"}});
  specs.push_back(flag_option(
      "state_check", true,
      "1: solve the states again at tolerances 10 times tighter and warn when the states' "
      "global error exceeds 300 times their tolerances (S, computed along them, inherits "
      "it), or when S's error caused by the states' error, estimated through J_x and J_p, "
      "exceeds 300 rtol (0 to 41 % more time on the shared models, median 29 %: the check matters most where a solve takes a few ms); 0: skip"));
  specs.push_back({"outputs", OptionType::text, std::string("spectral"),
                   "S at output times inside a state solver step: spectral (the step's update "
                   "restricted to the output with J_x frozen at the step's midpoint and J "
                   "interpolated from its ends and midpoint, by one eigen-decomposition of J_x "
                   "per step for all its outputs; steps whose eigenvectors are too "
                   "ill-conditioned for rtol take interpolate's exponential), interpolate (the "
                   "same update with J_x at the sub-interval's midpoint: one exponential per "
                   "output), both without model evaluations and needing error_control, or "
                   "partial (the update with J evaluated at the output and at the "
                   "sub-interval's midpoint)",
                   {"spectral", "interpolate", "partial"}});
  specs.push_back(bounded({"max_pieces", OptionType::integer, std::int64_t{16},
                           "most pieces error_control=refine splits one state solver step into",
                           {}},
                          2, 1e6));
  specs.push_back({"updates", OptionType::text, std::string("auto"),
                   "S updates with dense n x n matrices or with the sparse J_x (Peano-Baker "
                   "steps as sparse products; the exponential's action by a truncated Taylor "
                   "series, about |J dt|_1 sparse products per step; memory O(nnz + nx np)); "
                   "auto: sparse when the model has a J_x pattern and nx >= sparse_threshold, "
                   "each exponential then by the cheaper of the sparse action and the dense "
                   "exponential",
                   {"auto", "dense", "sparse"}});
  return specs;
}

// The options both methods share, into their Settings.
void read_common(const MethodOptions& options, Settings& settings) {
  const std::string outputs = options.get_string("outputs");
  settings.interpolate_outputs = outputs != "partial";
  settings.spectral_outputs = outputs == "spectral";
  settings.exp_jp = options.get_string("exp_jp") == "frozen" ? ExpJp::frozen : ExpJp::linear;
  settings.exp_jx = options.get_string("exp_jx") == "frozen" ? ExpJx::frozen : ExpJx::linear;
  const std::string updates = options.get_string("updates");
  settings.updates = updates == "dense"    ? Updates::dense
                     : updates == "sparse" ? Updates::sparse
                                           : Updates::automatic;
  settings.sparse_threshold = options.get_int("sparse_threshold");
}

ExpJacobian read_exp_jacobian(const MethodOptions& options) {
  const std::string v = options.get_string("exp_jacobian");
  return v == "left" ? ExpJacobian::left : v == "mean" ? ExpJacobian::mean : ExpJacobian::midpoint;
}

}  // namespace

std::vector<OptionSpec> exp_option_specs() { return pbs_common_option_specs(); }

std::vector<OptionSpec> pbsr_option_specs() {
  auto specs = pbs_common_option_specs();
  specs.push_back(bounded({"eps_tol", OptionType::real, 1e-4,
                           "switch to the exponential update when the relative changes of J_x "
                           "and J_p over a step (Frobenius norms) are at most eps_tol (Eq. 45, "
                           "Algorithm 1)",
                           {}},
                          0.0, std::numeric_limits<double>::infinity()));
  specs.push_back(bounded({"n_max", OptionType::integer, std::int64_t{10},
                           "switch to the exponential update when refinement needs more "
                           "sub-intervals",
                           {}},
                          1, 1e9));
  specs.push_back(bounded({"c", OptionType::real, 10.0,
                           "refinement: n_int = ceil(c * dt * |J_x|_F) sub-intervals per step "
                           "(must be positive)",
                           {}},
                          std::numeric_limits<double>::min(),
                          std::numeric_limits<double>::infinity()));
  specs.push_back(bounded({"max_refinement", OptionType::integer, std::int64_t{100000},
                           "most sub-intervals one step may be refined into (at most 1e9; "
                           "max_steps bounds it too); a step that needs more ends the solve "
                           "with too_much_work",
                           {}},
                          1, 1e9));
  specs.push_back(flag_option("force_pbs", false,
                              "1: never switch, always the Peano-Baker update with refinement"));
  specs.push_back({"state_interpolation", OptionType::text, std::string("linear"),
                   "states inside a refined step: linear (the paper's choice) or hermite "
                   "(cubic, from x and dx/dt at both ends; one more f evaluation per step)",
                   {"linear", "hermite"}});
  return specs;
}

Result solve_exp(const Problem& problem, const MethodOptions& options) {
  Settings settings;
  settings.algorithm = Algorithm::exp;
  settings.exp_jacobian = read_exp_jacobian(options);
  read_common(options, settings);
  return run_or_tighten(problem, options, settings);
}

// pbsr's options, read once into its Settings.
Result solve_pbsr(const Problem& problem, const MethodOptions& options) {
  Settings settings;
  settings.algorithm = Algorithm::pbsr;
  settings.exp_jacobian = read_exp_jacobian(options);
  read_common(options, settings);
  settings.eps_tol = options.get_double("eps_tol");
  settings.n_max = options.get_int("n_max");
  settings.c = options.get_double("c");
  settings.force_pbs = options.get_int("force_pbs") != 0;
  settings.max_refinement = options.get_int("max_refinement");
  settings.max_steps = problem.max_steps;
  settings.interpolation = options.get_string("state_interpolation") == "linear"
                               ? StateInterpolation::linear
                               : StateInterpolation::hermite;
  return run_or_tighten(problem, options, settings);
}

}  // namespace odesens::pbs
