#include "methods/erk_adjoint/forward_trajectory.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "integrate/erk/erk_workspace.hpp"
#include "integrate/events/evented_solution.hpp"
#include "integrate/step_control.hpp"
#include "odesens/status.hpp"

namespace odesens::erk_adjoint {
namespace {

// Keeps what the mode needs of every accepted step, and integrates the
// running costs. Stage values arrive during each attempt (on_stage) and
// are committed when it is accepted.
class StepRecorder final : public integrate::erk::ErkObserver {
 public:
  StepRecorder(ForwardTrajectory& out, const integrate::erk::Tableau& tableau, const double* p,
               Workspace* ws, ForwardQuadrature quadrature)
      : out_(out),
        tableau_(tableau),
        p_(p),
        ws_(ws),
        quadrature_(quadrature),
        keep_stages_(out.mode == Checkpointing::stages || quadrature.integrand),
        attempt_(static_cast<std::size_t>(out.live_stages) * out.nx),
        r_(quadrature.integrand ? quadrature.integrand->count() : 0),
        last_q_(r_.size(), 0.0) {}
  void on_stage(int i, double, const double* y, const double*) override {
    if (!keep_stages_ || i >= out_.live_stages) return;
    std::copy(y, y + out_.nx, attempt_.begin() + static_cast<std::ptrdiff_t>(i) * out_.nx);
  }
  void on_step_accepted(double t_n, double h, const double* x_n, const double*,
                        const double* const*) override {
    out_.t.push_back(t_n);
    out_.h.push_back(h);
    if (out_.mode == Checkpointing::states) out_.x.insert(out_.x.end(), x_n, x_n + out_.nx);
    if (out_.mode == Checkpointing::stages) out_.y.insert(out_.y.end(), attempt_.begin(), attempt_.end());
    if (quadrature_.integrand) integrate(t_n, h);
  }
  // Forgets the last accepted step (it is taken again, shorter).
  void drop_last_step() {
    out_.t.pop_back();
    out_.h.pop_back();
    if (out_.mode == Checkpointing::states) out_.x.resize(out_.x.size() - out_.nx);
    if (out_.mode == Checkpointing::stages) out_.y.resize(out_.y.size() - attempt_.size());
    for (std::size_t m = 0; m < last_q_.size(); ++m) quadrature_.q[m] -= last_q_[m];
    std::fill(last_q_.begin(), last_q_.end(), 0.0);
  }

 private:
  // q += h sum_i b_i R(t_n + c_i h, Y_i) (every stage with b_i != 0 is live).
  void integrate(double t_n, double h) {
    std::fill(last_q_.begin(), last_q_.end(), 0.0);
    for (int i = 0; i < out_.live_stages; ++i) {
      if (tableau_.b[i] == 0.0) continue;
      const double* y = attempt_.data() + static_cast<std::size_t>(i) * out_.nx;
      quadrature_.integrand->evaluate(t_n + tableau_.c[i] * h, y, p_, r_.data(), nullptr,
                                      nullptr, ws_);
      for (std::size_t m = 0; m < r_.size(); ++m) {
        quadrature_.q[m] += h * tableau_.b[i] * r_[m];
        last_q_[m] += h * tableau_.b[i] * r_[m];
      }
    }
  }

  ForwardTrajectory& out_;
  const integrate::erk::Tableau& tableau_;
  const double* p_;
  Workspace* ws_;
  ForwardQuadrature quadrature_;
  bool keep_stages_;
  std::vector<double> attempt_;
  std::vector<double> r_;
  std::vector<double> last_q_;  // the last step's part of q
};

// The engine as a restartable solution for EventedSolution: steps are
// recorded as they are accepted; retake() replaces the last one by steps
// that end on the instant, and restart() records the instant the runner
// has just carried out (the only reason for a restart).
class RecordedSolution final : public integrate::RestartableSolution {
 public:
  RecordedSolution(integrate::erk::ErkEngine& engine, ModelRhs& system, StepRecorder& recorder,
                   ForwardTrajectory& out, integrate::EventRunner& events, double t_end,
                   const integrate::Tolerances& tolerances)
      : engine_(engine), system_(system), recorder_(recorder), out_(out), events_(events),
        t_end_(t_end), tolerances_(tolerances), x_start_(out.nx), held_(out.n_branches) {}

