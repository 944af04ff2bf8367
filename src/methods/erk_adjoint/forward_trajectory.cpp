#include "methods/erk_adjoint/forward_trajectory.hpp"

#include <algorithm>

#include "integrate/erk/erk_workspace.hpp"

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
        r_(quadrature.integrand ? quadrature.integrand->count() : 0) {}
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

 private:
  // q += h sum_i b_i R(t_n + c_i h, Y_i) (every stage with b_i != 0 is live).
  void integrate(double t_n, double h) {
    for (int i = 0; i < out_.live_stages; ++i) {
      if (tableau_.b[i] == 0.0) continue;
      const double* y = attempt_.data() + static_cast<std::size_t>(i) * out_.nx;
      quadrature_.integrand->evaluate(t_n + tableau_.c[i] * h, y, p_, r_.data(), nullptr,
                                      nullptr, ws_);
      for (std::size_t m = 0; m < r_.size(); ++m) quadrature_.q[m] += h * tableau_.b[i] * r_[m];
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
};

}  // namespace

ForwardTrajectory run_forward(const Model& model, const double* p, Workspace* ws, double t0,
                              const double* x0, const std::vector<double>& times,
                              const integrate::erk::Tableau& tableau,
                              const integrate::erk::ErkSettings& settings, double* x_out,
                              Checkpointing mode, int live_stages,
                              ForwardQuadrature quadrature) {
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
  engine.reset(t0, x0, t_end > t0 ? t_end : t0 + 1.0);
  for (std::size_t k = 0; k < times.size(); ++k) {
    while (engine.t() < times[k]) engine.step(times[k]);
    out.steps_before.push_back(out.steps());
    std::copy(engine.x(), engine.x() + nx, x_out + k * nx);
  }
  // The trajectory is held through the reverse sweep: give back the
  // growth reserve (one copy) so that it holds exactly what it stores.
  for (std::vector<double>* v : {&out.t, &out.h, &out.x, &out.y}) v->shrink_to_fit();
  out.stats = engine.stats();
  return out;
}

}  // namespace odesens::erk_adjoint
