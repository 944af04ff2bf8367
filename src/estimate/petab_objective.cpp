// An experiment's negative log-likelihood as an Objective (petab_objective.hpp).
#include "estimate/petab_objective.hpp"

#include <algorithm>
#include <map>

#include "odesens/status.hpp"

namespace odesens::petab {
namespace {

class ExperimentObjective final : public Objective {
 public:
  ExperimentObjective(const Definition& def, const Experiment& e, std::vector<double> theta)
      : def_(def), e_(e), theta_(std::move(theta)), by_time_(e.times.size()) {
    for (std::size_t mi : e.measurements) {
      const double t = def.measurements[mi].time;
      const auto k = static_cast<std::size_t>(
          std::lower_bound(e.times.begin(), e.times.end(), t) - e.times.begin());
      if (k < e.times.size()) by_time_[k].push_back(mi);
    }
    for (const Measurement& m : def.measurements)
      for (const auto& entry : m.placeholders) placeholder_[entry.first] = true;
  }

  std::string description() const override {
    return "PEtab negative log-likelihood of condition '" + def_.conditions[e_.simulation].id + "'";
  }

  void check_sizes(std::size_t n_times, std::size_t nx, std::size_t np) const override {
    if (n_times != by_time_.size() || nx != def_.model->nx() || np != def_.model->np())
      throw Error(Status::invalid_argument,
                  description() + ": made for " + std::to_string(by_time_.size()) +
                      " output times of the problem's model");
  }

  double term(std::size_t k, double t, const double* x, const double* p, double* g_x,
              double* g_p, Workspace* ws) const override {
    const ExprModel& model = *def_.model;
    const std::size_t nx = model.nx(), np = model.np();
    const std::vector<double> condition(p, p + np);
    std::vector<double> outputs(model.n_outputs()), gx(2 * nx), gp(2 * np);
    double sum = 0.0;
    for (std::size_t mi : by_time_[k]) {
      const Measurement& m = def_.measurements[mi];
      const Observable& ob = def_.observables[m.observable];
      const std::vector<double> row = row_params(m, condition, theta_);
      model.outputs(t, x, row.data(), outputs.data(), ws);
      const Term term = measurement_term(ob, m.value, outputs[ob.output], outputs[ob.sigma_output]);
      sum += term.nllh;
      if (!g_x && !g_p) continue;
      const std::size_t which[2] = {ob.output, ob.sigma_output};
      model.output_gradients(t, x, row.data(), 2, which, gx.data(), gp.data(), ws);
      if (g_x)
        for (std::size_t i = 0; i < nx; ++i)
          g_x[i] += term.by_h * gx[i] + term.by_sigma * gx[i + nx];
      if (g_p)
        for (std::size_t j = 0; j < np; ++j)
          if (!placeholder_.count(j)) g_p[j] += term.by_h * gp[j] + term.by_sigma * gp[j + np];
    }
    return sum;
  }

 private:
  const Definition& def_;
  const Experiment& e_;
  std::vector<double> theta_;
  std::vector<std::vector<std::size_t>> by_time_;  // measurements at each output time
  std::map<std::size_t, bool> placeholder_;        // model parameters that are placeholders
};

}  // namespace

std::shared_ptr<const Objective> experiment_objective(const Definition& def, const Experiment& e,
                                                      const std::vector<double>& theta) {
  return std::make_shared<ExperimentObjective>(def, e, theta);
}

}  // namespace odesens::petab
