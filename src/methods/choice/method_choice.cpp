// The rule of "auto" (docs/methods/auto.md gives it with
// the measurements of benchmarks/RESULTS.md it rests on).
#include "methods/choice/method_choice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include "core/number_text.hpp"
#include "integrate/erk/stiffness_test.hpp"
#include "methods/choice/stiffness_probe.hpp"
#include "odesens/methods.hpp"
#include "odesens/model.hpp"
#include "odesens/model_capabilities.hpp"
#include "odesens/status.hpp"
#include "problem/initial_values.hpp"

namespace odesens::methods {

bool automatic_encloses(const Problem& p) {
  return !p.param_lower.empty() || !p.objective_data.empty();
}

namespace {

constexpr double kAutoRtol = 1e-8;
constexpr double kAutoAtol = 1e-10;
// Projected dopri5 steps over the span above which an explicit method is
// no longer the cheap choice: the implicit methods take 100-6000 steps on
// the shared real models (RESULTS.md, the method matrix).
constexpr double kExplicitStepLimit = 20000;
// Parameters up to which forward sensitivities give a gradient faster than
// the BDF adjoint (cvodes_asa with final_sensitivity=0). Measured
// (bench_method_matrix --choice): odesd is faster on Boehm (8) and Elowitz
// (18), cvodes_asa on Bachmann (37).
constexpr std::size_t kForwardGradientParameters = 24;
// Above kOdesdSensitivityLimit (method_choice.hpp), up to kOdesdLargeSensitivity entries of S, odesd still takes
// the fewest steps unless the problem is extremely stiff: its rule leaves
// stiff components undamped (|R(-inf)| = 1), and S'' = J_a S + A_p holds
// terms of order |J|^2 |S| whose rounding its error test chases. The
// stiffness probe's pace measures |J| (dopri5's steps held at h|lambda|
// near its stability boundary): the explicit steps the span would take.
// Measured (bench_method_matrix --choice, auto's tolerances, S at 101
// outputs): Smith_BMCSystBiol2013 (94 x 386, 5e6 projected steps) odesd
// 0.66 s against cvodes_fsa's 2.95 s; Chen_MSB2009 (500 x 188, 2e5) 8.0 s
// against 5.5 s (the loss accepted); Lang_PLOSComputBiol2024 (124 x 317,
// 4.5e9) 130 s against 7.6 s. The two former are problems of the PEtab
// benchmark collection outside ../shared.
constexpr double kOdesdLargeSensitivity = 1e5;
constexpr double kOdesdLargeSensitivityPace = 1e8;
// nx * np up to which dopri8s is chosen for a non-stiff problem.
constexpr double kTinySensitivity = 64;
// The explicit pace (dopri5 steps over the span, at the probe's rate) up to
// which a non-stiff problem the probe did not finish still goes to dopri8s:
// chua over [0, 10] at rtol 1e-8 (300 probe steps to t = 8.2, a pace of
// 365) took odesd 730 us, dopri8s 67 us. Stiffness met later ends
// dopri8s' solve early (its own test), and the fallback runs odesd.
constexpr double kTinyExplicitPace = 3000;
// States up to which exp is chosen for states at rest (at_rest below).
constexpr std::size_t kAtRestStates = 50;
// f(t0, x0) counts as 0 where |f_i| (t_end - t0) <= kRestDrift (rtol |x_i|
// + atol_i): x would not move by a thousandth of its tolerance.
constexpr double kRestDrift = 1e-3;

// nx * np, the size of S.
double sensitivity_size(const Problem& p) {
  return static_cast<double>(p.model->nx()) * static_cast<double>(p.model->np());
}

struct AutomaticSettings {
  std::string goal;  // "auto", "s" or "gradient"
  long probe_steps = 300;
};

AutomaticSettings read_automatic_settings(const Problem& problem) {
  const MethodOptions options("auto", automatic_method_info().options, problem.options);
  AutomaticSettings s;
  s.goal = options.get_string("goal");
  s.probe_steps = static_cast<long>(options.get_int("probe_steps"));
  return s;
}

bool asks_gradient(const Problem& p) {
  return p.objective != nullptr || !p.adjoint_weights.empty() || p.integrand != nullptr ||
         p.n_objectives > 1 || !p.objective_data.empty();
}

std::string goal_of(const Problem& p, const AutomaticSettings& s) {
  if (s.goal != "auto") return s.goal;
  return asks_gradient(p) ? "gradient" : "s";
}

// Nothing in the model switches: no events, no comparisons or floor/ceil
// in f (whose switches end steps).
bool nothing_switches(const Model& m) {
  const EventSystem* e = m.event_system();
  return !e || (e->events().empty() && e->roots().empty());
}

// The most state values (nx times output times, 8 MB) the probe keeps for
// auto's state check; above, the chosen method checks itself.
constexpr double kKeptStates = 1e6;

// Probes once, the first time a rule asks; `cap` (first call only) bounds
// the steps below the option probe_steps where a rule needs fewer.
class ChoiceProbe {
 public:
  ChoiceProbe(const Problem& problem, long budget) : problem_(problem), budget_(budget) {}
  StiffnessFinding& finding(long cap = std::numeric_limits<long>::max()) {
    if (!done_) {
      const long budget = std::min(budget_, cap);
      finding_ = budget > 0 ? probe_stiffness(problem_, budget, kExplicitStepLimit,
                                              keeps_states())
                            : StiffnessFinding{};
      if (budget <= 0) finding_.detail = "probe_steps=0";
      done_ = true;
    }
    return finding_;
  }
  bool done() const { return done_; }
  // The states at the outputs, where the probe's solution is one of the
  // problem (it ignores events and the switches of f) and they take no
  // more memory than kKeptStates values.
  bool keeps_states() const {
    const double values = static_cast<double>(problem_.model->nx()) *
                          static_cast<double>(problem_.output_times.size());
    return nothing_switches(*problem_.model) && values <= kKeptStates;
  }
  bool explicit_suits() { return finding().explicit_suits(); }
  // One sentence on what the probe found.
  std::string said() {
    const StiffnessFinding& f = finding();
    std::ostringstream s;
    s << "the stiffness probe (" << f.steps << " dopri5 steps to t = "
      << rounded_number_text(f.t_reached) << ") found the problem " << finding_name(f.kind);
    if (f.kind == StiffnessFinding::Kind::slow)
      s << " (about " << rounded_number_text(f.projected_steps)
        << " explicit steps over the span)";
    else if (!f.detail.empty())
      s << " (" << f.detail << ")";
    else if (f.kind == StiffnessFinding::Kind::non_stiff && f.median_h_lambda > 0)
      s << " (Hairer's estimate of h|lambda| had a median of "
        << rounded_number_text(f.median_h_lambda)
        << " of dopri5's stability boundary; 0.35 would be stiff)";
    return s.str();
  }

