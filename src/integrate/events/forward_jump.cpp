#include "integrate/events/forward_jump.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"

namespace odesens::integrate {

ForwardJump::ForwardJump(const EventContext& context) : ctx_(context) {
  if (!ctx_.system) return;
  const std::size_t nx = ctx_.nx, np = ctx_.np, ns = ctx_.ns;
  const std::size_t m = std::max<std::size_t>(ctx_.max_targets, 1);
  dtau_.assign(ns, 0.0);
  T_.assign(nx * ns, 0.0);
  f_plus_.assign(nx, 0.0);
  f_minus_.assign(nx, 0.0);
  x_left_.assign(nx, 0.0);
  g_left_.assign(ctx_.n_roots, 0.0);
  gx_.assign(nx, 0.0);
  gp_.assign(np, 0.0);
  hx_.assign(m * nx, 0.0);
  hp_.assign(m * np, 0.0);
  ht_.assign(m, 0.0);
  D_.assign(m * ns, 0.0);
}

void ForwardJump::start(const double* S) {
  std::fill(dtau_.begin(), dtau_.end(), 0.0);
  if (ctx_.ns > 0) std::copy(S, S + ctx_.nx * ctx_.ns, T_.begin());
}

void ForwardJump::finish_start(double* S) const {
  if (ctx_.ns > 0) std::copy(T_.begin(), T_.end(), S);
}

// f just before the instant. Where a root put it there f may jump, and
// f(t, x) may already be on the new branch (the root is located to within
// rounding, and an integrator's last step may be as short as that). Where
// the model evaluates f on given branches, f is taken at the instant on
// the branches of the sides before it; else (or where that f is not
// finite) at (t - delta, x - delta f(t, x)), for the first of a few
// growing delta where the root function is back on its old side, an error
// O(delta), delta >= 1e-10 |t|.
void ForwardJump::left_rate(double t, const double* x, std::size_t cause, RootSides& roots,
                            EventWarnings& warnings) {
  if (cause == ctx_.n_roots) {
    ctx_.model.rhs(t, x, ctx_.p, f_minus_.data(), ctx_.ws);
    return;
  }
  // f on the branches of before the instant, at the instant itself: exact
  // where the model evaluates f on given branches and f is finite there.
  const std::vector<int>& sides_before = roots.sides_before();
  roots.rhs_on_sides(t, x, sides_before, f_minus_.data());
  bool finite_there = true;
  for (double v : f_minus_) finite_there = finite_there && std::isfinite(v);
  const auto& branches = ctx_.system->branch_roots();
  const bool cause_on_branches =
      !ctx_.system->roots()[cause].switches_rhs ||
      std::find(branches.begin(), branches.end(), cause) != branches.end();
  if (finite_there && !branches.empty() && cause_on_branches) return;
  ctx_.model.rhs(t, x, ctx_.p, f_minus_.data(), ctx_.ws);
  std::copy(f_minus_.begin(), f_minus_.end(), f_plus_.begin());
  const double scale = std::max(std::fabs(t), 1.0);
  for (double delta = 1e-10 * scale; delta <= 1e-3 * scale; delta *= 10.0) {
    const double t_left = t - delta;
    for (std::size_t i = 0; i < ctx_.nx; ++i) x_left_[i] = x[i] - delta * f_plus_[i];
    roots.root_values(t_left, x_left_.data(), g_left_.data());
    const auto c = ctx_.system->roots()[cause].comparison;
    if (EventSystem::holds(c, EventSystem::side_of(g_left_[cause])) !=
        EventSystem::holds(c, sides_before[cause]))
      continue;
    ctx_.model.rhs(t_left, x_left_.data(), ctx_.p, f_minus_.data(), ctx_.ws);
    bool finite = true;
    for (double v : f_minus_) finite = finite && std::isfinite(v);
    if (finite) return;
  }
  ctx_.model.rhs(t, x, ctx_.p, f_minus_.data(), ctx_.ws);
  warnings.warn("at t = " + number_text(t) + " the solution does not reach the " +
                ctx_.system->roots()[cause].text +
                " from its old side along f (it slides along the switch?); the sensitivities "
                "across this instant use f after it");
}

void ForwardJump::instant_time_derivative(double t, const double* x, const double* S,
                                          std::size_t cause, const std::vector<double>* timed_by,
                                          EventWarnings& warnings) {
  std::fill(dtau_.begin(), dtau_.end(), 0.0);
  if (cause == ctx_.n_roots) {
    if (timed_by) dtau_ = *timed_by;
    return;
  }
  double g_t = 0.0;
  ctx_.system->root_gradient(cause, t, x, ctx_.p, &g_t, gx_.data(), gp_.data(), ctx_.ws);
  double rate = g_t;
  for (std::size_t i = 0; i < ctx_.nx; ++i)
    if (gx_[i] != 0.0) rate += gx_[i] * f_minus_[i];
  // dtau/dp_j = -(g_x s_j + g_p_j) / (g_x f- + g_t)
  bool moves = false;
  for (std::size_t j = 0; j < ctx_.ns; ++j) {
    double num = ctx_.along(gp_.data(), 1, j);
    for (std::size_t i = 0; i < ctx_.nx; ++i) num += gx_[i] * S[i + j * ctx_.nx];
    dtau_[j] = num;
    moves = moves || num != 0.0;
  }
  if (!moves) return;  // the instant does not move with p
  if (!(std::fabs(rate) > 0.0) || !std::isfinite(rate)) {
    std::fill(dtau_.begin(), dtau_.end(), 0.0);
    warnings.warn("at t = " + number_text(t) + " the solution touches the " +
                  ctx_.system->roots()[cause].text +
                  " without crossing it (dg/dt = 0): the sensitivities across this instant are "
                  "not defined and were carried as if the instant did not move with p");
    return;
  }
  for (std::size_t j = 0; j < ctx_.ns; ++j) dtau_[j] = -dtau_[j] / rate;
}

void ForwardJump::enter(const double* S) {
  const std::size_t nx = ctx_.nx;
  for (std::size_t j = 0; j < ctx_.ns; ++j)
    for (std::size_t i = 0; i < nx; ++i)
      T_[i + j * nx] = S[i + j * nx] + (dtau_[j] != 0.0 ? f_minus_[i] * dtau_[j] : 0.0);
}

void ForwardJump::shift_T(const double* dT) {
  for (std::size_t k = 0; k < T_.size(); ++k) T_[k] += dT[k];
}

void ForwardJump::execution_time_derivative(std::size_t k, bool delayed, double t, const double* x,
                                            std::vector<double>& dtime) {
  dtime = dtau_;
  if (!delayed) return;
  // dtau_e = dtau + d_t dtau + d_x T + d_p
  double d_t = 0.0;
  ctx_.system->delay_gradient(k, t, x, ctx_.p, &d_t, gx_.data(), gp_.data(), ctx_.ws);
  for (std::size_t j = 0; j < ctx_.ns; ++j) {
    double v = dtau_[j] * (1.0 + d_t) + ctx_.along(gp_.data(), 1, j);
    for (std::size_t i = 0; i < ctx_.nx; ++i) v += gx_[i] * T_[i + j * ctx_.nx];
    dtime[j] = v;
  }
}

const double* ForwardJump::assignment_derivative(std::size_t k, double t, const double* x) {
  const std::size_t m = ctx_.system->events()[k].targets.size(), nx = ctx_.nx;
  ctx_.system->assignment_jacobians(k, t, x, ctx_.p, ht_.data(), hx_.data(), hp_.data(), ctx_.ws);
  for (std::size_t j = 0; j < ctx_.ns; ++j)
    for (std::size_t r = 0; r < m; ++r) {
      double v = ctx_.along(hp_.data() + r, m, j) + ht_[r] * dtau_[j];
      for (std::size_t i = 0; i < nx; ++i) v += hx_[r + i * m] * T_[i + j * nx];
      D_[r + j * m] = v;
    }
  return D_.data();
}

void ForwardJump::assign(std::size_t i, const double* D, std::size_t r, std::size_t m) {
  for (std::size_t j = 0; j < ctx_.ns; ++j) T_[i + j * ctx_.nx] = D[r + j * m];
}

void ForwardJump::carry_sensitivities(double t, const double* x, double* S, RootSides& roots) {
  if (ctx_.ns == 0) return;
  // f+ on the located sides: the state may lag them by rounding
  roots.rhs_on_sides(t, x, roots.sides(), f_plus_.data());
  const std::size_t nx = ctx_.nx;
  for (std::size_t j = 0; j < ctx_.ns; ++j)
    for (std::size_t i = 0; i < nx; ++i)
      S[i + j * nx] = T_[i + j * nx] - (dtau_[j] != 0.0 ? f_plus_[i] * dtau_[j] : 0.0);
}

}  // namespace odesens::integrate
