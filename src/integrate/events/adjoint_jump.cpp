#include "integrate/events/adjoint_jump.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {

AdjointJump::AdjointJump(const EventContext& context) : ctx_(context) {
  if (!ctx_.system) return;
  const std::size_t m = std::max<std::size_t>(ctx_.max_targets, 1);
  gx_.assign(ctx_.nx, 0.0);
  gp_.assign(ctx_.np, 0.0);
  hx_.assign(m * ctx_.nx, 0.0);
  hp_.assign(m * ctx_.np, 0.0);
  ht_.assign(m, 0.0);
}

DelayedAdjoint& AdjointJump::owed_to(std::vector<DelayedAdjoint>& owed, std::size_t order,
                                     std::size_t m) {
  for (DelayedAdjoint& d : owed)
    if (d.order == order) {
      if (d.nu.size() < m) d.nu.resize(m, 0.0);
      return d;
    }
  owed.push_back({order, 0.0, std::vector<double>(m, 0.0)});
  return owed.back();
}

void AdjointJump::jump(const Instant& instant, const double* lambda_plus, double* lambda_minus,
                       double* gradient, double cost_jump, std::vector<DelayedAdjoint>* owed,
                       EventWarnings& warnings) {
  const std::size_t nx = ctx_.nx, E = instant.steps.size();
  const bool delays = instant.timed_by_firing || !instant.fired.empty() ||
                      std::any_of(instant.steps.begin(), instant.steps.end(),
                                  [](const ExecutedStep& s) { return s.delayed; });
  if (delays && !owed)
    throw Error(Status::internal_error, "adjoint_jump across delayed events needs their debts");
  // M[e]: the adjoint of T after e executions (T_0 = S- + f- dtau).
  std::vector<double> M((E + 1) * nx, 0.0);
  std::copy(lambda_plus, lambda_plus + nx, M.begin() + static_cast<std::ptrdiff_t>(E * nx));
  double a = cost_jump;  // the adjoint of dtau, as a factor of dtau/dp
  for (std::size_t i = 0; i < nx; ++i) a -= lambda_plus[i] * instant.f_plus[i];
  for (const Firing& f : instant.fired) pay_debt(f, instant.t, M.data(), a, gradient, *owed);
  for (std::size_t e = E; e >= 1; --e)
    through_execution(instant.steps[e - 1], e, instant.t, M.data(), a, gradient, owed);
  std::copy(M.begin(), M.begin() + static_cast<std::ptrdiff_t>(nx), lambda_minus);
  through_parted(instant, lambda_plus, M.data(), gradient);
  if (instant.cause >= ctx_.n_roots) {
    // A delayed execution time moves with its firing: owed there.
    if (instant.timed_by_firing) {
      for (std::size_t i = 0; i < nx; ++i) a += M[i] * instant.f_minus[i];
      owed_to(*owed, instant.timed_by, 0).a += a;
    }
    return;  // else the instant does not move (t0)
  }
  for (std::size_t i = 0; i < nx; ++i) a += M[i] * instant.f_minus[i];
  through_cause(instant, a, lambda_minus, gradient, warnings);
}

// Events fired here and executed later: what the later instants owe them.
// Their execution time moved by dtau (1 + d_t) + d_x T + d_p, and values
// from the trigger time by h_x T + h_p + h_t dtau, T after `source`
// executions here.
void AdjointJump::pay_debt(const Firing& f, double t, double* M, double& a, double* gradient,
                           std::vector<DelayedAdjoint>& owed) {
  auto it = std::find_if(owed.begin(), owed.end(),
                         [&](const DelayedAdjoint& d) { return d.order == f.order; });
  if (it == owed.end()) return;  // never executed (cancelled, or after the end)
  const std::size_t nx = ctx_.nx, np = ctx_.np;
  double* Msrc = M + f.source * nx;
  if (it->a != 0.0) {
    double d_t = 0.0;
    ctx_.system->delay_gradient(f.event, t, f.x_fired.data(), ctx_.p, &d_t, gx_.data(),
                                gp_.data(), ctx_.ws);
    for (std::size_t i = 0; i < nx; ++i) Msrc[i] += it->a * gx_[i];
    for (std::size_t j = 0; j < np; ++j) gradient[j] += it->a * gp_[j];
    a += it->a * (1.0 + d_t);
  }
  const std::size_t m = ctx_.system->events()[f.event].targets.size();
  if (m > 0 && std::any_of(it->nu.begin(), it->nu.end(), [](double v) { return v != 0.0; })) {
    ctx_.system->assignment_jacobians(f.event, t, f.x_fired.data(), ctx_.p, ht_.data(),
                                      hx_.data(), hp_.data(), ctx_.ws);
    for (std::size_t r = 0; r < m; ++r) {
      for (std::size_t i = 0; i < nx; ++i) Msrc[i] += hx_[r + i * m] * it->nu[r];
      for (std::size_t j = 0; j < np; ++j) gradient[j] += hp_[r + j * m] * it->nu[r];
      a += ht_[r] * it->nu[r];
    }
  }
  owed.erase(it);
}

