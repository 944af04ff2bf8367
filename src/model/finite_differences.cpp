#include "model/finite_differences.hpp"

#include <algorithm>
#include <cmath>
#include <limits>


namespace odesens {

double finite_difference_step(double v) {
  static const double cbrt_eps = std::cbrt(std::numeric_limits<double>::epsilon());
  return cbrt_eps * std::max(std::fabs(v), 1.0);
}

namespace detail {

namespace {

// Central difference of g along one coordinate of `arg` (which is restored):
// out = (g(arg + h e) - g(arg - h e)) / (2h) with the representable step h.
template <typename Eval>
void central_difference(double* arg, std::size_t index, std::size_t out_size, double* plus,
                        double* minus, double* out, Eval&& g) {
  const double v = arg[index];
  const double h_nominal = finite_difference_step(v);
  arg[index] = v + h_nominal;
  const double up = arg[index];
  g(arg, plus);
  arg[index] = v - h_nominal;
  const double down = arg[index];
  g(arg, minus);
  arg[index] = v;
  const double inv = 1.0 / (up - down);
  for (std::size_t i = 0; i < out_size; ++i) out[i] = (plus[i] - minus[i]) * inv;
}

}  // namespace

void fd_jac_x_dense(const Model& m, double t, const double* x, const double* p, double* J,
                    Workspace& ws) {
  const std::size_t n = m.nx();
  double* xs = ws.scratch(Workspace::Scratch::fd_shift, n);
  double* plus = ws.scratch(Workspace::Scratch::fd_plus, n);
  double* minus = ws.scratch(Workspace::Scratch::fd_minus, n);
  std::copy(x, x + n, xs);
  for (std::size_t j = 0; j < n; ++j)
    central_difference(xs, j, n, plus, minus, J + j * n,
                       [&](const double* xv, double* f) { m.rhs(t, xv, p, f, &ws); });
}

std::vector<std::vector<std::size_t>> group_structurally_orthogonal_columns(
    const SparsityPattern& pattern) {
  std::vector<std::vector<std::size_t>> groups;
  // row_owner[g][i]: whether group g already touches row i.
  std::vector<std::vector<bool>> touched;
  for (std::size_t j = 0; j < pattern.cols; ++j) {
    std::size_t g = 0;
    for (; g < groups.size(); ++g) {
      bool clash = false;
      for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1] && !clash; ++q)
        clash = touched[g][pattern.row_idx[q]];
      if (!clash) break;
    }
    if (g == groups.size()) {
      groups.emplace_back();
      touched.emplace_back(pattern.rows, false);
    }
    groups[g].push_back(j);
    for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q)
      touched[g][pattern.row_idx[q]] = true;
  }
  return groups;
}

void fd_jac_x_grouped(const Model& m, const SparsityPattern& pattern,
                      const std::vector<std::vector<std::size_t>>& groups, double t,
                      const double* x, const double* p, double* values, Workspace& ws) {
  const std::size_t n = m.nx();
  double* xs = ws.scratch(Workspace::Scratch::fd_shift, n);
  double* plus = ws.scratch(Workspace::Scratch::fd_plus, n);
  double* minus = ws.scratch(Workspace::Scratch::fd_minus, n);
  std::copy(x, x + n, xs);
  for (const auto& group : groups) {
    for (std::size_t j : group) xs[j] = x[j] + finite_difference_step(x[j]);
    m.rhs(t, xs, p, plus, &ws);
    for (std::size_t j : group) xs[j] = x[j] - finite_difference_step(x[j]);
    m.rhs(t, xs, p, minus, &ws);
    for (std::size_t j : group) {
      const double up = x[j] + finite_difference_step(x[j]);
      const double down = x[j] - finite_difference_step(x[j]);
      const double inv = 1.0 / (up - down);
      for (auto q = pattern.col_ptr[j]; q < pattern.col_ptr[j + 1]; ++q) {
        const auto i = pattern.row_idx[q];
        values[q] = (plus[i] - minus[i]) * inv;
      }
      xs[j] = x[j];
    }
  }
}

void fd_jac_p(const Model& m, double t, const double* x, const double* p, double* Jp,
              Workspace& ws) {
  const std::size_t n = m.nx(), np = m.np();
  double* ps = ws.scratch(Workspace::Scratch::fd_shift, np);
  double* plus = ws.scratch(Workspace::Scratch::fd_plus, n);
  double* minus = ws.scratch(Workspace::Scratch::fd_minus, n);
  std::copy(p, p + np, ps);
  for (std::size_t j = 0; j < np; ++j)
    central_difference(ps, j, n, plus, minus, Jp + j * n,
                       [&](const double* pv, double* f) { m.rhs(t, x, pv, f, &ws); });
}

void fd_dfdt(const Model& m, double t, const double* x, const double* p, double* out,
             Workspace& ws) {
  const std::size_t n = m.nx();
  double* plus = ws.scratch(Workspace::Scratch::fd_plus, n);
  double* minus = ws.scratch(Workspace::Scratch::fd_minus, n);
  double ts = t;
  central_difference(&ts, 0, n, plus, minus, out,
                     [&](const double* tv, double* f) { m.rhs(*tv, x, p, f, &ws); });
}

void fd_initial_sensitivity(const Model& m, const double* p, double* dx0_dp, Workspace& ws) {
  const std::size_t n = m.nx(), np = m.np();
  double* ps = ws.scratch(Workspace::Scratch::fd_shift, np);
  double* plus = ws.scratch(Workspace::Scratch::fd_plus, n);
  double* minus = ws.scratch(Workspace::Scratch::fd_minus, n);
  std::copy(p, p + np, ps);
  for (std::size_t j = 0; j < np; ++j)
    central_difference(ps, j, n, plus, minus, dx0_dp + j * n,
                       [&](const double* pv, double* x0) { m.initial_state(pv, x0, &ws); });
}

}  // namespace detail
}  // namespace odesens
