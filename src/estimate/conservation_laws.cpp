#include "estimate/conservation_laws.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "linalg/dense.hpp"

namespace odesens::estimate {
namespace {

constexpr double null_singular_ratio = 1e-10;
constexpr double law_check_ratio = 1e-8;
constexpr double rounding_ratio = 1e-13;

// Points near x0 (every state moved, none at 0: a zero state can make J_x
// singular by itself), from a fixed seed so that the laws found are the
// same at every call.
std::vector<std::vector<double>> trial_points(std::size_t nx, const double* x0) {
  double largest = 0.0;
  for (std::size_t i = 0; i < nx; ++i) largest = std::max(largest, std::fabs(x0[i]));
  const double shift = largest > 0.0 ? 0.1 * largest : 0.1;
  std::mt19937_64 random(20261202);
  std::uniform_real_distribution<double> u(0.5, 1.5);
  std::vector<std::vector<double>> points(3, std::vector<double>(nx));
  for (auto& x : points)
    for (std::size_t i = 0; i < nx; ++i) x[i] = (std::fabs(x0[i]) + shift * u(random)) * u(random);
  return points;
}

bool all_finite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double a) { return std::isfinite(a); });
}

// The left null space of [J_x(a) J_x(b) J_p(a)] (nx x (2 nx + np)), its
// rows scaled to their largest magnitude: laws as rows of w (row-major).
std::vector<double> left_null_space(const Model& model, double t, const double* p,
                                    const std::vector<double>& a, const std::vector<double>& b,
                                    Workspace* ws) {
  const std::size_t nx = model.nx(), np = model.np(), cols = 2 * nx + np;
  std::vector<double> m(nx * cols);
  model.jac_x(t, a.data(), p, m.data(), ws);
  model.jac_x(t, b.data(), p, m.data() + nx * nx, ws);
  if (np > 0) model.jac_p(t, a.data(), p, m.data() + 2 * nx * nx, ws);
  if (!all_finite(m)) return {};
  std::vector<double> scale(nx, 1.0);
  for (std::size_t i = 0; i < nx; ++i) {
    double largest = 0.0;
    for (std::size_t j = 0; j < cols; ++j) largest = std::max(largest, std::fabs(m[i + j * nx]));
    if (largest > 0.0) scale[i] = 1.0 / largest;
    for (std::size_t j = 0; j < cols; ++j) m[i + j * nx] *= scale[i];
  }
  std::vector<double> s(std::min(nx, cols)), u(nx * nx);
  if (!linalg::left_singular_vectors(nx, cols, m.data(), s.data(), u.data())) return {};
  std::vector<double> w;
  for (std::size_t k = 0; k < nx; ++k) {
    if (k < s.size() && s[k] > null_singular_ratio * s[0]) continue;
    // u_k^T (D M) = 0, so (D u_k)^T M = 0: the law in the model's states.
    for (std::size_t i = 0; i < nx; ++i) w.push_back(scale[i] * u[i + k * nx]);
  }
  return w;
}

// Each law annihilates J_x, J_p and f at x: every column's sum to
// law_check_ratio of its terms' magnitudes, above the rounding of the rows
// it sums (an entry of 1e-22 beside entries of 1 in its row is rounding,
// not a rate: Brannmark_JBC2010). f's rounding: that of J_x x, its terms'
// size. J_p too: where w^T J_p is not 0 (a law only at this p, say an
// inflow whose rate is 0 here), w^T S does not keep w^T S0.
bool laws_hold(const Model& model, double t, const double* p, const std::vector<double>& x,
               const std::vector<double>& w, Workspace* ws) {
  const std::size_t nx = model.nx(), np = model.np();
  // Columns: J_x's nx, J_p's np, then f; each row's size in J_x, in J_p, in f.
  std::vector<double> columns(nx * (nx + np + 1));
  std::vector<double> sizes(3 * nx, 0.0);
  model.jac_x(t, x.data(), p, columns.data(), ws);
  if (np > 0) model.jac_p(t, x.data(), p, columns.data() + nx * nx, ws);
  model.rhs(t, x.data(), p, columns.data() + nx * (nx + np), ws);
  if (!all_finite(columns)) return false;
  for (std::size_t j = 0; j < nx + np; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      const double v = std::fabs(columns[i + j * nx]);
      double& size = sizes[i + (j < nx ? 0 : nx)];
      size = std::max(size, v);
      if (j < nx) sizes[i + 2 * nx] += v * std::fabs(x[j]);
    }
  const std::size_t count = w.size() / nx;
  for (std::size_t l = 0; l < count; ++l) {
    const double* wl = w.data() + l * nx;
    for (std::size_t j = 0; j <= nx + np; ++j) {
      const double* column = columns.data() + j * nx;
      const double* size = sizes.data() + (j < nx ? 0 : j < nx + np ? nx : 2 * nx);
      double sum = 0.0, magnitude = 0.0, rounding = 0.0;
      for (std::size_t i = 0; i < nx; ++i) {
        sum += wl[i] * column[i];
        magnitude += std::fabs(wl[i] * column[i]);
        rounding += std::fabs(wl[i]) * std::max(size[i], std::fabs(column[i]));
      }
      if (std::fabs(sum) > law_check_ratio * magnitude + rounding_ratio * rounding) return false;
    }
  }
  return true;
}