// M_{e-1} += M_e off the assigned rows; the assignment's values, read from
// T after `source` executions, add h_x^T nu there (nu: M_e on the assigned
// rows), h_p^T nu to the gradient and h_t^T nu to a, or are owed to the
// firing where they were computed at an earlier instant.
void AdjointJump::through_execution(const ExecutedStep& step, std::size_t e, double t,
                                    double* M, double& a, double* gradient,
                                    std::vector<DelayedAdjoint>* owed) {
  const std::size_t nx = ctx_.nx, np = ctx_.np;
  const auto& targets = ctx_.system->events()[step.event].targets;
  const std::size_t m = targets.size();
  double* Me = M + e * nx;
  double* Mprev = M + (e - 1) * nx;
  double* Msrc = M + step.source * nx;
  std::vector<double> nu(m);
  for (std::size_t r = 0; r < m; ++r) nu[r] = Me[targets[r]];
  std::vector<char> assigned(nx, 0);
  for (std::size_t r = 0; r < m; ++r) assigned[targets[r]] = 1;
  for (std::size_t i = 0; i < nx; ++i)
    if (!assigned[i]) Mprev[i] += Me[i];
  if (m == 0) return;
  if (step.delayed && step.values_fired) {  // values of an earlier instant: owed there
    DelayedAdjoint& d = owed_to(*owed, step.order, m);
    for (std::size_t r = 0; r < m; ++r) d.nu[r] += nu[r];
    return;
  }
  ctx_.system->assignment_jacobians(step.event, t, step.x_eval.data(), ctx_.p, ht_.data(),
                                    hx_.data(), hp_.data(), ctx_.ws);
  for (std::size_t r = 0; r < m; ++r) {
    for (std::size_t i = 0; i < nx; ++i) Msrc[i] += hx_[r + i * m] * nu[r];
    for (std::size_t j = 0; j < np; ++j) gradient[j] += hp_[r + j * m] * nu[r];
    a += ht_[r] * nu[r];
  }
}

// Switches that part from the cause (coincident_switches.hpp) add dT to
// T_0 and dS to S+, terms that do not depend on S-.
void AdjointJump::through_parted(const Instant& instant, const double* lambda_plus,
                                 const double* M0, double* gradient) {
  const std::size_t nx = ctx_.nx;
  for (std::size_t j = 0; j < ctx_.np && !instant.parted_dT.empty(); ++j)
    for (std::size_t i = 0; i < nx; ++i)
      gradient[j] += M0[i] * instant.parted_dT[i + j * nx] +
                     lambda_plus[i] * instant.parted_dS[i + j * nx];
}

void AdjointJump::through_cause(const Instant& instant, double a, double* lambda_minus,
                                double* gradient, EventWarnings& warnings) {
  const double t = instant.t;
  double g_t = 0.0;
  ctx_.system->root_gradient(instant.cause, t, instant.x_minus.data(), ctx_.p, &g_t, gx_.data(),
                             gp_.data(), ctx_.ws);
  // A root of t alone (g_x = g_p = 0) does not move with p, whatever its
  // rate (forward_jump.cpp: dtau/dp = 0 there, without a word); its rate
  // may be infinite, at the edge of `sqrt(c - t) < 2`'s domain.
  const auto zero = [](double v) { return v == 0.0; };
  if (std::all_of(gx_.begin(), gx_.begin() + static_cast<std::ptrdiff_t>(ctx_.nx), zero) &&
      std::all_of(gp_.begin(), gp_.begin() + static_cast<std::ptrdiff_t>(ctx_.np), zero))
    return;
  double rate = g_t;
  for (std::size_t i = 0; i < ctx_.nx; ++i)
    if (gx_[i] != 0.0) rate += gx_[i] * instant.f_minus[i];
  if (!(std::fabs(rate) > 0.0) || !std::isfinite(rate)) {
    warnings.warn("at t = " + number_text(t) + " the solution touches the " +
                  ctx_.system->roots()[instant.cause].text +
                  " without crossing it (dg/dt = 0): the gradient across this instant is not "
                  "defined and was carried as if the instant did not move with p");
    return;
  }
  const double c = a / rate;  // dtau/dp = -(g_x S- + g_p) / rate
  for (std::size_t i = 0; i < ctx_.nx; ++i) lambda_minus[i] -= c * gx_[i];
  for (std::size_t j = 0; j < ctx_.np; ++j) gradient[j] -= c * gp_[j];
}

}  // namespace odesens::integrate
