#include "methods/choice/stiffness_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "core/number_text.hpp"
#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/stability_limit.hpp"
#include "integrate/erk/stiffness_test.hpp"
#include "integrate/erk/tableau.hpp"
#include "odesens/model.hpp"
#include "odesens/status.hpp"
#include "problem/initial_values.hpp"

namespace odesens::methods {
namespace {

class ProbeRhs final : public integrate::erk::ErkSystem {
 public:
  ProbeRhs(const Model& model, const double* p, Workspace* ws) : model_(model), p_(p), ws_(ws) {}
  void rhs(double t, const double* X, double* F) override { model_.rhs(t, X, p_, F, ws_); }

 private:
  const Model& model_;
  const double* p_;
  Workspace* ws_;
};

integrate::erk::ErkSettings probe_settings(const Problem& problem, long budget) {
  integrate::erk::ErkSettings s;
  s.tolerances.rtol = problem.rtol.value_or(1e-8);
  if (problem.atol.size() == 1) s.tolerances.atol = problem.atol[0];
  else if (!problem.atol.empty()) s.tolerances.atol_per_state = problem.atol;
  // Attempts, rejected ones included: a budget of accepted steps cannot
  // run forever on rejections either.
  s.max_steps = 4 * budget;
  s.detect_stiffness = true;
  s.stiffness_period = 1;
  return s;
}

// x at the output times as the probe passes them, from dopri5's dense
// output over each accepted step.
class OutputRecorder {
 public:
  OutputRecorder(const std::vector<double>& times, std::size_t nx) : times_(times), nx_(nx) {
    states_.reserve(times.size() * nx);
  }
  // The outputs at t0 (x0 itself).
  void start(double t0, const double* x0) {
    for (; next_ < times_.size() && times_[next_] <= t0; ++next_)
      states_.insert(states_.end(), x0, x0 + nx_);
  }
  // The outputs inside the engine's last step.
  void after_step(integrate::erk::ErkEngine& engine) {
    for (; next_ < times_.size() && times_[next_] <= engine.t(); ++next_) {
      states_.resize(states_.size() + nx_);
      engine.interpolate(times_[next_], states_.data() + states_.size() - nx_);
    }
  }
  // Every output, or nothing.
  std::vector<double> take() {
    if (next_ < times_.size()) return {};
    return std::move(states_);
  }

