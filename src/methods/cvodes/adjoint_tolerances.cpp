#include "methods/cvodes/adjoint_tolerances.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace odesens::cvodes {
namespace {

// The trapezoidal integral over the sample of a rate block, taking the
// larger end of each interval, accumulated point by point so that only two
// blocks are held (the rows' blocks are nx x np each).
class RateIntegral {
 public:
  explicit RateIntegral(std::size_t block) : scale_(block, 0.0), previous_(block), current_(block) {}
  double* current() { return current_.data(); }
  // Adds the interval ending at time t, whose rates are in current().
  void add_point(double t) {
    if (have_previous_) {
      const double dt = t - t_previous_;
      for (std::size_t q = 0; q < scale_.size(); ++q)
        scale_[q] += dt * std::max(previous_[q], current_[q]);
    }
    std::swap(previous_, current_);
    t_previous_ = t;
    have_previous_ = true;
  }
  const double* scale() const { return scale_.data(); }

 private:
  std::vector<double> scale_, previous_, current_;
  double t_previous_ = 0.0;
  bool have_previous_ = false;
};

// The smallest tolerance whose inverse, CVODES' error weight of a
// component at 0, is finite.
constexpr double kSmallestTolerance = std::numeric_limits<double>::min();

// v, or kSmallestTolerance where v is smaller, subnormal, 0 or NaN.
double positive_tolerance(double v) { return v > kSmallestTolerance ? v : kSmallestTolerance; }

double atol_of(const std::vector<double>& atol, std::size_t i) {
  return atol.size() == 1 ? atol[0] : atol[i];
}

// The floor of the quadratures' absolute tolerances (header comment):
// rtol * resolution / pbar_j.
std::vector<double> quadrature_floor(double rtol, double resolution, const double* p,
                                     std::size_t np) {
  std::vector<double> floor(np);
  for (std::size_t j = 0; j < np; ++j) {
    const double pbar = std::fabs(p[j]) > 0.0 ? std::fabs(p[j]) : 1.0;
    floor[j] = positive_tolerance(rtol * resolution / pbar);
  }
  return floor;
}

// atol_j = rtol * max(scale_j, 1e-12 max scale); the fallback when every
// estimate vanishes (no parameter moves the objective at the sample); never
// below floor_j.
std::vector<double> quadrature_atol(const double* scale, std::size_t np, double rtol,
                                    double fallback, const std::vector<double>& floor) {
  double largest = 0.0;
  for (std::size_t j = 0; j < np; ++j) largest = std::max(largest, scale[j]);
  std::vector<double> atol(np, fallback);
  if (largest > 0.0 && std::isfinite(largest))
    for (std::size_t j = 0; j < np; ++j) atol[j] = rtol * std::max(scale[j], 1e-12 * largest);
  for (std::size_t j = 0; j < np; ++j) atol[j] = std::max(atol[j], floor[j]);
  return atol;
}

// lambda^ at each sample point (nx per point): running sum of |w| from the end.
std::vector<double> running_seeds(const TrajectorySample& sample, std::size_t nx) {
  const std::size_t m = sample.times.size();
  std::vector<double> seeds(m * nx, 0.0);
  for (std::size_t k = m; k-- > 0;)
    for (std::size_t i = 0; i < nx; ++i)
      seeds[k * nx + i] = std::fabs(sample.weights[k * nx + i]) +
                          (k + 1 < m ? seeds[(k + 1) * nx + i] : 0.0);
  return seeds;
}

}  // namespace

std::vector<BackwardTolerances> derive_backward_tolerances(
    const AdjointToleranceOptions& options, double rtol, const std::vector<double>& atol,
    const Model& model, const double* p, Workspace* ws, const TrajectorySample& sample,
    bool rows) {
  const std::size_t nx = model.nx(), np = model.np(), m = sample.times.size();
  const double rtol_l = options.rtol_adjoint > 0.0 ? options.rtol_adjoint : rtol;
  const double rtol_q = options.rtol_quadrature > 0.0 ? options.rtol_quadrature : rtol;

  const std::vector<double> seeds = running_seeds(sample, nx);
  double max_w = 0.0;
  for (double w : sample.weights) max_w = std::max(max_w, std::fabs(w));

  // Quadrature rates |J_p^T lambda^| (objective) and |J_p| (rows: e_i
  // seeds), integrated over the sample.
  const bool derive_q = !(options.atol_quadrature > 0.0) && np > 0;
  RateIntegral objective(derive_q ? np : 0), row_problems(derive_q && rows ? nx * np : 0);
  std::vector<double> jp(derive_q && rows ? nx * np : 0);
  for (std::size_t k = 0; derive_q && k < m; ++k) {
    const double* x = sample.states.data() + k * nx;
    double* r = objective.current();
    model.vjp_p(sample.times[k], x, p, 1, seeds.data() + k * nx, r, ws);
    for (std::size_t j = 0; j < np; ++j) r[j] = std::fabs(r[j]);
    objective.add_point(sample.times[k]);
    if (rows) {
      model.jac_p(sample.times[k], x, p, jp.data(), ws);
      double* rr = row_problems.current();  // np x nx: row problem i slowest
      for (std::size_t i = 0; i < nx; ++i)
        for (std::size_t j = 0; j < np; ++j) rr[j + i * np] = std::fabs(jp[i + j * nx]);
      row_problems.add_point(sample.times[k]);
    }
  }

  // resolution: the forward solution's absolute error in the seeded
  // quantity (the floor of the quadratures' tolerances).
  auto make = [&](double seed_scale, const double* q_scale, double resolution) {
    BackwardTolerances t;
    t.rtol_adjoint = rtol_l;
    t.rtol_quadrature = rtol_q;
    const double derived_l = positive_tolerance(rtol_l * (seed_scale > 0.0 ? seed_scale : 1.0));
    t.atol_adjoint = options.atol_adjoint > 0.0 ? options.atol_adjoint : derived_l;
    if (np == 0) return t;
    if (!derive_q)
      t.atol_quadrature.assign(np, options.atol_quadrature);
    else
      t.atol_quadrature = quadrature_atol(q_scale, np, rtol_q, t.atol_adjoint,
                                          quadrature_floor(rtol_q, resolution, p, np));
    return t;
  };

  double objective_resolution = 0.0;  // sum over outputs and states of |w| atol
  for (std::size_t i = 0; m > 0 && i < nx; ++i) objective_resolution += seeds[i] * atol_of(atol, i);
  std::vector<BackwardTolerances> out;
  out.push_back(make(max_w, objective.scale(), objective_resolution));
  for (std::size_t i = 0; rows && i < nx; ++i)
    out.push_back(make(1.0, derive_q ? row_problems.scale() + i * np : nullptr, atol_of(atol, i)));
  return out;
}

}  // namespace odesens::cvodes
