// The two kinds of integrand: observables of the model, and a C++ function.
#include "odesens/integrand.hpp"

#include <algorithm>
#include <utility>

#include "odesens/observables.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

class ObservableIntegrand final : public Integrand {
 public:
  ObservableIntegrand(std::shared_ptr<const Model> model, const std::vector<std::string>& names)
      : model_(std::move(model)) {
    const ObservableSet* set = model_->observable_set();
    const auto& known = set ? set->observable_names() : model_->state_names();
    check_observables(*model_, names);  // the message for an unknown name
    for (const auto& name : names)
      which_.push_back(static_cast<std::size_t>(
          std::find(known.begin(), known.end(), name) - known.begin()));
  }

  std::size_t count() const override { return which_.size(); }

  void evaluate(double t, const double* x, const double* p, double* r, double* r_x, double* r_p,
                Workspace* ws) const override {
    const std::size_t nx = model_->nx(), np = model_->np(), m = which_.size();
    const ObservableSet* set = model_->observable_set();
    if (!set) {  // states: R_m = x_{which[m]}
      for (std::size_t k = 0; k < m; ++k) {
        if (r) r[k] = x[which_[k]];
        if (r_x) {
          std::fill(r_x + k * nx, r_x + (k + 1) * nx, 0.0);
          r_x[which_[k] + k * nx] = 1.0;
        }
        if (r_p) std::fill(r_p + k * np, r_p + (k + 1) * np, 0.0);
      }
      return;
    }
    std::unique_ptr<Workspace> local;
    ws = &workspace_or_local(*model_, ws, local);
    if (r) {
      double* all = ws->scratch(Workspace::Scratch::product, set->observable_names().size());
      set->observables(t, x, p, all, ws);
      for (std::size_t k = 0; k < m; ++k) r[k] = all[which_[k]];
    }
    if (r_x || r_p) set->observable_gradients(t, x, p, m, which_.data(), r_x, r_p, ws);
  }

  std::string moving_switch() const override {
    const ObservableSet* set = model_->observable_set();
    if (!set) return {};
    for (std::size_t k = 0; k < which_.size(); ++k) {
      const std::string text = set->observable_switch(which_[k]);
      if (!text.empty())
        return "integrand '" + set->observable_names()[which_[k]] + "': " + text;
    }
    return {};
  }

 private:
  std::shared_ptr<const Model> model_;
  std::vector<std::size_t> which_;
};

class FunctionIntegrand final : public Integrand {
 public:
  FunctionIntegrand(std::size_t count, IntegrandFunction fn) : count_(count), fn_(std::move(fn)) {}
  std::size_t count() const override { return count_; }
  void evaluate(double t, const double* x, const double* p, double* r, double* r_x, double* r_p,
                Workspace*) const override {
    fn_(t, x, p, r, r_x, r_p);
  }

 private:
  std::size_t count_;
  IntegrandFunction fn_;
};

}  // namespace

std::shared_ptr<const Integrand> observable_integrand(std::shared_ptr<const Model> model,
                                                      const std::vector<std::string>& names) {
  if (!model) throw Error(Status::invalid_argument, "integrand: no model");
  if (names.empty()) throw Error(Status::invalid_argument, "integrand: no observable names");
  return std::make_shared<ObservableIntegrand>(std::move(model), names);
}

std::shared_ptr<const Integrand> function_integrand(std::size_t count, IntegrandFunction fn) {
  if (count == 0) throw Error(Status::invalid_argument, "integrand: count must be at least 1");
  if (!fn) throw Error(Status::invalid_argument, "integrand: no function");
  return std::make_shared<FunctionIntegrand>(count, std::move(fn));
}

}  // namespace odesens
