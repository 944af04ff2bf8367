// The objectives every gradient method reads (odesens/objective.hpp).
#include "odesens/objective.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "core/number_text.hpp"
#include "odesens/integrand.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw Error(Status::invalid_argument, message);
}

class LinearObjective final : public Objective {
 public:
  LinearObjective(std::vector<double> weights, std::size_t nx)
      : weights_(std::move(weights)), nx_(nx) {}

  std::string description() const override { return "linear in the states"; }

  void check_sizes(std::size_t n_times, std::size_t nx, std::size_t) const override {
    require(nx == nx_ && weights_.size() == n_times * nx,
            "linear objective: " + std::to_string(weights_.size()) +
                " weights, expected n_times x nx = " + std::to_string(n_times) + " x " +
                std::to_string(nx));
  }

  double term(std::size_t k, double, const double* x, const double*, double* g_x, double*,
              Workspace*) const override {
    const double* w = weights_.data() + k * nx_;
    double phi = 0.0;
    for (std::size_t i = 0; i < nx_; ++i) {
      phi += w[i] * x[i];
      if (g_x) g_x[i] += w[i];
    }
    return phi;
  }

 private:
  std::vector<double> weights_;
  std::size_t nx_;
};

// Residuals r_j = (y_kj - h_j) / sigma_kj of the observed j, squared and
// summed; h and its derivatives from the model's observables.
class LeastSquaresObjective final : public Objective {
 public:
  LeastSquaresObjective(std::shared_ptr<const Model> model, std::vector<std::string> names,
                        std::vector<double> data, std::vector<double> sigma)
      : model_(std::move(model)),
        n_obs_(names.size()),
        observables_(observable_integrand(model_, names)),
        data_(std::move(data)),
        sigma_(std::move(sigma)) {
    require(data_.size() % n_obs_ == 0,
            "least-squares objective: " + std::to_string(data_.size()) +
                " data values, not a multiple of the " + std::to_string(n_obs_) + " observables");
    require(sigma_.empty() || sigma_.size() == n_obs_ || sigma_.size() == data_.size(),
            "least-squares objective: " + std::to_string(sigma_.size()) +
                " standard deviations, expected none, one per observable (" +
                std::to_string(n_obs_) + ") or one per data value (" +
                std::to_string(data_.size()) + ")");
    for (double v : data_)
      require(!std::isinf(v), "least-squares objective: a data value is infinite");
    for (double s : sigma_)
      require(std::isfinite(s) && s > 0.0,
              "least-squares objective: standard deviations must be finite and > 0, got " +
                  number_text(s));
  }

  std::string description() const override {
    return "least squares over " + std::to_string(n_obs_) + " observable" +
           (n_obs_ == 1 ? "" : "s");
  }

  void check_sizes(std::size_t n_times, std::size_t, std::size_t) const override {
    require(data_.size() == n_times * n_obs_,
            "least-squares objective: data for " + std::to_string(data_.size() / n_obs_) +
                " output times, the problem has " + std::to_string(n_times));
  }

  double term(std::size_t k, double t, const double* x, const double* p, double* g_x,
              double* g_p, Workspace* ws) const override {
    const std::size_t nx = model_->nx(), np = model_->np();
    std::vector<double> h(n_obs_), h_x(g_x ? nx * n_obs_ : 0), h_p(g_p ? np * n_obs_ : 0);
    observables_->evaluate(t, x, p, h.data(), g_x ? h_x.data() : nullptr,
                           g_p ? h_p.data() : nullptr, ws);
    double phi = 0.0;
    for (std::size_t j = 0; j < n_obs_; ++j) {
      const double y = data_[j + k * n_obs_];
      if (std::isnan(y)) continue;
      const double s = sigma(k, j), r = (y - h[j]) / s;
      phi += r * r;
      const double dphi_dh = -2.0 * r / s;
      for (std::size_t i = 0; g_x && i < nx; ++i) g_x[i] += dphi_dh * h_x[i + j * nx];
      for (std::size_t i = 0; g_p && i < np; ++i) g_p[i] += dphi_dh * h_p[i + j * np];
    }
    return phi;
  }

 private:
  double sigma(std::size_t k, std::size_t j) const {
    if (sigma_.empty()) return 1.0;
    return sigma_.size() == n_obs_ ? sigma_[j] : sigma_[j + k * n_obs_];
  }

  std::shared_ptr<const Model> model_;
  std::size_t n_obs_;
  std::shared_ptr<const Integrand> observables_;
  std::vector<double> data_, sigma_;
};

}  // namespace

std::shared_ptr<const Objective> linear_objective(std::vector<double> weights, std::size_t nx) {
  require(nx > 0 && weights.size() % nx == 0,
          "linear objective: " + std::to_string(weights.size()) +
              " weights, not a multiple of nx = " + std::to_string(nx));
  for (double w : weights) require(std::isfinite(w), "linear objective: a weight is NaN or Inf");
  return std::make_shared<LinearObjective>(std::move(weights), nx);
}

std::shared_ptr<const Objective> least_squares_objective(std::shared_ptr<const Model> model,
                                                         std::vector<std::string> observables,
                                                         std::vector<double> data,
                                                         std::vector<double> sigma) {
  require(model != nullptr, "least-squares objective: no model");
  if (observables.empty()) observables = model->state_names();
  require(!observables.empty(), "least-squares objective: the model has no states");
  return std::make_shared<LeastSquaresObjective>(std::move(model), std::move(observables),
                                                 std::move(data), std::move(sigma));
}

}  // namespace odesens
