#include "methods/erk_adjoint/forward_trajectory.hpp"

#include <algorithm>

#include "integrate/erk/erk_system.hpp"
#include "integrate/erk/erk_workspace.hpp"

namespace odesens::erk_adjoint {
namespace {

// Keeps (t_n, h_n, x_n) of every accepted step.
class StepRecorder final : public integrate::erk::ErkObserver {
 public:
  explicit StepRecorder(ForwardTrajectory& out) : out_(out) {}
  void on_step_accepted(double t_n, double h, const double* x_n, const double*,
                        const double* const*) override {
    out_.t.push_back(t_n);
    out_.h.push_back(h);
    out_.x.insert(out_.x.end(), x_n, x_n + out_.nx);
  }

 private:
  ForwardTrajectory& out_;
};

}  // namespace

ForwardTrajectory run_forward(const Model& model, const double* p, Workspace* ws, double t0,
                              const double* x0, const std::vector<double>& times,
                              const integrate::erk::Tableau& tableau,
                              const integrate::erk::ErkSettings& settings, double* x_out) {
  ForwardTrajectory out;
  const std::size_t nx = model.nx();
  out.nx = nx;
  ModelRhs system(model, p, ws);
  StepRecorder recorder(out);
  integrate::erk::ErkWorkspace workspace(tableau, nx, 1);
  integrate::erk::ErkEngine engine(system, workspace, settings, &recorder);
  const double t_end = times.empty() ? t0 : std::max(t0, times.back());
  engine.reset(t0, x0, t_end > t0 ? t_end : t0 + 1.0);
  for (std::size_t k = 0; k < times.size(); ++k) {
    while (engine.t() < times[k]) engine.step(times[k]);
    out.steps_before.push_back(out.steps());
    std::copy(engine.x(), engine.x() + nx, x_out + k * nx);
  }
  out.x_final.assign(engine.x(), engine.x() + nx);
  out.stats = engine.stats();
  return out;
}

}  // namespace odesens::erk_adjoint
