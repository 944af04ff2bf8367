// An experiment's negative log-likelihood as an Objective (petab_objective.hpp).
#include "estimate/petab_objective.hpp"

#include <algorithm>
#include <mutex>

#include "odesens/status.hpp"

namespace odesens::petab {
namespace {

class ExperimentObjective final : public Objective {
 public:
  ExperimentObjective(const Definition& def, const Experiment& e, std::vector<double> theta,
                      std::vector<std::size_t> free)
      : def_(def),
        e_(e),
        theta_(std::move(theta)),
        free_(std::move(free)),
        condition_(model_params(def.conditions[e.simulation].params, theta_)),
        by_time_(e.times.size()),
        workspace_(def.model->make_workspace()) {
    for (std::size_t mi : e.measurements) {
      const double t = def.measurements[mi].time;
      const auto k = static_cast<std::size_t>(
          std::lower_bound(e.times.begin(), e.times.end(), t) - e.times.begin());
      if (k < e.times.size()) by_time_[k].push_back(mi);
    }
  }

  std::string description() const override {
    return "PEtab negative log-likelihood of condition '" + def_.conditions[e_.simulation].id + "'";
  }

  void check_sizes(std::size_t n_times, std::size_t nx, std::size_t np) const override {
    if (n_times != by_time_.size() || nx != def_.dynamics->nx() || np != free_.size())
      throw Error(Status::invalid_argument,
                  description() + ": made for " + std::to_string(by_time_.size()) +
                      " output times of the problem's model");
  }

  // The solver's workspace is the dynamics' (another model); the outputs
  // are evaluated with one of the full model's, kept here under a lock so
  // that the objective stays safe to share.
  double term(std::size_t k, double t, const double* x, const double* p, double* g_x,
              double* g_p, Workspace*) const override {
    std::lock_guard<std::mutex> lock(mutex_);
    Workspace* ws = workspace_.get();
    const ExprModel& model = *def_.model;
    const std::size_t nx = model.nx(), np = model.np(), n_free = free_.size();
    // p is the solver's: the condition's parameters at free_.
    std::vector<double> condition = condition_;
    for (std::size_t q = 0; q < n_free; ++q) condition[free_[q]] = p[q];
    std::vector<double> outputs(model.n_outputs()), gx(2 * nx), gp(2 * np);
    RowParams row_params(condition, theta_);
    double sum = 0.0;
    for (std::size_t mi : by_time_[k]) {
      const Measurement& m = def_.measurements[mi];
      const Observable& ob = def_.observables[m.observable];
      const double* row = row_params.of(m);
      model.outputs(t, x, row, outputs.data(), ws);
      const Term term = measurement_term(ob, m.value, outputs[ob.output], outputs[ob.sigma_output]);
      sum += term.nllh;
      // An undefined term keeps its NaN out of the backward solve: the
      // likelihood's own pass names its row and makes the gradient NaN.
      if ((!g_x && !g_p) || !std::isfinite(term.by_h) || !std::isfinite(term.by_sigma)) continue;
      const std::size_t which[2] = {ob.output, ob.sigma_output};
      model.output_gradients(t, x, row, 2, which, gx.data(), gp.data(), ws);
      if (g_x)
        for (std::size_t i = 0; i < nx; ++i)
          g_x[i] += term.by_h * gx[i] + term.by_sigma * gx[i + nx];
      if (g_p)
        for (std::size_t q = 0; q < n_free; ++q)
          g_p[q] += term.by_h * gp[free_[q]] + term.by_sigma * gp[free_[q] + np];
    }
    return sum;
  }

 private:
  const Definition& def_;
  const Experiment& e_;
  std::vector<double> theta_;
  std::vector<std::size_t> free_;  // the dynamics' parameters of the solver's p
  std::vector<double> condition_;  // the simulation condition's parameters (the full model's)
  std::vector<std::vector<std::size_t>> by_time_;  // measurements at each output time
  mutable std::mutex mutex_;
  std::unique_ptr<Workspace> workspace_;  // of the full model
};

}  // namespace

std::shared_ptr<const Objective> experiment_objective(const Definition& def, const Experiment& e,
                                                      const std::vector<double>& theta,
                                                      std::vector<std::size_t> free) {
  return std::make_shared<ExperimentObjective>(def, e, theta, std::move(free));
}

}  // namespace odesens::petab
