#include "methods/internal_diff/perturbation_scale.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace odesens::internal_diff {

std::vector<char> parameters_read_by_f(const Model& model) {
  const std::size_t np = model.np();
  const SparsityPattern* pattern = model.jac_p_pattern();
  if (!pattern || model.event_system() || pattern->cols != np || pattern->col_ptr.size() != np + 1)
    return std::vector<char>(np, 1);
  std::vector<char> read(np);
  for (std::size_t k = 0; k < np; ++k) read[k] = pattern->col_ptr[k + 1] > pattern->col_ptr[k];
  return read;
}

double parameter_scale(std::size_t np, const double* r_p, const double* p,
                       const std::vector<char>& read_by_f) {
  double v = 0.0;
  for (std::size_t k = 0; k < np; ++k) {
    if (!read_by_f[k]) continue;
    // A p so small that r_p / p overflows (5e-324) counts as 0: an infinite
    // v made the perturbation 0, and every difference 0 / 0.
    const double ratio = p[k] != 0.0 ? std::fabs(r_p[k] / p[k]) : INFINITY;
    const double vk = std::isfinite(ratio) ? ratio : std::fabs(r_p[k]);
    if (!(vk <= v)) v = vk;  // NaN wins
  }
  return v;
}

double perturbation_size(Scaling scaling, std::size_t nx, const double* eta, const double* sigma,
                         double v_param, double delta) {
  double v = v_param;
  if (scaling == Scaling::normwise) {
    double sigma_max = 0.0, eta_max = 0.0;
    for (std::size_t k = 0; k < nx; ++k) {
      if (!(std::fabs(sigma[k]) <= sigma_max)) sigma_max = std::fabs(sigma[k]);  // NaN wins
      eta_max = std::max(eta_max, std::fabs(eta[k]));
    }
    const double vx = sigma_max / (eta_max + 1.0);
    if (!(vx <= v)) v = vx;
  } else {
    for (std::size_t k = 0; k < nx; ++k) {
      const double vk = std::fabs(sigma[k]) / (std::fabs(eta[k]) + 1.0);  // (12)
      if (!(vk <= v)) v = vk;
    }
  }
  return delta / (v + delta);  // (13)
}

double internal_delta() { return std::sqrt(std::numeric_limits<double>::epsilon()); }

}  // namespace odesens::internal_diff
