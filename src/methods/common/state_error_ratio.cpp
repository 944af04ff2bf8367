#include "methods/common/state_error_ratio.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/number_text.hpp"
#include "integrate/cvodes/cvodes_stepper.hpp"
#include "integrate/events/event_runner.hpp"
#include "integrate/output_grid.hpp"
#include "methods/common/cvodes_options.hpp"
#include "methods/common/evented_cvodes_outputs.hpp"
#include "methods/common/result_builder.hpp"
#include "odesens/status.hpp"

namespace odesens::methods {
namespace {

constexpr double kTighter = 10.0;
constexpr const char* kStateCheckWarningStart =
    "the states differ from a state solve at tolerances 10 times tighter by about ";
constexpr const char* kFailedCheckWarningStart =
    "the states' check could not solve them at tolerances 10 times tighter (BDF: ";

// The states alone at the output times.
Result states_at_outputs(const Problem& problem, const cvodes::SessionSettings& settings) {
  cvodes::Session session(cvodes::initial_value_problem(problem), settings);
  session.set_interrupt(&problem.interrupt);
  session.create_integrator();
  const std::size_t nx = session.nx(), np = session.np();
  const auto& times = problem.output_times;
  cvodes::CvodesStepper stepper(session, problem.t0, problem.max_steps,
                                /*stop_at_outputs=*/false);
  if (!times.empty() && times.back() > problem.t0) stepper.set_horizon(times.back());
  ResultBuilder out(problem, nx, np, SensitivityLayout::none);
  integrate::EventRunner events(session.model(), session.params().data(), 0,
                                session.workspace());
  if (events.active()) {
    reach_outputs_with_events(problem, session, stepper, events, nullptr, out);
  } else {
    if (!times.empty() && times.back() > problem.t0)
      session.check(CVodeSetStopTime(session.mem(), times.back()), "CVodeSetStopTime");
    for (std::size_t k = 0; k < times.size(); ++k) {
      stepper.begin_output();
      integrate::reach_outputs(stepper, &times[k], 1, stepper.grid_settings(), out.x(k));
    }
  }
  return out.take();
}

}  // namespace

Problem tightened(const Problem& problem) {
  Problem tighter = problem;
  tighter.rtol = *problem.rtol / kTighter;
  for (double& a : tighter.atol) a /= kTighter;
  return tighter;
}

std::optional<Result> tighter_states(const Problem& problem,
                                     const cvodes::SessionSettings& settings,
                                     std::string* failure) {
  try {
    return states_at_outputs(tightened(problem), settings);
  } catch (const Error& e) {
    if (e.status() == Status::interrupted) throw;  // the run's caller asked
    // Only a solution BDF could not follow says something of the states: the
    // step limit (the caller's max_steps, kept for the tighter solve) or a
    // callback's failure does not.
    const bool about_the_solution =
        e.status() == Status::solver_failed || e.status() == Status::not_finite;
    if (failure && about_the_solution) *failure = e.what();
    return std::nullopt;
  }
}

void report_failed_state_check(const std::string& failure, const std::string& what, Result& r) {
  if (failure.empty()) return;
  r.warnings.push_back(
      kFailedCheckWarningStart + failure + "), so their global error, which " + what +
      " inherits, is unknown: a solution this sensitive may be far off at these tolerances; "
      "compare with tighter rtol and atol");
}

double state_error_ratio(const Problem& problem, const Result& r, const Result& fine) {
  if (fine.x.size() != r.x.size() || r.nx == 0) return std::numeric_limits<double>::quiet_NaN();
  return state_error_ratio(problem, r.x.data(), fine.x.data(), r.x.size(), r.nx);
}

double state_error_ratio(const Problem& problem, const double* x, const double* fine,
                         std::size_t n, std::size_t nx) {
  double worst = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = k % nx;
    const double atol = problem.atol.size() == nx ? problem.atol[i]
                        : problem.atol.empty()    ? 0.0
                                                  : problem.atol[0];
    const double weight = *problem.rtol * std::fabs(fine[k]) + atol;
    worst = std::max(worst, std::fabs(x[k] - fine[k]) / weight);
  }
  return worst;
}

cvodes::SessionSettings default_state_solve_settings() {
  return {CV_BDF, "auto", 100, "auto"};
}

OptionSpec state_check_option(bool enabled, const std::string& cost, const std::string& by) {
  return flag_option("state_check", enabled,
                     "1: solve the states again (" + by +
                         ") at tolerances 10 times tighter and warn "
                         "when the states' global error exceeds 300 times their tolerances (what is "
                     "computed along them inherits it; " +
                         cost + "); 0: skip");
}

void check_state_error(const Problem& problem, const cvodes::SessionSettings& settings,
                       const std::string& what, Result& r) {
  std::string failure;
  const std::optional<Result> fine = tighter_states(problem, settings, &failure);
  if (!fine) report_failed_state_check(failure, what, r);
  report_state_error(problem, fine, what, r);
}

void report_state_error(const Problem& problem, const std::optional<Result>& fine,
                        const std::string& what, Result& r) {
  if (!fine) return;
  const double ratio = state_error_ratio(problem, r, *fine);
  if (!std::isfinite(ratio)) return;
  r.stats.extra["state_error_ratio"] = ratio;
  if (!(ratio > kStateErrorRatioLimit)) return;
  r.warnings.push_back(
      kStateCheckWarningStart + rounded_number_text(ratio) + " times their tolerances (rtol " +
      rounded_number_text(*problem.rtol) + "): errors grow along this solution (an "
      "oscillation, or small states that set the rest), and " + what +
      ", computed along the states, cannot be more accurate than they are; tighten rtol and "
      "atol");
}

bool is_state_check_warning(const std::string& warning) {
  return warning.rfind(kStateCheckWarningStart, 0) == 0 ||
         warning.rfind(kFailedCheckWarningStart, 0) == 0;
}

}  // namespace odesens::methods