// Each law scaled to a largest entry of 1 (the row scaling can make them
// large or small).
void normalize(std::size_t nx, std::vector<double>& w) {
  for (std::size_t l = 0; l < w.size() / nx; ++l) {
    double largest = 0.0;
    for (std::size_t i = 0; i < nx; ++i) largest = std::max(largest, std::fabs(w[l * nx + i]));
    if (largest > 0.0)
      for (std::size_t i = 0; i < nx; ++i) w[l * nx + i] /= largest;
  }
}

// The states whose rows the laws replace: W's most independent columns
// (QR with column pivoting), so that W restricted to them is regular.
std::vector<std::size_t> replaced_rows(std::size_t nx, const std::vector<double>& w) {
  const std::size_t count = w.size() / nx;
  std::vector<double> a(count * nx);  // W column-major (count x nx)
  for (std::size_t l = 0; l < count; ++l)
    for (std::size_t i = 0; i < nx; ++i) a[l + i * count] = w[l * nx + i];
  std::vector<int> order(nx);
  linalg::pivoted_columns(count, nx, a.data(), order.data());
  std::vector<std::size_t> rows;
  for (std::size_t l = 0; l < count; ++l) rows.push_back(static_cast<std::size_t>(order[l]));
  return rows;
}

}  // namespace

std::vector<double> ConservationLaws::times(std::size_t ncols, const double* m) const {
  std::vector<double> out(count() * ncols, 0.0);
  for (std::size_t c = 0; c < ncols; ++c)
    for (std::size_t l = 0; l < count(); ++l)
      for (std::size_t i = 0; i < nx; ++i) out[l + c * count()] += w[l * nx + i] * m[i + c * nx];
  return out;
}

void ConservationLaws::set_rows(std::size_t ncols, const double* values, double* b) const {
  for (std::size_t c = 0; c < ncols; ++c)
    for (std::size_t l = 0; l < count(); ++l)
      b[rows[l] + c * nx] = values ? values[l + c * count()] : 0.0;
}

std::string ConservationLaws::describe() const {
  return std::to_string(count()) + (count() == 1 ? " conservation law" : " conservation laws");
}

ConservationLaws find_conservation_laws(const Model& model, double t, const double* x0,
                                        const double* p, bool reads_time, Workspace* ws) {
  ConservationLaws laws;
  const std::size_t nx = model.nx();
  if (nx == 0 || nx > max_conservation_states) return laws;
  const auto points = trial_points(nx, x0);
  std::vector<double> w = left_null_space(model, t, p, points[0], points[1], ws);
  const std::size_t count = w.size() / nx;
  if (count == 0 || count >= nx || !all_finite(w)) return laws;
  normalize(nx, w);
  // Where f or J_p reads t at p, the laws must hold at later times too (an
  // input switched on later could feed a conserved total).
  const int decades = reads_time ? 9 : -1;
  for (int k = -1; k <= decades; ++k)
    if (!laws_hold(model, k < 0 ? t : t + std::pow(10.0, k), p, points[2], w, ws)) return laws;
  laws.nx = nx;
  laws.rows = replaced_rows(nx, w);
  laws.w = std::move(w);
  return laws;
}

}  // namespace odesens::estimate