 private:
  const Problem& problem_;
  long budget_;
  bool done_ = false;
  StiffnessFinding finding_;
};

MethodChoice choice_of(std::string method, std::string goal, std::string reason) {
  MethodChoice c;
  c.method = std::move(method);
  c.goal = std::move(goal);
  c.reason = std::move(reason);
  return c;
}

MethodChoice choose_enclosure(const Problem& p, const std::string& goal) {
  if (goal == "gradient")
    return choice_of("bounds_asa", goal,
                  "a parameter box asks for enclosures, and for the gradient alone bounds_asa "
                  "encloses it at a cost independent of the number of parameters");
  return choice_of("bounds_fsa", goal,
                "a parameter box asks for enclosures; bounds_fsa encloses x and S at every "
                "output time");
}

MethodChoice choose_for_directions(const Problem& p, ChoiceProbe& probe) {
  if (probe.explicit_suits() || !p.model->has_analytic_jacobians())
    return choice_of("dopri8s", "s",
                  "sensitivity directions ask for S*R, which dopri8s and grk4as compute; " +
                      probe.said() + ", so dopri8s");
  return choice_of("grk4as", "s",
                "sensitivity directions ask for S*R, which dopri8s and grk4as compute; " +
                    probe.said() + ", so grk4as, the implicit one");
}

// odesd suits S of every parameter (odesd_suits_sensitivities).
bool odesd_suits(const Problem& p) {
  return odesd_suits_sensitivities(*p.model, p.model->np());
}

std::string sizes_text(const Problem& p) {
  return std::to_string(p.model->nx()) + " states and " + std::to_string(p.model->np()) +
         " parameters";
}

// A gradient where an explicit method does not suit (or failed).
MethodChoice choose_implicit_gradient(const Problem& p, const std::string& found) {
  const std::size_t np = p.model->np();
  if (np > kForwardGradientParameters)
    return choice_of("cvodes_asa", "gradient",
                     "a gradient is asked for, " + found + ", and with " + std::to_string(np) +
                         " parameters (more than " + std::to_string(kForwardGradientParameters) +
                         ") one backward sweep of the BDF adjoint costs less than forward "
                         "sensitivities");
  if (odesd_suits(p))
    return choice_of("odesd", "gradient",
                     "a gradient is asked for, " + found + ", and with " + std::to_string(np) +
                         " parameters (at most " + std::to_string(kForwardGradientParameters) +
                         ") forward sensitivities by odesd cost less than an adjoint");
  return choice_of("cvodes_fsa", "gradient",
                   "a gradient is asked for, " + found + ", and with " + std::to_string(np) +
                       " parameters forward sensitivities cost less than an adjoint; the model "
                       "lacks the second derivatives odesd needs, so cvodes_fsa");
}

// The explicit steps the span would take at the probe's pace; infinite
// where it failed or did not move.
double explicit_pace(const Problem& p, const StiffnessFinding& f) {
  const double t0 = p.t0, span = p.output_times.back() - t0, done = f.t_reached - t0;
  if (f.kind == StiffnessFinding::Kind::inconclusive || !(done > 0.0))
    return std::numeric_limits<double>::infinity();
  return static_cast<double>(f.steps) * std::max(span / done, 1.0);
}

// A large S (above kOdesdSensitivityLimit, at most kOdesdLargeSensitivity
// entries) of a model with second derivatives: odesd may take it, as the
// probe's pace decides.
bool large_s_odesd_may_take(const Problem& p) {
  const double size = sensitivity_size(p);
  return size > kOdesdSensitivityLimit && size <= kOdesdLargeSensitivity &&
         p.model->second_derivatives() != nullptr;
}

// A large S that odesd still suits: the explicit pace shows the problem is
// not extremely stiff.
bool odesd_suits_large(const Problem& p, ChoiceProbe& probe) {
  return large_s_odesd_may_take(p) &&
         explicit_pace(p, probe.finding()) <= kOdesdLargeSensitivityPace;
}

std::string pace_text(const Problem& p, ChoiceProbe& probe) {
  return probe.said() + ", at a pace of about " +
         rounded_number_text(explicit_pace(p, probe.finding())) + " explicit steps over the span";
}

// A small S (nx * np at most kTinySensitivity) of a problem the probe found
// non-stiff, having solved the whole span or at a pace of at most
// kTinyExplicitPace steps: dopri8s's 8th-order steps with dense
// output beat every implicit method there (chua, DETEST C1, Michaelis-Menten,
// Bertozzi: 2-6x faster than odesd). Larger S brings parameters that barely
// move x, whose differences dopri8s warns about (7 of the 30 shared models).
bool tiny_and_explicit(const Problem& p, ChoiceProbe& probe) {
  if (sensitivity_size(p) > kTinySensitivity) return false;
  const StiffnessFinding& f = probe.finding();
  return f.kind == StiffnessFinding::Kind::non_stiff &&
         (f.t_reached >= p.output_times.back() || explicit_pace(p, f) <= kTinyExplicitPace);
}

MethodChoice choose_dopri8s(const Problem& p, ChoiceProbe& probe, const std::string& goal) {
  return choice_of("dopri8s", goal,
                   std::string(goal == "s" ? "S at every output time" : "a gradient") +
                       " is asked for, " + probe.said() + ", and S is small (" + sizes_text(p) +
                       "): dopri8s (8th order, dense output) is the fastest there; a result it "
                       "warns about is not kept");
}

// odesd's interpolant may give the outputs: the probe solved the whole
// span and found the problem non-stiff, and nothing switches (the probe
// ignores events and the switches of f).
bool interpolation_safe(const Problem& p, const StiffnessFinding& f) {
  return nothing_switches(*p.model) && f.kind == StiffnessFinding::Kind::non_stiff &&
         f.t_reached >= p.output_times.back();
}

// What the reason of an interpolating choice adds.
std::string interpolation_text(ChoiceProbe& probe) {
  return probe.said() + ", having solved the whole span; nothing switches, so odesd "
         "interpolates its outputs (output=hermite)";
}

// odesd's outputs from its quintic Hermite interpolant (output=hermite),
// not from steps clipped to end on each output time, where the probe
// solved the whole span non-stiff and nothing switches. With 101 outputs
// odesd cannot take fewer than 100 steps ending on them, where a smooth
// problem needs far fewer: DETEST C5 9 steps interpolated against 100
// (6.2 times faster), Bruno_JExpBot2016 21 against 103 (2.9 times), with S
// 3e-9 and 5e-8 off (docs/methods/auto.md). Where stiff components are
// large the interpolant inherits them, as odesd's rule leaves them
// undamped (Boehm_JProteomeRes2014: S 6 times its scale off; the probe
// finds it stiff). The probe here takes at most as many steps as there
// are output times: a span that takes more has odesd's steps set by
// accuracy more than by the outputs (Perelson_Science1996: 586 steps
// ending on outputs, 524 interpolated), and the probe's cost is saved.
bool odesd_interpolates(const Problem& p, ChoiceProbe& probe) {
  if (!nothing_switches(*p.model)) return false;  // no probe needed
  const long cap = std::max<long>(static_cast<long>(p.output_times.size()),
                                  integrate::erk::StiffnessTest::run);
  return interpolation_safe(p, probe.finding(cap));
}

// The choice of odesd with its outputs interpolated: only the rules that
// measured it set it, so that a fallback to odesd (after a method that may
// have failed on stiffness) ends a step on each output.
MethodChoice interpolating(MethodChoice c) {
  c.odesd_interpolates = true;
  return c;
}

// Probe steps times parameters up to which odesd's forward S, its outputs
// interpolated, gives a gradient faster than erk_adjoint where the probe
// solved the whole span non-stiff and nothing switches: erk_adjoint ends a
// step on every output time (its discrete adjoint is exact there), so with
// 101 outputs it takes at least 100 steps forward and back where odesd
// takes about as many as the probe. Measured (odesd with output=hermite
// against erk_adjoint, rtol 1e-8, G at the last of 101 outputs,
// `/usr/bin/python3` timing `odesens.solve`): DETEST C5 (6 probe steps x
// 30 parameters) 0.23 times erk_adjoint's time, Bruno_JExpBot2016 (20 x
// 17) 0.68, Bertozzi_PNAS2020 (85 x 4) 0.65; Raia_CancerResearch2011 (55 x
// 19) 1.82 and pka (94 x 35) 1.48 times. The boundary lies between 340 and
// 1045.
constexpr double kInterpolatedGradientWork = 600;

bool odesd_gradient_by_interpolation(const Problem& p, ChoiceProbe& probe) {
  const StiffnessFinding& f = probe.finding();
  return odesd_suits(p) && interpolation_safe(p, f) &&
         static_cast<double>(f.steps) * static_cast<double>(p.model->np()) <=
             kInterpolatedGradientWork;
}

MethodChoice choose_for_gradient(const Problem& p, ChoiceProbe& probe) {
  if (tiny_and_explicit(p, probe)) return choose_dopri8s(p, probe, "gradient");
  if (odesd_gradient_by_interpolation(p, probe))
    return interpolating(choice_of("odesd", "gradient",
                     "a gradient is asked for; " + interpolation_text(probe) + ", and in few "
                         "steps for " + std::to_string(p.model->np()) +
                         " parameters (steps x parameters at most " +
                         rounded_number_text(kInterpolatedGradientWork) +
                         "): odesd's forward S so costs less than erk_adjoint, which ends a "
                         "step on every output time"));
  if (probe.explicit_suits() && p.model->rhs_kink().empty())
    return choice_of("erk_adjoint", "gradient",
                     "a gradient is asked for and " + probe.said() +
                         ": the discrete adjoint of dopri5 costs one backward sweep of explicit "
                         "steps, whatever the number of parameters");
  return choose_implicit_gradient(p, probe.said());
}

// Why a large S that odesd could take goes to cvodes_fsa: the probe's
// pace, or that it measured none; "" where the probe did not decide it.
std::string large_s_pace_text(const Problem& p, ChoiceProbe& probe) {
  if (!probe.done() || !large_s_odesd_may_take(p)) return "";
  if (!std::isfinite(explicit_pace(p, probe.finding())))
    return " (" + probe.said() + ": no pace measured, so not odesd, whose steps multiply on "
           "extremely stiff problems)";
  return " (" + pace_text(p, probe) + ": above 1e8, odesd's steps multiply)";
}

MethodChoice choose_for_trajectory(const Problem& p, ChoiceProbe& probe) {
  if (tiny_and_explicit(p, probe)) return choose_dopri8s(p, probe, "s");
  if (odesd_suits_large(p, probe))
    return choice_of("odesd", "s",
                     "S at every output time is asked for; S is large (" + sizes_text(p) +
                         "), but " + pace_text(p, probe) +
                         " (at most 1e8: not so stiff that odesd's steps multiply), so odesd, "
                         "which takes the fewest steps");
  if (odesd_suits(p)) {
    MethodChoice c = choice_of(
        "odesd", "s",
        "S at every output time is asked for; odesd (an implicit 4th-order rule in f and its "
        "time derivative, stiff or not) takes the fewest steps and is the fastest right method "
        "on the shared real models of its size (" + sizes_text(p) + ")");
    if (!odesd_interpolates(p, probe)) return c;
    c.reason += "; " + interpolation_text(probe) + " instead of ending a step on each";
    return interpolating(std::move(c));
  }
  return choice_of("cvodes_fsa", "s",
                   "S at every output time is asked for; with " + sizes_text(p) +
                       (p.model->second_derivatives() ? "" : " and no second derivatives") +
                       large_s_pace_text(p, probe) +
                       " cvodes_fsa (BDF, sparse from 100 states) is the method that suits");
}

// The states at rest for good: f(t0, x0) = 0 (to rounding: kRestDrift),
// f and J_x read no t at the parameters (Model::time_reading_at: an input
// whose dose is 0 is not read), J_p reads t only at switches of f (the
// dose's column of such an input), and no event can move them (a switch
// of f cannot: f does not change with t there, nor with x, which stays).
// Then x(t) = x0, J_x is constant along it and J_p between switches, where
// the solve stops, and exp's update of S is exact over any step between
// them: the state solver takes a few long steps (Schwen_PONE2014: 3 steps,
// 0.54 ms against odesd's 1.6 ms; Lucarelli_CellSystems2018 likewise, at
// their nominal inputs of 0). Those steps span the whole time, and a
// dense exponential of so long a step costs ~nx^3 log|J dt|: up to
// kAtRestStates states only (a chain of fast equilibria at rest, rtol
// 1e-8: exp 0.6 times odesd's time at 50 states, 12 times at 100).
bool at_rest(const Problem& p) {
  const Model& m = *p.model;
  if (m.nx() > kAtRestStates || sensitivity_size(p) > kOdesdSensitivityLimit) return false;
  if (const EventSystem* e = m.event_system(); e && !e->events().empty()) return false;
  try {
    const std::vector<double> params = effective_params(p);
    const Model::TimeReading reading = m.time_reading_at(params.data(), nullptr);
    if (reading.rhs || reading.jac_p_between_switches) return false;
    const std::vector<double> x0 = initial_state_of(p, params);
    std::vector<double> f(m.nx());
    m.rhs(p.t0, x0.data(), params.data(), f.data());
    // 0 to rounding: the drift over the whole span within kRestDrift of
    // the tolerances (a steady state written with 16 digits leaves f at
    // 1e-15, Isensee_JCB2018).
    const double span = p.output_times.back() - p.t0;
    for (std::size_t i = 0; i < f.size(); ++i) {
      // x0 or f at inf is no rest (inf <= inf held): the method says what fails.
      if (!std::isfinite(x0[i]) || !std::isfinite(f[i])) return false;
      const double atol = p.atol.size() == 1 ? p.atol[0] : p.atol[i];
      if (!(std::fabs(f[i]) * span <= kRestDrift * (*p.rtol * std::fabs(x0[i]) + atol)))
        return false;
    }
    return true;
  } catch (const std::exception&) {
    return false;  // the chosen method will say what fails
  }
}

MethodChoice choose_at_rest(const std::string& goal) {
  return choice_of("exp", goal,
                   std::string(goal == "s" ? "S at every output time" : "a gradient") +
                       " is asked for, and the states are at rest (f(t0, x0) = 0, f does not "
                       "read t at p, J_p only at switches, no events): they stay there, J_x "
                       "is constant along them and J_p between switches, and exp's "
                       "exponential update of S is exact over a few long steps");
}

MethodChoice apply_choice_rule(const Problem& p, const AutomaticSettings& s, ChoiceProbe& probe) {
  const std::string goal = goal_of(p, s);
  if (p.model->nx() == 0)
    return choice_of("cvodes_fsa", goal, "the model has no states: nothing to integrate");
  if (automatic_encloses(p)) return choose_enclosure(p, goal);
  if (p.integrand || p.n_objectives > 1)
    return choice_of("erk_adjoint", "gradient",
                     "several objectives or running costs are asked for, which only "
                     "erk_adjoint differentiates");
  if (!p.sens_directions.empty()) return choose_for_directions(p, probe);
  if (at_rest(p)) return choose_at_rest(goal);
  if (goal == "gradient") return choose_for_gradient(p, probe);
  return choose_for_trajectory(p, probe);
}

}  // namespace

bool odesd_suits_sensitivities(const Model& model, std::size_t columns) {
  return model.nx() > 0 && model.second_derivatives() != nullptr &&
         static_cast<double>(model.nx()) * static_cast<double>(columns) <= kOdesdSensitivityLimit;
}

std::string fallback_method(const Problem& p, const MethodChoice& failed) {
  const std::string& m = failed.method;
  if (automatic_encloses(p) || p.integrand || p.n_objectives > 1) return "";
  if (!p.sens_directions.empty())
    return m == "dopri8s" && p.model->has_analytic_jacobians() ? "grk4as" : "";
  if (m == "dopri8s" && failed.goal == "gradient") return "erk_adjoint";
  if (m == "dopri8s") return odesd_suits(p) ? "odesd" : "cvodes_fsa";
  if (m == "erk_adjoint") return choose_implicit_gradient(p, "").method;
  if (m == "cvodes_fsa") return "";
  return "cvodes_fsa";
}

std::int64_t odesd_step_allowance(std::size_t outputs) {
  return 10000 + 10 * static_cast<std::int64_t>(outputs);
}

const MethodInfo& automatic_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.id = kAutomaticMethod;
    m.summary =
        "chooses the method from what the problem asks, the model and a cheap stiffness probe, "
        "and says why (Result::method_choice); when the method it chose fails, runs the next "
        "one (an implicit method after an explicit one, cvodes_fsa after any other)";
    m.capabilities.s_trajectory = m.capabilities.final_s = m.capabilities.gradient = true;
    m.capabilities.bounds = m.capabilities.integrands = m.capabilities.directions = true;
    m.capabilities.events = true;
    m.default_rtol = kAutoRtol;
    m.default_atol = kAutoAtol;
    m.options = {
        {"goal", OptionType::text, std::string("auto"),
         "what to compute: s (S at every output time), gradient (the objective's gradient; "
         "adjoint methods then skip S(T)), or auto (gradient when the problem has an objective, "
         "adjoint weights, running costs or objective data, s otherwise)",
         {"auto", "s", "gradient"}},
        bounded({"probe_steps", OptionType::integer, std::int64_t{300},
                 "accepted dopri5 steps of the stiffness probe; 0: no probe (implicit methods "
                 "are chosen)",
                 {}},
                0, 100000),
        flag_option("fallback", true,
                    "1: when the chosen method fails (too much work, stiff, a collapsing step "
                    "size, non-finite values), run the next one (the implicit choice after an "
                    "explicit method, cvodes_fsa after any other) and say so in method_choice; "
                    "0: the failure is the error"),
        flag_option("state_check", true,
                    "1: the chosen method also checks the states' global error (its option "
                    "state_check: a second state solve at tolerances 10 times tighter, and a "
                    "warning above 300 times the tolerances, which what is computed along "
                    "the states inherits), where the probe solved the whole span and nothing "
                    "switches first against the probe's states (the second solve only where "
                    "they differ by more); 0: the method's own default"),
    };
    return m;
  }();
  return info;
}

