#include "estimate/steady_integration.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"
#include "odesens/session.hpp"
#include "odesens/status.hpp"

namespace odesens::estimate {
namespace {

// How far x may move between the last two outputs (T/10 and T after t0),
// in the weighted norm of the looser of the steady state's and the
// integrator's tolerances: two integrated states, each within a few of the
// integrator's tolerances of x*. Without this test a state that grows
// without end passes the test of f alone once it is large enough
// (dx/dt = 1: |f| / (rtol |x|) = 1 at x = 1/rtol).
constexpr double max_drift = 10.0;

NormTolerances drift_tolerances(const Problem& problem, NormTolerances tol) {
  const double atol = *std::max_element(problem.atol.begin(), problem.atol.end());
  return {std::max(tol.rtol, *problem.rtol), std::max(tol.atol, atol)};
}

struct Check {
  double residual;
  double drift;
};

// f at the last output and the drift from the one before.
Check check_outputs(const Problem& problem, const Result& r, NormTolerances tol,
                    std::vector<double>& f, Workspace* ws) {
  const std::size_t nx = r.nx;
  const double* before = r.x.data();
  const double* last = r.x.data() + nx;
  const std::vector<double> p = effective_params(problem);
  std::vector<double> dx(nx);
  for (std::size_t i = 0; i < nx; ++i) dx[i] = last[i] - before[i];
  return {residual_norm(*problem.model, r.times[1], last, p.data(), tol, f, ws),
          weighted_norm(nx, dx.data(), last, drift_tolerances(problem, tol))};
}

}  // namespace

IntegrationOutcome integrate_to_steady_state(const Problem& problem,
                                             const IntegrationSettings& settings) {
  IntegrationOutcome out;
  Problem pr = problem;
  pr.output_times = {pr.t0 + 1.0, pr.t0 + 10.0};
  if (!settings.sensitivities) pr.options.set("sensitivities", 0);
  const std::unique_ptr<MethodSession> session = prepare(pr, "cvodes_fsa");
  const Problem& prepared = session->problem();  // with the method's tolerances
  const std::string head = settings.sensitivities ? "integration (cvodes_fsa): "
                                                  : "integration of x alone (cvodes_fsa): ";
  auto ws = pr.model->make_workspace();
  std::vector<double> f;
  Check check{0.0, 0.0};
  for (double span = std::min(settings.first_span, settings.max_time);;
       span = std::min(10.0 * span, settings.max_time)) {
    RunInputs in;
    in.output_times = std::vector<double>{pr.t0 + span / 10.0, pr.t0 + span};
    Result r;
    try {
      r = session->run(in);
    } catch (const Error& e) {
      if (e.status() == Status::interrupted) throw;  // not a failure to say among the attempts
      out.attempt = head + "failed on [t0, t0 + " + number_text(span) + "]: " + e.what();
      return out;
    }
    check = check_outputs(prepared, r, settings.tol, f, ws.get());
    if (check.residual <= 1.0 && check.drift <= max_drift) {
      const std::size_t block = r.nx * r.np;
      out.x.assign(r.x.begin() + static_cast<std::ptrdiff_t>(r.nx), r.x.end());
      if (settings.sensitivities)
        out.S.assign(r.s.begin() + static_cast<std::ptrdiff_t>(block), r.s.end());
      out.reached = true;
      out.time = r.times[1];
      out.span = span;
      out.residual = check.residual;
      out.attempt = head + "steady at t0 + " + number_text(span) + " (weighted norm of f " +
                    number_text(check.residual) + ")";
      return out;
    }
    if (span >= settings.max_time) break;
  }
  out.attempt = head + "not steady by t0 + " + number_text(settings.max_time) +
                " (weighted norm of f " + number_text(check.residual) +
                ", of the change of x since t0 + " + number_text(settings.max_time / 10.0) + " " +
                number_text(check.drift) + ")";
  return out;
}

}  // namespace odesens::estimate
