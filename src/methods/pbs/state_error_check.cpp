#include "methods/pbs/state_error_check.hpp"
#include "methods/pbs/state_error_in_s.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/number_text.hpp"
#include "integrate/cvodes/cvodes_session.hpp"
#include "integrate/cvodes/cvodes_stepper.hpp"
#include "integrate/events/event_runner.hpp"
#include "integrate/output_grid.hpp"
#include "methods/common/cvodes_options.hpp"
#include "methods/common/evented_cvodes_outputs.hpp"
#include "methods/common/result_builder.hpp"
#include "odesens/status.hpp"

namespace odesens::pbs {
namespace {

constexpr double kTighter = 10.0;

// The states alone at the output times, as pbsr's run solves them.
Result states_at_outputs(const Problem& problem, const MethodOptions& options) {
  cvodes::Session session(cvodes::initial_value_problem(problem),
                          cvodes::read_session_settings(options));
  session.create_integrator();
  const std::size_t nx = session.nx(), np = session.np();
  const auto& times = problem.output_times;
  cvodes::CvodesStepper stepper(session, problem.t0, problem.max_steps,
                                /*stop_at_outputs=*/false);
  if (!times.empty() && times.back() > problem.t0) stepper.set_horizon(times.back());
  methods::ResultBuilder out(problem, nx, np, methods::SensitivityLayout::none);
  integrate::EventRunner events(session.model(), session.params().data(), 0,
                                session.workspace());
  if (events.active()) {
    methods::reach_outputs_with_events(problem, session, stepper, events, nullptr, out);
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

// The tighter states at r's output times; nothing when that solve fails.
std::optional<Result> tighter_states(const Problem& problem, const MethodOptions& options) {
  Problem tighter = problem;
  tighter.rtol = *problem.rtol / kTighter;
  for (double& a : tighter.atol) a /= kTighter;
  try {
    return states_at_outputs(tighter, options);
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

double state_error_ratio(const Problem& problem, const Result& r, const Result& fine) {
  const std::size_t nx = r.nx;
  if (fine.x.size() != r.x.size() || nx == 0) return std::numeric_limits<double>::quiet_NaN();
  double worst = 0.0;
  for (std::size_t k = 0; k < r.x.size(); ++k) {
    const std::size_t i = k % nx;
    const double atol = problem.atol.size() == nx ? problem.atol[i]
                        : problem.atol.empty()    ? 0.0
                                                  : problem.atol[0];
    const double weight = *problem.rtol * std::fabs(fine.x[k]) + atol;
    worst = std::max(worst, std::fabs(r.x[k] - fine.x[k]) / weight);
  }
  return worst;
}

void check_state_error(const Problem& problem, const MethodOptions& options, Result& r) {
  const std::optional<Result> fine = tighter_states(problem, options);
  if (!fine) return;  // the tighter solve failed: nothing is known
  const double ratio = state_error_ratio(problem, r, *fine);
  if (!std::isfinite(ratio)) return;
  r.stats.extra["state_error_ratio"] = ratio;
  const double in_s = state_error_in_s(problem, r, *fine);
  if (std::isfinite(in_s)) r.stats.extra["state_error_in_s"] = in_s;
  if (!(ratio > kStateErrorRatioLimit)) {
    if (in_s > kStateErrorInSLimit * *problem.rtol)
      r.warnings.push_back(
          "the states' error moves S by up to about " + rounded_number_text(in_s) +
          " of its size (estimated from a state solve 10 times tighter through J_x and J_p: "
          "S follows the states' error where they are small or fast, though the states are "
          "within " + rounded_number_text(ratio) + " times their tolerances); tighten rtol "
          "and atol, or use cvodes_fsa, which controls S's error itself");
    return;
  }
  r.warnings.push_back(
      "the states' global error is about " + rounded_number_text(ratio) +
      " times their tolerances (rtol " + rounded_number_text(*problem.rtol) +
      ", from a state solve 10 times tighter), and S, computed along them, inherits it: "
      "errors grow along this solution (an oscillation, or small states that set the "
      "rest); tighten rtol and atol, or use cvodes_fsa, which controls S's error itself");
}

}  // namespace odesens::pbs