  std::size_t size() const override { return out_.nx; }
  double t() const override { return engine_.t(); }
  const double* x() const override { return engine_.x(); }
  void step(double t_limit) override {
    t_start_ = engine_.t();
    std::copy(engine_.x(), engine_.x() + out_.nx, x_start_.begin());
    engine_.step(t_limit);
  }
  void interpolate(double t, double* out) override { engine_.interpolate(t, out); }
  void begin_output_interval() override { engine_.begin_step_budget(); }
  bool state_tolerances(const double* x, double* tol) const override {
    for (std::size_t i = 0; i < out_.nx; ++i) tol[i] = tolerances_.of(i, x[i]);
    return true;
  }
  bool retake(double t) override {
    recorder_.drop_last_step();
    add_stats();
    // Within rounding of the step's start, no step: the instant is there.
    const bool at_start = t - t_start_ <= 64.0 * std::numeric_limits<double>::epsilon() *
                                              std::max(std::fabs(t), 1.0);
    const long used = engine_.budget_used();
    engine_.reset(t_start_, x_start_.data(), t_end_, at_start ? 0.0 : t - t_start_);
    engine_.carry_step_budget(used);
    while (!at_start && engine_.t() < t) engine_.step(t);
    return true;
  }
  void restart(double t, const double* y) override {
    record_instant();
    add_stats();
    hold_branches(t, y);
    // max_steps bounds the steps between output times, restarts included:
    // an event every 0.1 over 1e6 time units recorded instants until
    // memory ran out.
    const long used = engine_.budget_used();
    engine_.reset(t, y, integrate::heading_from(t, t_end_));
    engine_.carry_step_budget(used);
  }
  // The instant the runner carried out last, after the steps so far.
  void record_instant() { out_.instants.push_back({out_.steps(), events_.last_instant()}); }
  // f on the branches of the sides as of the last instant at (t, x), from
  // here to the next (ModelRhs): the truth of each stretch so far recorded
  // (one before the first instant too, where the start restarted).
  void hold_branches(double t, const double* x) {
    if (held_.empty()) return;
    events_.branch_truth(t, x, held_.data());
    while (out_.branch_truth.size() < (out_.instants.size() + 1) * held_.size())
      out_.branch_truth.insert(out_.branch_truth.end(), held_.begin(), held_.end());
    system_.hold_branches(events_.system(), held_.data());
  }
  // The engine's counts since its last reset, added to the trajectory's.
  void add_stats() {
    const auto& s = engine_.stats();
    out_.stats.steps += s.steps;
    out_.stats.accepted += s.accepted;
    out_.stats.rejected += s.rejected;
    out_.stats.rhs_evaluations += s.rhs_evaluations;
    out_.stats.dense_evaluations += s.dense_evaluations;
  }

 private:
  integrate::erk::ErkEngine& engine_;
  ModelRhs& system_;
  StepRecorder& recorder_;
  ForwardTrajectory& out_;
  integrate::EventRunner& events_;
  double t_end_;
  const integrate::Tolerances& tolerances_;
  double t_start_ = 0.0;
  std::vector<double> x_start_;
  std::vector<double> held_;  // the truth ModelRhs holds now
};

}  // namespace

ForwardTrajectory run_forward(const Model& model, const double* p, Workspace* ws, double t0,
                              const double* x0, const std::vector<double>& times,
                              const integrate::erk::Tableau& tableau,
                              const integrate::erk::ErkSettings& settings, double* x_out,
                              Checkpointing mode, int live_stages,
                              ForwardQuadrature quadrature, integrate::EventRunner* events) {
  ForwardTrajectory out;
  const std::size_t nx = model.nx();
  out.mode = mode;
  out.nx = nx;
  out.live_stages = live_stages > 0 ? live_stages : tableau.stages;
  out.x0.assign(x0, x0 + nx);
  ModelRhs system(model, p, ws);
  StepRecorder recorder(out, tableau, p, ws, quadrature);
  integrate::erk::ErkWorkspace workspace(tableau, nx, 1);
  integrate::erk::ErkEngine engine(system, workspace, settings, &recorder);
  const double t_end = times.empty() ? t0 : std::max(t0, times.back());
  const double t_toward = t_end > t0 ? t_end : t0 + 1.0;
  engine.reset(t0, x0, t_toward);
  if (!events || !events->active()) {
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (engine.t() < times[k]) engine.begin_step_budget();  // max_steps per output interval
      while (engine.t() < times[k]) engine.step(times[k]);
      out.steps_before.push_back(out.steps());
      out.instants_before.push_back(0);
      std::copy(engine.x(), engine.x() + nx, x_out + k * nx);
    }
    out.stats = engine.stats();
  } else {
    if (mode == Checkpointing::revolve)
      throw Error(Status::unsupported,
                  "checkpointing=revolve does not run events or switches of f (the model has "
                  "them); use checkpointing=states or stages");
    out.n_branches = events->n_branches();
    RecordedSolution recorded(engine, system, recorder, out, *events, t_toward,
                              settings.tolerances);
    integrate::EventedSolution solution(recorded, *events, nx, 0);
    if (out.n_branches > 0 && out.branch_truth.empty()) {
      // The start did not restart: the first stage was f as it is.
      recorded.hold_branches(t0, x0);
      engine.reset(t0, x0, t_toward);
    }
    solution.set_output_times(times.data(), times.size());
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (solution.t() < times[k]) solution.begin_output_interval();
      while (solution.t() < times[k]) solution.step(times[k]);
      out.steps_before.push_back(out.steps());
      // An instant at t_k whose restart is pending is recorded at the restart.
      out.instants_before.push_back(out.instants.size() + (solution.restart_pending() ? 1 : 0));
      std::copy(solution.x(), solution.x() + nx, x_out + k * nx);
    }
    // An instant at the last output changed the state there: it is part of
    // the solution the objectives read.
    if (solution.restart_pending()) {
      recorded.record_instant();
      recorded.hold_branches(solution.t(), solution.x());
    }
    recorded.add_stats();
  }
  // The trajectory is held through the reverse sweep: give back the
  // growth reserve (one copy) so that it holds exactly what it stores.
  for (std::vector<double>* v : {&out.t, &out.h, &out.x, &out.y, &out.branch_truth})
    v->shrink_to_fit();
  return out;
}

}  // namespace odesens::erk_adjoint
