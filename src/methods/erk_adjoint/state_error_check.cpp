#include "methods/erk_adjoint/state_error_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/number_text.hpp"
#include "integrate/events/event_runner.hpp"
#include "methods/common/state_error_ratio.hpp"
#include "methods/erk_adjoint/forward_trajectory.hpp"
#include "odesens/status.hpp"
#include "odesens/workspace.hpp"

namespace odesens::erk_adjoint {

constexpr double kTighter = 10.0;

double state_error_ratio(const Problem& problem, const double* p, const std::vector<double>& x0,
                         const integrate::erk::Tableau& tableau,
                         const integrate::erk::ErkSettings& settings, const double* x) {
  const Model& model = *problem.model;
  const std::size_t nx = model.nx(), nt = problem.output_times.size();
  integrate::erk::ErkSettings tighter = settings;
  tighter.step_limit = nullptr;  // the solve's own, with its workspace and its last rho
  tighter.tolerances.rtol /= kTighter;
  tighter.tolerances.atol /= kTighter;
  for (double& a : tighter.tolerances.atol_per_state) a /= kTighter;
  std::vector<double> fine(nt * nx);
  try {
    auto ws = model.make_workspace(1);
    integrate::EventRunner events(model, p, 0, ws.get());
    // The step sequence alone where it can (revolve does not run events).
    const Checkpointing keep = events.active() ? Checkpointing::states : Checkpointing::revolve;
    run_forward(model, p, ws.get(), problem.t0, x0.data(), problem.output_times, tableau,
                tighter, fine.data(), keep, 0, {}, &events);
  } catch (const Error&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  // settings' tolerances are the problem's (engine_settings).
  return methods::state_error_ratio(problem, x, fine.data(), fine.size(), nx);
}

std::string state_error_warning(double ratio, double rtol) {
  if (!(ratio > methods::kStateErrorRatioLimit)) return {};
  return "the states' global error is about " + rounded_number_text(ratio) +
         " times their tolerances (rtol " + rounded_number_text(rtol) +
         ", from a state solve 10 times tighter), and the gradient and S(T), the exact "
         "derivatives of this discrete solution, are as far from the true ones: errors grow "
         "along this solution (an oscillation, or small states that set the rest); tighten "
         "rtol and atol, or use cvodes_asa or cvodes_fsa";
}

}  // namespace odesens::erk_adjoint
