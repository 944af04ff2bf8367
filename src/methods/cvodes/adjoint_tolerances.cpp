#include "methods/cvodes/adjoint_tolerances.hpp"

#include <algorithm>
#include <cmath>

namespace odesens::cvodes {
namespace {

// Trapezoidal integral over the sample of the rates r_k (np x nw blocks, one
// per sample point), taking the larger end of each interval.
void integrate_rates(const std::vector<double>& times, const std::vector<double>& rates,
                     std::size_t block, std::vector<double>& scale) {
  scale.assign(block, 0.0);
  for (std::size_t k = 1; k < times.size(); ++k) {
    const double dt = times[k] - times[k - 1];
    const double* a = rates.data() + (k - 1) * block;
    const double* b = rates.data() + k * block;
    for (std::size_t q = 0; q < block; ++q) scale[q] += dt * std::max(a[q], b[q]);
  }
}

// atol_j = rtol * max(scale_j, 1e-12 max scale); the fallback when every
// estimate vanishes (no parameter moves the objective at the sample).
std::vector<double> quadrature_atol(const double* scale, std::size_t np, double rtol,
                                    double fallback) {
  double largest = 0.0;
  for (std::size_t j = 0; j < np; ++j) largest = std::max(largest, scale[j]);
  std::vector<double> atol(np, fallback);
  if (!(largest > 0.0) || !std::isfinite(largest)) return atol;
  for (std::size_t j = 0; j < np; ++j) atol[j] = rtol * std::max(scale[j], 1e-12 * largest);
  return atol;
}

}  // namespace

std::vector<BackwardTolerances> derive_backward_tolerances(
    const AdjointToleranceOptions& options, double rtol, const Model& model, const double* p,
    Workspace* ws, const TrajectorySample& sample, bool rows) {
  const std::size_t nx = model.nx(), np = model.np(), m = sample.times.size();
  const double rtol_l = options.rtol_adjoint > 0.0 ? options.rtol_adjoint : rtol;
  const double rtol_q = options.rtol_quadrature > 0.0 ? options.rtol_quadrature : rtol;

  // lambda^ at each sample point: running sum of |w| from the end.
  std::vector<double> seeds(m * nx, 0.0);
  for (std::size_t k = m; k-- > 0;)
    for (std::size_t i = 0; i < nx; ++i)
      seeds[k * nx + i] = std::fabs(sample.weights[k * nx + i]) +
                          (k + 1 < m ? seeds[(k + 1) * nx + i] : 0.0);
  double max_w = 0.0;
  for (double w : sample.weights) max_w = std::max(max_w, std::fabs(w));

  // Quadrature rates |J_p^T lambda^| (objective) and |J_p| (rows: e_i seeds).
  const bool derive_q = !(options.atol_quadrature > 0.0) && np > 0;
  std::vector<double> objective_rates, row_rates, jp;
  if (derive_q) {
    objective_rates.resize(m * np);
    if (rows) {
      row_rates.resize(m * nx * np);
      jp.resize(nx * np);
    }
    for (std::size_t k = 0; k < m; ++k) {
      const double* x = sample.states.data() + k * nx;
      double* r = objective_rates.data() + k * np;
      model.vjp_p(sample.times[k], x, p, 1, seeds.data() + k * nx, r, ws);
      for (std::size_t j = 0; j < np; ++j) r[j] = std::fabs(r[j]);
      if (rows) {
        model.jac_p(sample.times[k], x, p, jp.data(), ws);
        double* rr = row_rates.data() + k * nx * np;  // np x nx: row problem i slowest
        for (std::size_t i = 0; i < nx; ++i)
          for (std::size_t j = 0; j < np; ++j) rr[j + i * np] = std::fabs(jp[i + j * nx]);
      }
    }
  }

  auto make = [&](double seed_scale, const double* q_scale) {
    BackwardTolerances t;
    t.rtol_adjoint = rtol_l;
    t.rtol_quadrature = rtol_q;
    const double derived_l = rtol_l * (seed_scale > 0.0 ? seed_scale : 1.0);
    t.atol_adjoint = options.atol_adjoint > 0.0 ? options.atol_adjoint : derived_l;
    if (np == 0) return t;
    if (!derive_q)
      t.atol_quadrature.assign(np, options.atol_quadrature);
    else
      t.atol_quadrature = quadrature_atol(q_scale, np, rtol_q, t.atol_adjoint);
    return t;
  };

  std::vector<BackwardTolerances> out;
  std::vector<double> scale;
  if (derive_q) integrate_rates(sample.times, objective_rates, np, scale);
  out.push_back(make(max_w, scale.data()));
  if (rows) {
    std::vector<double> row_scale;
    if (derive_q) integrate_rates(sample.times, row_rates, nx * np, row_scale);
    for (std::size_t i = 0; i < nx; ++i)
      out.push_back(make(1.0, derive_q ? row_scale.data() + i * np : nullptr));
  }
  return out;
}

}  // namespace odesens::cvodes
