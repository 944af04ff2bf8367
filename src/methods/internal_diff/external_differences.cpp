#include "methods/internal_diff/external_differences.hpp"

#include <algorithm>
#include <vector>

#include "core/number_text.hpp"
#include "methods/internal_diff/output_cursor.hpp"
#include "methods/internal_diff/perturbation_scale.hpp"
#include "methods/internal_diff/perturbed_failure.hpp"
#include "methods/internal_diff/run_solution.hpp"
#include "methods/internal_diff/sensitivity_error_norm.hpp"
#include "methods/internal_diff/step_settings.hpp"

namespace odesens::internal_diff {
namespace {

// One trajectory from (t0, x0) with parameters p at TOL; visit(k, x) at
// every output time.
template <typename Visit>
void run_alone(const SolveSetup& s, const double* x0, const double* p, Visit&& visit,
               RunTally& tally) {
  const BundleShape single{s.directions.nx(), 0};
  SensitivityErrorNorm norm(single, s.settings.tolerances, s.settings.sensitivity, nullptr);
  BundleRhs rhs(s.model, s.workspace, single, p);
  const auto integrator =
      s.factory.make(rhs, step_settings(s.settings, s.settings.tolerances, &norm));
  const auto& times = s.problem.output_times;
  integrator->start(s.t0(), x0, nullptr, s.t_end());
  // Each run meets the model's events at its own instants: the differences
  // of the runs carry the jumps of S themselves.
  RunSolution run(*integrator, rhs, nullptr, false, times, p, {}, s.settings.tolerances);
  integrate::SteppedSolution& solution = run.solution();
  OutputCursor at(times, s.t0(), run.dense());
  for (std::size_t k = 0; k < at.first_after_start(); ++k) visit(k, solution.x());
  std::vector<double> buffer(single.size());
  while (solution.t() < s.t_end()) {
    solution.step(at.limit(s.t_end(), integrator->dense_output_fits_next_step()));
    at.collect(solution, buffer.data(), visit);
  }
  tally.add(integrator->counts(), tally.bundle);
  tally.add_rhs(integrator->counts(), single);
  ++tally.runs;
  if (tally.runs == 1) {
    tally.events_executed = run.events_executed();
    tally.moving_instant = run.moving_instant();
  }
  for (const auto& w : run.warnings())
    if (std::find(tally.warnings.begin(), tally.warnings.end(), w) == tally.warnings.end())
      tally.warnings.push_back(w);
}

// Each run locates the instants of switches of the states, whose time
// moves with p, to its own tolerance (switches of t alone are found
// exactly, TimeSwitches), and the difference of two runs divides that error by eps: a
// jump of f misplaced by dtau ~ TOL/|g'| puts |f+ - f-| dtau / eps into S
// (x' = [x > c] at rtol 1e-8: dy/dk 27 % off). Internal differences carry
// those jumps exactly.
void warn_of_moving_instants(std::size_t directions, double delta, RunTally& tally) {
  if (directions == 0 || tally.moving_instant.empty()) return;
  tally.warnings.push_back(
      "differences=external: each of the independent solves locates the " +
      tally.moving_instant +
      " (and any other switch or event of the states) to its own tolerance, and "
      "their differences divide that error by the perturbation (about " +
      number_text(delta) +
      " relative): S after such an instant is not to be trusted; differences=internal carries "
      "its jump exactly");
}

}  // namespace

RunTally run_external_differences(const SolveSetup& s, SensitivityOutput& out) {
  const SensitivityDirections& d = s.directions;
  const std::size_t nx = d.nx(), np = d.np();
  RunTally tally;
  run_alone(s, s.x0.data(), s.p.data(),
            [&](std::size_t k, const double* x) { out.set_states(k, x); }, tally);
  std::vector<double> x0(nx), p(np), sigma(nx);
  const double delta = s.settings.sensitivity.rtol;
  for (std::size_t j = 0; j < d.count(); ++j) {
    const double* r_x = d.state_part(j);
    const double* r_p = d.param_part(j);
    const double eps = perturbation_size(Scaling::componentwise, nx, s.x0.data(), r_x,
                                         parameter_scale(np, r_p, s.p.data(), s.read_by_f), delta);
    for (std::size_t i = 0; i < nx; ++i) x0[i] = s.x0[i] + eps * r_x[i];
    for (std::size_t k = 0; k < np; ++k) p[k] = s.p[k] + eps * r_p[k];
    const auto set_sigma = [&](std::size_t k, const double* x) {
      if (s.problem.output_times[k] == s.t0() && !s.model.event_system()) {
        out.set_direction(k, j, r_x);  // S(t0)·r = R_x exactly
        return;
      }
      const double* nominal = out.states(k);
      for (std::size_t i = 0; i < nx; ++i) sigma[i] = (x[i] - nominal[i]) / eps;
      out.set_direction(k, j, sigma.data());
    };
    try {
      run_alone(s, x0.data(), p.data(), set_sigma, tally);
    } catch (const Error& e) {
      if (e.status() != Status::not_finite) throw;
      throw Error(Status::not_finite, on_a_perturbed_solve(e, d, s.model, j));
    }
  }
  warn_of_moving_instants(d.count(), delta, tally);
  return tally;
}

}  // namespace odesens::internal_diff
