#include "methods/internal_diff/internal_differences.hpp"

#include <memory>
#include <string>
#include <vector>

#include "core/quoted_text.hpp"
#include "methods/internal_diff/bundle_solution.hpp"
#include "methods/internal_diff/output_cursor.hpp"
#include "methods/internal_diff/perturbation_scale.hpp"
#include "methods/internal_diff/perturbations.hpp"
#include "methods/internal_diff/perturbed_failure.hpp"
#include "methods/internal_diff/run_solution.hpp"
#include "methods/internal_diff/sensitivity_error_norm.hpp"
#include "methods/internal_diff/step_settings.hpp"

namespace odesens::internal_diff {
namespace {

// TOL scaled to TOLS: the accurate mode's bundle keeps the states' own
// relative and absolute scales at the sensitivities' accuracy.
integrate::Tolerances scaled(integrate::Tolerances tol, double factor) {
  tol.rtol *= factor;
  tol.atol *= factor;
  for (double& a : tol.atol_per_state) a *= factor;
  return tol;
}

// Directions whose differences stayed below their rounding floor: their σ
// is noise that the error test (rightly) cannot tighten, so the result says
// so, in one warning. This happens for a parameter that barely moves x
// (Brannmark's k1e = 1e-6: perturbed by √eps of itself, x moves by 1e-17)
// and for a column of S that is exactly 0.
// Not for a direction that moves neither x0 nor a parameter f reads: its
// perturbed solutions are the nominal one, and its S·R is exactly 0 (a
// parameter of the dynamics that only carries a sensitivity of x0 in, as a
// PEtab pre-equilibration's, where x0 does not depend on it).
bool exactly_zero(const SensitivityDirections& d, std::size_t j,
                  const std::vector<char>& read_by_f) {
  const double* r_x = d.state_part(j);
  const double* r_p = d.param_part(j);
  for (std::size_t i = 0; i < d.nx(); ++i)
    if (r_x[i] != 0.0) return false;
  for (std::size_t k = 0; k < d.np(); ++k)
    if (r_p[k] != 0.0 && read_by_f[k]) return false;
  return true;
}

void warn_unresolved(const SensitivityErrorNorm& norm, const SolveSetup& s,
                     std::vector<std::string>& warnings) {
  constexpr double resolvable = 1e-3;
  constexpr std::size_t listed = 6;
  const SensitivityDirections& d = s.directions;
  std::vector<std::string> names;
  for (std::size_t j = 0; j < d.count(); ++j)
    if (norm.floor_over_sigma(j + 1) > resolvable && !exactly_zero(d, j, s.read_by_f))
      names.push_back(direction_name(d, s.model, j));
  if (names.empty()) return;
  warnings.push_back(first_names(names, listed) + (names.size() == 1 ? " is" : " are") +
                     " below what differences resolve (their rounding floor exceeds 1e-3 of "
                     "their largest value, as for a parameter that barely moves x or an S that "
                     "is 0): not to be trusted; cvodes_fsa or odesd compute S without differences");
}

// nominal=accurate (the paper's section 2.4): η̃, the nominal integrated
// alone at TOL, brought to each step end of the bundle, which steps at TOLS.
class AccurateNominal {
 public:
  explicit AccurateNominal(const SolveSetup& s)
      : shape_{s.directions.nx(), 0},
        norm_(shape_, s.settings.tolerances, s.settings.sensitivity, nullptr),
        rhs_(s.model, s.workspace, shape_, s.p.data()),
        integrator_(s.factory.make(rhs_, step_settings(s.settings, s.settings.tolerances, &norm_))),
        y_(s.directions.nx()) {
    integrator_->start(s.t0(), s.x0.data(), nullptr, s.t_end());
    solution_ = std::make_unique<BundleSolution>(*integrator_, rhs_, nullptr, false, s.t_end());
  }

  // η̃ at t, its states stored at the output times it passes.
  void advance_to(double t, OutputCursor& x_at, SensitivityOutput& out) {
    while (integrator_->t() < t) {
      integrator_->step(x_at.limit(t, integrator_->dense_output_fits_next_step()));
      x_at.collect(*solution_, y_.data(),
                   [&](std::size_t k, const double* xk) { out.set_states(k, xk); });
    }
  }
  const double* x() const { return integrator_->x(); }
  const double* x_low() const { return integrator_->x_low(); }
  void add_to(RunTally& tally) const {
    tally.add(integrator_->counts(), tally.nominal);
    tally.add_rhs(integrator_->counts(), shape_);
  }