 private:
  const std::vector<double>& times_;
  std::size_t nx_;
  std::size_t next_ = 0;
  std::vector<double> states_;
};

}  // namespace

const char* finding_name(StiffnessFinding::Kind kind) {
  switch (kind) {
    case StiffnessFinding::Kind::non_stiff: return "non-stiff";
    case StiffnessFinding::Kind::slow: return "slow";
    case StiffnessFinding::Kind::stiff: return "stiff";
    case StiffnessFinding::Kind::inconclusive: break;
  }
  return "inconclusive";
}

// The median of Hairer's h|λ| estimate over the stability boundary, above
// which the probe's steps count as held by stability, not accuracy: the
// problem is stiff for an explicit method even where Hairer's test (15
// firings in a row at 0.8 of the boundary) never completes a run. On Van
// der Pol (mu = 1000) over [0, 1] at rtol 1e-8 the median is 0.51, passing
// 0.8 only now and then: the probe found it non-stiff, and erk_adjoint's
// 1900 steps took 3.8 times odesd's gradient (640 implicit steps). On the
// other shared models it is at most 0.13 at rtol 1e-8 (Boehm, stiff by the
// test anyway; the non-stiff ones at most 0.10) and 0.25 at 1e-6
// (Raia_CancerResearch2011).
constexpr double kStabilityBoundMedian = 0.35;
// Accuracy-limited steps grow like rtol^(1/5), and with them h|λ| on models
// that are not stiff: at rtol 1e-4 Raia's median is 0.53. Above this rtol
// the median says nothing the test does not.
constexpr double kStabilityBoundRtol = 1e-6;

double median_of(std::vector<double> v) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

// Steps the engine until t_end or the budget, recording progress in `f`
// (also when a step throws: how far the probe got is part of the finding).
void run_probe(integrate::erk::ErkEngine& engine, double boundary, bool use_median, double t0,
               double t_end, long budget, double step_limit, OutputRecorder* outputs,
               StiffnessFinding& f) {
  std::vector<double> h_lambda;  // Hairer's estimate at each accepted step, over the boundary
  if (use_median) h_lambda.reserve(static_cast<std::size_t>(budget));
  try {
    while (engine.t() < t_end && engine.stats().accepted < budget) {
      engine.step(t_end);
      if (outputs) outputs->after_step(engine);
      if (use_median && boundary > 0) h_lambda.push_back(engine.last_quotient() / boundary);
    }
  } catch (const Error& e) {
    f.steps = engine.stats().accepted;
    f.t_reached = engine.t();
    f.kind = e.status() == Status::stiff ? StiffnessFinding::Kind::stiff
                                         : StiffnessFinding::Kind::inconclusive;
    f.detail = e.status() == Status::stiff
                   ? "h|lambda| stayed at the edge of dopri5's stability region"
                   : e.what();
    return;
  }
  f.steps = engine.stats().accepted;
  f.t_reached = engine.t();
  const double done = (f.t_reached - t0) / (t_end - t0);
  f.projected_steps = done > 0 ? static_cast<double>(f.steps) / done
                               : std::numeric_limits<double>::infinity();
  f.kind = engine.t() >= t_end || f.projected_steps <= step_limit
               ? StiffnessFinding::Kind::non_stiff
               : StiffnessFinding::Kind::slow;
  if (static_cast<long>(h_lambda.size()) >= integrate::erk::StiffnessTest::run) {
    f.median_h_lambda = median_of(h_lambda);
    if (f.median_h_lambda >= kStabilityBoundMedian) {
      f.kind = StiffnessFinding::Kind::stiff;
      f.detail = "dopri5's steps were held by its stability region: Hairer's estimate of "
                 "h|lambda| had a median of " +
                 rounded_number_text(f.median_h_lambda) + " of the boundary over " +
                 std::to_string(h_lambda.size()) + " steps";
    }
  }
}

// States times accepted steps the probe may take: 300 steps up to 66 667
// states, fewer above (at least 10), so that the probe of a model of a
// million states costs seconds, not minutes (network:1000000: over 60 s).
constexpr double kProbeWork = 2e7;

StiffnessFinding probe_stiffness(const Problem& problem, long budget, double step_limit,
                                 bool keep_states) {
  const auto start = std::chrono::steady_clock::now();
  const double nx = static_cast<double>(std::max<std::size_t>(problem.model->nx(), 1));
  budget = std::min(budget, std::max(10L, static_cast<long>(kProbeWork / nx)));
  StiffnessFinding f;
  const Model& model = *problem.model;
  const double t0 = problem.t0;
  const double t_end = problem.output_times.empty() ? t0 : problem.output_times.back();
  f.t_reached = t0;
  if (model.nx() == 0 || !(t_end > t0)) {
    f.kind = StiffnessFinding::Kind::non_stiff;
    return f;
  }
  try {
    const std::vector<double> p = effective_params(problem);
    auto ws = model.make_workspace();
    const std::vector<double> x0 = initial_state_of(problem, p, ws.get());
    ProbeRhs system(model, p.data(), ws.get());
    integrate::erk::ErkWorkspace workspace(integrate::erk::tableau(integrate::erk::TableauId::dopri5),
                                           model.nx(), 1);
    // The steps the discrete adjoint would take: held inside the stability
    // region where the solution rests, as erk_adjoint holds them.
    integrate::erk::StabilityLimit limit(model, p.data(), ws.get(),
                                         integrate::erk::cached_stability_boundary(
                                             workspace.tableau()));
    integrate::erk::ErkSettings settings = probe_settings(problem, budget);
    settings.step_limit = &limit;
    integrate::erk::ErkEngine engine(system, workspace, settings);
    engine.reset(t0, x0.data(), t_end);
    std::optional<OutputRecorder> outputs;
    if (keep_states) {
      outputs.emplace(problem.output_times, model.nx());
      outputs->start(t0, x0.data());
    }
    run_probe(engine, integrate::erk::cached_stability_boundary(workspace.tableau()),
              settings.tolerances.rtol <= kStabilityBoundRtol, t0, t_end, budget, step_limit,
              outputs ? &*outputs : nullptr, f);
    if (outputs && f.kind == StiffnessFinding::Kind::non_stiff)
      f.states_at_outputs = outputs->take();
  } catch (const std::exception& e) {
    f.kind = StiffnessFinding::Kind::inconclusive;
    f.detail = e.what();
  }
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return f;
}

}  // namespace odesens::methods
