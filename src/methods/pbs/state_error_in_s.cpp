#include "methods/pbs/state_error_in_s.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "linalg/dense.hpp"
#include "odesens/status.hpp"
#include "odesens/workspace.hpp"

namespace odesens::pbs {
namespace {

// Dense J_x and an LU per output: O(nx^3) each.
constexpr std::size_t kLimitStates = 1000;
// At most this many flops of LU factorizations (nx^3 / 3 each) per solve:
// outputs beyond it are sampled evenly (a few hundred states and thousands
// of outputs would otherwise cost more than the solve).
constexpr double kFlopBudget = 4e9;
// ... and at most about this many outputs (each costs two Jacobian
// evaluations and an LU: with 601 outputs on CaMKII the check cost as much
// as the outputs themselves). The first output is always checked: S's
// transient, where the states' error tends to be largest, is there.
constexpr std::size_t kMostOutputs = 100;

// scale_ij of state_error_in_s, column-major nx x np.
std::vector<double> row_and_column_scale(const Result& r) {
  const std::size_t nx = r.nx, np = r.np, nm = nx * np;
  std::vector<double> row(nx, 0.0), col(np, 0.0);
  for (std::size_t k = 0; k < r.s_times.size(); ++k)
    for (std::size_t j = 0; j < np; ++j)
      for (std::size_t i = 0; i < nx; ++i) {
        const double v = std::fabs(r.s[k * nm + j * nx + i]);
        row[i] = std::max(row[i], v);
        col[j] = std::max(col[j], v);
      }
  // S's entries that are zero in their row and column are measured against
  // 1e-6 of S's largest.
  const double floor = 1e-6 * *std::max_element(col.begin(), col.end());
  std::vector<double> scale(nm);
  for (std::size_t j = 0; j < np; ++j)
    for (std::size_t i = 0; i < nx; ++i)
      scale[i + j * nx] = std::max({row[i], col[j], floor});
  return scale;
}

// Per output: J_x and J_p at both states, then (I - h J~) dS = h R.
class Estimate {
 public:
  Estimate(const Model& model, std::vector<double> params)
      : model_(model), p_(std::move(params)), ws_(model.make_workspace()) {
    const std::size_t nx = model.nx(), np = model.np();
    j_.resize(nx * nx);
    j_fine_.resize(nx * nx);
    jp_.resize(nx * np);
    rhs_.resize(nx * np);
    pivots_.resize(nx);
  }

  // dS (in rhs_) at time t over the interval h before it, S = s.
  const std::vector<double>& at(double t, double h, const double* x, const double* x_fine,
                                const double* s) {
    const std::size_t nx = model_.nx(), np = model_.np();
    model_.jac_p(t, x_fine, p_.data(), rhs_.data(), ws_.get());
    model_.jac_p(t, x, p_.data(), jp_.data(), ws_.get());
    for (std::size_t q = 0; q < rhs_.size(); ++q) rhs_[q] -= jp_[q];
    model_.jac_x(t, x_fine, p_.data(), j_fine_.data(), ws_.get());
    model_.jac_x(t, x, p_.data(), j_.data(), ws_.get());
    for (std::size_t q = 0; q < j_.size(); ++q) j_[q] = j_fine_[q] - j_[q];
    linalg::gemm(linalg::Trans::no, linalg::Trans::no, nx, np, nx, h, j_.data(), nx, s, nx, h,
                 rhs_.data(), nx);
    for (double& v : j_fine_) v *= -h;
    for (std::size_t i = 0; i < nx; ++i) j_fine_[i + i * nx] += 1.0;
    if (!linalg::lu_factor(nx, j_fine_.data(), pivots_.data()))
      std::fill(rhs_.begin(), rhs_.end(), std::numeric_limits<double>::quiet_NaN());
    else
      linalg::lu_solve(nx, j_fine_.data(), pivots_.data(), np, rhs_.data());
    return rhs_;
  }

 private:
  const Model& model_;
  std::vector<double> p_;
  std::unique_ptr<Workspace> ws_;
  std::vector<double> j_, j_fine_, jp_, rhs_;
  std::vector<int> pivots_;
};

double largest_state_error_in_s(const Problem& problem, const Result& r, const Result& fine) {
  const std::size_t nx = r.nx, np = r.np, nm = nx * np;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t nt = r.times.size();
  if (nx == 0 || np == 0 || nx > kLimitStates || fine.x.size() != r.x.size() ||
      r.s.size() != nt * nm || r.s_times.size() != nt)
    return nan;
  const std::vector<double> scale = row_and_column_scale(r);
  Estimate estimate(*problem.model,
                    problem.params.empty() ? problem.model->nominal_params() : problem.params);
  const double n = static_cast<double>(nx);
  const double per_output = n * n * n / 3.0 + 2.0 * n * n * static_cast<double>(np);
  const std::size_t stride = std::max<std::size_t>(
      {1, static_cast<std::size_t>(std::ceil(static_cast<double>(nt) * per_output / kFlopBudget)),
       (nt + kMostOutputs - 1) / kMostOutputs});
  double worst = 0.0;
  bool first = true;
  for (std::size_t k = 0; k < nt; ++k) {
    const double h = r.times[k] - (k == 0 ? problem.t0 : r.times[k - 1]);
    if (!(h > 0.0)) continue;  // repeated outputs, or outputs at t0
    if (!first && k % stride != 0) continue;
    first = false;
    const std::vector<double>& ds =
        estimate.at(r.times[k], h, &r.x[k * nx], &fine.x[k * nx], &r.s[k * nm]);
    for (std::size_t q = 0; q < nm; ++q) {
      if (!std::isfinite(ds[q])) return nan;
      if (scale[q] > 0.0) worst = std::max(worst, std::fabs(ds[q]) / scale[q]);
    }
  }
  return worst;
}

}  // namespace

double state_error_in_s(const Problem& problem, const Result& r, const Result& fine) {
  try {
    return largest_state_error_in_s(problem, r, fine);
  } catch (const Error&) {
    return std::numeric_limits<double>::quiet_NaN();  // a Jacobian failed: nothing is known
  }
}

}  // namespace odesens::pbs