 private:
  BundleShape shape_;
  SensitivityErrorNorm norm_;
  BundleRhs rhs_;
  std::unique_ptr<BundleIntegrator> integrator_;
  std::unique_ptr<BundleSolution> solution_;
  std::vector<double> y_;
};

// The outputs at t0 itself: x0 and the directions' state parts, or, where
// something happens at t0, the state and S·R after it.
void set_outputs_at_start(const SolveSetup& s, RunSolution& run, std::size_t count,
                          SensitivityOutput& out) {
  const SensitivityDirections& d = s.directions;
  for (std::size_t k = 0; k < count; ++k) {
    if (run.has_events()) {
      out.set_from_solution(k, run.solution().x(), true);
      continue;
    }
    out.set_states(k, s.x0.data());
    for (std::size_t j = 0; j < d.count(); ++j) out.set_direction(k, j, d.state_part(j));
  }
}

}  // namespace

RunTally run_internal_differences(const SolveSetup& s, SensitivityOutput& out) {
  const SensitivityDirections& d = s.directions;
  const BundleShape shape{d.nx(), d.count()};
  const bool accurate = s.settings.nominal == Nominal::accurate;
  const auto& times = s.problem.output_times;
  const double t_end = s.t_end();

  Perturbations perturbations(d, s.p, s.read_by_f, s.x0.data(), s.settings.scaling,
                              internal_delta());
  std::vector<double> X(shape.size()), X_low(shape.size()), eta_shared(d.nx()),
      eta_shared_low(d.nx());
  perturbations.seed(s.x0.data(), nullptr, nullptr, nullptr, X.data(), X_low.data());

  const integrate::Tolerances bundle_tol =
      accurate ? scaled(s.settings.tolerances,
                        s.settings.sensitivity.rtol / s.settings.tolerances.rtol)
               : s.settings.tolerances;
  SensitivityErrorNorm norm(shape, bundle_tol, s.settings.sensitivity, perturbations.epsilon());
  BundleRhs rhs(s.model, s.workspace, shape, perturbations.params());
  const auto bundle = s.factory.make(rhs, step_settings(s.settings, bundle_tol, &norm));
  // Where f is evaluated: a non-finite value only a perturbed trajectory met is said so.
  const auto evaluating_f = [&](const auto& action) {
    try {
      action();
    } catch (const Error& e) {
      rethrow_if_off_the_nominal(e, *bundle, d, s.model, internal_delta());
      throw;
    }
  };
  evaluating_f([&] { bundle->start(s.t0(), X.data(), X_low.data(), t_end); });
  RunSolution run(*bundle, rhs, &perturbations, s.settings.rescale, times, s.p.data(),
                  d.param_parts(), s.settings.tolerances);
  integrate::SteppedSolution& solution = run.solution();
  std::unique_ptr<AccurateNominal> nominal;
  if (accurate) nominal = std::make_unique<AccurateNominal>(s);

  std::vector<double> y(shape.size());
  OutputCursor sigma_at(times, s.t0(), run.dense()), x_at(times, s.t0(), run.dense());
  set_outputs_at_start(s, run, sigma_at.first_after_start(), out);

  RunTally tally;
  while (solution.t() < t_end) {
    evaluating_f(
        [&] { solution.step(sigma_at.limit(t_end, bundle->dense_output_fits_next_step())); });
    if (norm.sensitivity_decided()) ++tally.sensitivity_limited;
    sigma_at.collect(solution, y.data(), [&](std::size_t k, const double* yk) {
      out.set_from_solution(k, yk, !accurate);
    });
    // An instant inside the step: the bundle restarts there on the next step.
    if (!run.bundle_current()) continue;
    // η_{i+1}: the bundle's nominal, or η̃ brought to t_{i+1} at TOL.
    const double* eta = eta_shared.data();
    const double* eta_low = eta_shared_low.data();
    if (accurate) {
      nominal->advance_to(bundle->t(), x_at, out);
      eta = nominal->x();
      eta_low = nominal->x_low();
    } else {
      perturbations.nominal_of(bundle->x(), eta_shared.data());
      perturbations.nominal_of(bundle->x_low(), eta_shared_low.data());
    }
    perturbations.differentiate(bundle->x(), bundle->x_low());  // (11)
    if (bundle->t() >= t_end) break;
    // (12)–(13) and the bundle of the next step.
    const bool renewed = s.settings.rescale && perturbations.rescale(eta, accurate);
    if (accurate || renewed) {
      perturbations.seed(eta, eta_low, accurate ? nullptr : bundle->x(),
                         accurate ? nullptr : bundle->x_low(), X.data(), X_low.data());
      bundle->replace_states(X.data(), X_low.data());
      ++tally.reperturbations;
    }
  }

  tally.warnings = run.warnings();
  warn_unresolved(norm, s, tally.warnings);
  tally.events_executed = run.events_executed();
  tally.runs = accurate ? 2 : 1;
  tally.add(bundle->counts(), tally.bundle);
  tally.add_rhs(bundle->counts(), shape);
  if (nominal) nominal->add_to(tally);
  return tally;
}

}  // namespace odesens::internal_diff