Problem problem_for_choice(const Problem& given, const MethodChoice& choice) {
  Problem p = given;
  if (!p.rtol) p.rtol = kAutoRtol;
  if (p.atol.empty()) p.atol = {kAutoAtol};
  p.options = Options{};
  const MethodOptions own(kAutomaticMethod, automatic_method_info().options, given.options);
  const auto& specs = method_info(choice.method).options;
  const bool checkable = std::any_of(specs.begin(), specs.end(),
                                     [](const OptionSpec& o) { return o.key == "state_check"; });
  if (checkable && own.get_int("state_check") != 0) p.options.set("state_check", std::int64_t{1});
  if (choice.method == "odesd" && choice.odesd_interpolates)
    p.options.set("output", std::string("hermite"));
  const bool adjoint = choice.method == "cvodes_asa" || choice.method == "erk_adjoint";
  if (adjoint && choice.goal == "gradient") p.options.set("final_sensitivity", 0);
  return p;
}

ProbedChoice choose_method_with_probe(const Problem& given) {
  const AutomaticSettings settings = read_automatic_settings(given);
  Problem problem = given;
  if (!problem.rtol) problem.rtol = kAutoRtol;
  if (problem.atol.empty()) problem.atol = {kAutoAtol};
  validate_problem(problem);
  ChoiceProbe probe(problem, settings.probe_steps);
  ProbedChoice c{apply_choice_rule(problem, settings, probe), {}};
  if (probe.done()) {
    StiffnessFinding& f = probe.finding();
    c.choice.stiffness = finding_name(f.kind);
    c.choice.probe_steps = f.steps;
    c.choice.probe_seconds = f.seconds;
    c.probe_states = std::move(f.states_at_outputs);
  } else {
    c.choice.stiffness = "not probed";
  }
  return c;
}

}  // namespace odesens::methods

namespace odesens {

MethodChoice choose_method(const Problem& given) {
  return methods::choose_method_with_probe(given).choice;
}

}  // namespace odesens
