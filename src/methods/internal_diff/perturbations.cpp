#include "methods/internal_diff/perturbations.hpp"

#include <algorithm>

#include "methods/internal_diff/perturbation_scale.hpp"

namespace odesens::internal_diff {

Perturbations::Perturbations(const SensitivityDirections& directions, const std::vector<double>& p,
                             const std::vector<char>& read_by_f, const double* x0,
                             Scaling scaling, double delta)
    : directions_(directions),
      nx_(directions.nx()),
      np_(directions.np()),
      ns_(directions.count()),
      scaling_(scaling),
      delta_(delta),
      p_(p),
      sigma_(nx_ * ns_),
      epsilon_(ns_),
      v_param_(ns_),
      params_(np_ * (1 + ns_)),
      changed_(ns_, 1) {
  std::copy(p.begin(), p.end(), params_.begin());
  for (std::size_t j = 0; j < ns_; ++j) {
    std::copy(directions.state_part(j), directions.state_part(j) + nx_, sigma_.begin() + j * nx_);
    v_param_[j] = parameter_scale(np_, directions.param_part(j), p.data(), read_by_f);
    epsilon_[j] = perturbation_size(scaling_, nx_, x0, sigma(j), v_param_[j], delta_);
    set_params(j);
  }
}

void Perturbations::set_params(std::size_t j) {
  const double* r_p = directions_.param_part(j);
  double* column = params_.data() + (j + 1) * np_;
  for (std::size_t k = 0; k < np_; ++k) column[k] = p_[k] + epsilon_[j] * r_p[k];
}

void Perturbations::differentiate(const double* X, const double* X_low) {
  directions_of(X, X_low, sigma_.data());
}

void Perturbations::directions_of(const double* X, const double* X_low, double* S) const {
  const std::size_t L = 1 + ns_;
  for (std::size_t j = 0; j < ns_; ++j) {
    const double inv = 1.0 / epsilon_[j];
    double* s = S + j * nx_;
    for (std::size_t i = 0; i < nx_; ++i) {
      const std::size_t at = i * L + j + 1, nominal = i * L;
      double d = X[at] - X[nominal];  // exact for nearby values (Sterbenz)
      if (X_low) d += X_low[at] - X_low[nominal];
      s[i] = d * inv;
    }
  }
}

void Perturbations::nominal_of(const double* X, double* eta) const {
  const std::size_t L = 1 + ns_;
  for (std::size_t i = 0; i < nx_; ++i) eta[i] = X[i * L];
}

bool Perturbations::rescale(const double* eta, bool always) {
  bool any = false;
  for (std::size_t j = 0; j < ns_; ++j) {
    const double renewed = perturbation_size(scaling_, nx_, eta, sigma(j), v_param_[j], delta_);
    const double ratio = renewed / epsilon_[j];
    changed_[j] = always || ratio > 2.0 || ratio < 0.5;
    if (!changed_[j]) continue;
    epsilon_[j] = renewed;
    set_params(j);
    any = true;
  }
  return any;
}

void Perturbations::seed(const double* eta, const double* eta_low, const double* current,
                         const double* current_low, double* X, double* X_low) const {
  const std::size_t L = 1 + ns_;
  for (std::size_t i = 0; i < nx_; ++i) {
    X[i * L] = eta[i];
    X_low[i * L] = eta_low ? eta_low[i] : 0.0;
  }
  for (std::size_t j = 0; j < ns_; ++j) {
    const std::size_t l = j + 1;
    if (current && !changed_[j]) {
      for (std::size_t i = 0; i < nx_; ++i) {
        X[i * L + l] = current[i * L + l];
        X_low[i * L + l] = current_low ? current_low[i * L + l] : 0.0;
      }
      continue;
    }
    const double* s = sigma(j);
    for (std::size_t i = 0; i < nx_; ++i) {
      // TwoSum: sum + error = eta_i + delta exactly.
      const double delta = epsilon_[j] * s[i] + (eta_low ? eta_low[i] : 0.0);
      const double sum = eta[i] + delta;
      const double delta_kept = sum - eta[i];
      X[i * L + l] = sum;
      X_low[i * L + l] = (eta[i] - (sum - delta_kept)) + (delta - delta_kept);
    }
  }
}

}  // namespace odesens::internal_diff
