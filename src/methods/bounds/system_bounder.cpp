#include "methods/bounds/system_bounder.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "odesens/status.hpp"

namespace odesens::bounds {
namespace {

Interval symmetric(double radius) { return Interval(-radius, radius); }

// sqrt(v) rounded up (v >= 0; a slightly negative diagonal from the
// integrator counts as 0).
double sqrt_up(double v) {
  if (!(v > 0.0)) return 0.0;
  return boost::numeric::sqrt(Interval(v, v)).upper();
}

}  // namespace

SystemBounder::SystemBounder(const SystemFunctions& tapes, const SystemBounder* driver,
                             const PolyArithmetic& arith, const PolyArithmetic& jac_arith,
                             const BoundsSettings& settings, const ParameterModels& params,
                             StateJacobian* jacobian)
    : driver_(driver),
      transposed_jacobian_(tapes.transposed_jacobian),
      arith_(&arith),
      jac_arith_(&jac_arith),
      settings_(settings),
      quadrature_(tapes.quadrature),
      own_offset_(driver ? driver->layout().n : 0),
      jacobian_(jacobian) {
  const std::size_t n = tapes.quadrature->size();
  // The disturbance's matrices (C_w, Q_w) are sized n x n: a driven system
  // has as many components as the state that drives it (S_j, lambda: nx).
  if (driver && driver->layout().n != n)
    throw Error(Status::internal_error, "a bounding system of " + std::to_string(n) +
                                            " components driven by one of " +
                                            std::to_string(driver->layout().n));
  layout_.n = n;
  layout_.n_mon = arith.n_monomials();
  layout_.ellipsoid = settings.remainder == RemainderKind::ellipsoid;

  full_ = prepare(*tapes.rhs, params.order_q);
  if (!layout_.ellipsoid) {
    for (const Function& f : *tapes.rhs_each) each_.push_back(prepare(f, params.order_q));
  } else if (driver) {
    hessian_ = tapes.hessian;
    mixed_ = tapes.mixed;
    parameter_ = tapes.parameter;
    dist_.assign(n * n, jac_arith.make());
    dist_term_ = jac_arith.make();
  }
  own_.assign(n, arith.make());
  state_models_.assign(n, arith.make());
  own_jac_.assign(n, jac_arith.make());
  poly_only_ = arith.make();
  C_.assign(n * n, 0.0);
  Cw_.assign(n * n, 0.0);
  omega_.assign(n, Interval(0.0, 0.0));
  Q_.assign(n * n, 0.0);
  Qw_.assign(n * n, 0.0);
  AQ_.assign(n * n, 0.0);
  BBt_.assign(n * n, 0.0);
  CwQw_.assign(n * n, 0.0);
  scale_.assign(n, 0.0);
}

SystemBounder::Run SystemBounder::prepare(const Function& f,
                                          const std::vector<PolyModel>& params) const {
  Run run;
  run.eval = std::make_unique<PolyEvaluation>(f, *arith_);
  run.out.assign(f.n_outputs(), arith_->make());
  run.eval->set_params(params);
  run.eval->evaluate_parameter_part(run.out.data());
  return run;
}

void SystemBounder::evaluate(Run& run, double t, const std::vector<PolyModel>& own,
                             const std::vector<PolyModel>* state) const {
  run.eval->set_time(t);
  for (std::size_t k = 0; k < own.size(); ++k) run.eval->set_input(own_offset_ + k, own[k]);
  if (state)
    for (std::size_t k = 0; k < state->size(); ++k) run.eval->set_input(k, (*state)[k]);
  run.eval->evaluate(run.out.data());
}

Interval SystemBounder::remainder_hull(const double* y, std::size_t i) const {
  if (layout_.ellipsoid && !is_quadrature(i)) return symmetric(sqrt_up(y[layout_.shape(i, i)]));
  // The exact bounds never cross; integrated ones that do (both near 0, a
  // corrector iterate) are read as the interval between them.
  const double lo = y[layout_.lower(i)], hi = y[layout_.upper(i)];
  return lo <= hi ? Interval(lo, hi) : Interval(hi, lo);
}

void SystemBounder::models(const double* y, std::vector<PolyModel>& out) const {
  for (std::size_t i = 0; i < layout_.n; ++i) {
    std::copy(y + layout_.coef(i), y + layout_.coef(i) + layout_.n_mon, out[i].coef.begin());
    out[i].rem = remainder_hull(y, i);
  }
}

void SystemBounder::models_outside_ellipsoid(const double* y, std::vector<PolyModel>& out) const {
  models(y, out);
  if (!layout_.ellipsoid) return;
  for (std::size_t i = 0; i < layout_.n; ++i)
    if (!is_quadrature(i)) out[i].rem = Interval(0.0, 0.0);
}

void SystemBounder::initial(const std::vector<PolyModel>& init, double* y) const {
  std::fill(y, y + layout_.size(), 0.0);
  double total_radius = 0.0;
  std::vector<double> radius(layout_.n, 0.0);
  for (std::size_t i = 0; i < layout_.n; ++i) {
    std::copy(init[i].coef.begin(), init[i].coef.end(), y + layout_.coef(i));
    if (!layout_.ellipsoid || is_quadrature(i)) {
      y[layout_.lower(i)] = init[i].rem.lower();
      y[layout_.upper(i)] = init[i].rem.upper();
      continue;
    }
    // The ellipsoid is centred: the remainder's midpoint moves into the
    // constant coefficient (the realised shift, in intervals).
    const double c0 = init[i].coef[0];
    const double shifted = c0 + boost::numeric::median(init[i].rem);
    y[layout_.coef(i)] = shifted;
    const Interval rest = init[i].rem - (Interval(shifted, shifted) - Interval(c0, c0));
    radius[i] = magnitude(rest);
    total_radius += radius[i];
  }
  if (!layout_.ellipsoid) return;
  // (46) with gamma_0 = rad / (sum rad + eps): Q_ii = rad_i (sum rad + eps).
  for (std::size_t i = 0; i < layout_.n; ++i)
    if (!is_quadrature(i)) y[layout_.shape(i, i)] = radius[i] * (total_radius + settings_.ellipsoid_eps);
}

void SystemBounder::add_jump(double* y, const std::vector<PolyModel>& jump, const double* driver_y,
                             const std::vector<double>& gain) const {
  const std::size_t n = layout_.n;
  std::vector<PolyModel> sum(n, arith_->make());
  models_outside_ellipsoid(y, sum);
  std::vector<Interval> omega(n, Interval(0.0, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    arith_->add(sum[i], jump[i], sum[i]);
    std::copy(sum[i].coef.begin(), sum[i].coef.end(), y + layout_.coef(i));
    Interval rem = sum[i].rem;
    const bool driven = !gain.empty() && gain[i] != 0.0 && driver_->layout().ellipsoid &&
                        !driver_->is_quadrature(i);
    if (!layout_.ellipsoid || is_quadrature(i)) {
      // (35)-(36): interval remainders take the jump's whole range.
      if (driven) rem += Interval(gain[i], gain[i]) * driver_->remainder_hull(driver_y, i);
      y[layout_.lower(i)] = rem.lower();
      y[layout_.upper(i)] = rem.upper();
      continue;
    }
    // Centred as in initial(): the midpoint joins the constant coefficient.
    const double c0 = sum[i].coef[0];
    const double shifted = c0 + boost::numeric::median(rem);
    y[layout_.coef(i)] = shifted;
    omega[i] = rem - (Interval(shifted, shifted) - Interval(c0, c0));
  }
  if (!layout_.ellipsoid) return;
  // (47) with A = I: Q+ = Q / alpha + B Q_w B^T / beta + diag(rad(Omega)^2 / gamma),
  // B = diag(gain) on the driver's ellipsoid. The weights that minimise the
  // trace of Q+ (alpha + beta + sum gamma = 1) are proportional to the
  // square roots of the terms' traces; Q+ = S * sum_m M_m / sqrt(tr M_m),
  // S = sum_m sqrt(tr M_m).
  auto own = [&](std::size_t i, std::size_t k) {
    return is_quadrature(i) || is_quadrature(k) ? 0.0 : y[layout_.shape(std::max(i, k), std::min(i, k))];
  };
  auto driven = [&](std::size_t i, std::size_t k) {
    if (gain.empty() || !driver_->layout().ellipsoid) return 0.0;
    if (driver_->is_quadrature(i) || driver_->is_quadrature(k)) return 0.0;
    if (is_quadrature(i) || is_quadrature(k)) return 0.0;
    const SystemLayout& d = driver_->layout();
    return gain[i] * gain[k] * driver_y[d.shape(std::max(i, k), std::min(i, k))];
  };
  double tr_own = 0.0, tr_driven = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    tr_own += std::max(own(i, i), 0.0);
    tr_driven += std::max(driven(i, i), 0.0);
  }
  const double root_own = std::sqrt(tr_own), root_driven = std::sqrt(tr_driven);
  double total = root_own + root_driven;
  for (std::size_t i = 0; i < n; ++i) total += magnitude(omega[i]);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = k; i < n; ++i) {
      if (is_quadrature(i) || is_quadrature(k)) continue;
      double v = 0.0;
      if (root_own > 0.0) v += own(i, k) / root_own;
      if (root_driven > 0.0) v += driven(i, k) / root_driven;
      if (i == k) v += magnitude(omega[i]);  // rad^2 / sqrt(rad^2)
      y[layout_.shape(i, k)] = total * v;
    }
}

void SystemBounder::rhs(double t, const double* y, const double* state, double* ydot) {
  std::fill(ydot, ydot + layout_.size(), 0.0);
  if (layout_.ellipsoid)
    rhs_ellipsoid(t, y, state, ydot);
  else
    rhs_interval(t, y, state, ydot);
}

void SystemBounder::rhs_interval(double t, const double* y, const double* state, double* ydot) {
  models(y, own_);
  const std::vector<PolyModel>* x = nullptr;
  if (state) {
    driver_->models(state, state_models_);
    x = &state_models_;
  }
  evaluate(full_, t, own_, x);
  for (std::size_t i = 0; i < layout_.n; ++i) {
    const PolyModel& F = full_.out[i];
    std::copy(F.coef.begin(), F.coef.end(), ydot + layout_.coef(i));
    if (is_quadrature(i)) {  // (51)-(52): nothing reads r_i
      ydot[layout_.lower(i)] = F.rem.lower();
      ydot[layout_.upper(i)] = F.rem.upper();
      continue;
    }
    arith_->assign(poly_only_, F);
    poly_only_.rem = Interval(0.0, 0.0);
    // (31)-(32): r_i held at each of its bounds, the others over theirs.
    const Interval full_remainder = own_[i].rem;
    for (int side = 0; side < 2; ++side) {
      const double r = side == 0 ? full_remainder.lower() : full_remainder.upper();
      own_[i].rem = Interval(r, r);
      Run& run = each_[i];
      evaluate(run, t, own_, x);
      PolyModel& G = run.out[0];
      arith_->sub(G, poly_only_, G);
      const Interval slope = arith_->bound(G);
      if (side == 0)
        ydot[layout_.lower(i)] = slope.lower();
      else
        ydot[layout_.upper(i)] = slope.upper();
    }
    own_[i].rem = full_remainder;
  }
}

void SystemBounder::rhs_ellipsoid(double t, const double* y, const double* state, double* ydot) {
  // (56): the model of phi at the polynomial parts alone.
  models(y, own_);
  for (auto& m : own_) m.rem = Interval(0.0, 0.0);
  const std::vector<PolyModel>* x = nullptr;
  if (state) {
    driver_->models(state, state_models_);
    for (auto& m : state_models_) m.rem = Interval(0.0, 0.0);
    x = &state_models_;
  }
  evaluate(full_, t, own_, x);
  jacobian_bounds(t, y, state);
  for (std::size_t i = 0; i < layout_.n; ++i) {
    const PolyModel& F = full_.out[i];
    std::copy(F.coef.begin(), F.coef.end(), ydot + layout_.coef(i));
    if (is_quadrature(i)) {
      ydot[layout_.lower(i)] = omega_[i].lower();
      ydot[layout_.upper(i)] = omega_[i].upper();
      continue;
    }
    // The drift mid(Omega) joins the constant coefficient so that the
    // ellipsoid, centred at 0, bounds Omega - drift (the realised drift,
    // in intervals).
    const double c0 = F.coef[0];
    const double shifted = c0 + boost::numeric::median(omega_[i]);
    ydot[layout_.coef(i)] = shifted;
    omega_[i] = omega_[i] - (Interval(shifted, shifted) - Interval(c0, c0));
  }
  shape_derivative(y, state, ydot);
}

void SystemBounder::jacobian_bounds(double t, const double* y, const double* state) {
  const std::size_t n = layout_.n;
  const bool sens = state != nullptr;
  // Models of order q' with the remainders' hulls (section 4.2 (ii)); J =
  // d phi / d(own) is J_x (its transpose for the adjoint) at the state's
  // models (own for the state system).
  const SystemBounder& state_reader = sens ? *driver_ : *this;
  jacobian_->update(t, sens ? state : y, state_reader.layout().size(), state_reader);
  const std::vector<PolyModel>& J = jacobian_->jacobian();
  const std::size_t nx = state_reader.layout().n;
  if (sens) {
    models(y, own_);
    for (std::size_t i = 0; i < n; ++i) jac_arith_->reduce_from(*arith_, own_[i], own_jac_[i]);
    disturbance_jacobian();
  }
  const std::vector<PolyModel>& dist = dist_;
  for (std::size_t i = 0; i < n; ++i) {
    const bool quad = is_quadrature(i);
    Interval omega = full_.out[i].rem;  // R0
    for (std::size_t k = 0; k < n; ++k) {
      const PolyModel& Jik = transposed_jacobian_ ? J[k + i * n] : J[i + k * n];
      const double c = Jik.coef[0];
      C_[i + k * n] = quad ? 0.0 : c;
      if (is_quadrature(k)) continue;  // nothing reads it: J is 0
      const Interval range = jac_arith_->bound(Jik);
      const Interval slope = quad ? range : range - Interval(c, c);
      omega += slope * remainder_hull(y, k);
    }
    if (!sens) {
      omega_[i] = omega;
      continue;
    }
    for (std::size_t l = 0; l < nx; ++l) {
      const PolyModel& Jw = dist[i + l * n];
      const double c = Jw.coef[0];
      Cw_[i + l * n] = quad ? 0.0 : c;
      if (driver_->is_quadrature(l)) continue;
      const Interval range = jac_arith_->bound(Jw);
      const Interval slope = quad ? range : range - Interval(c, c);
      omega += slope * driver_->remainder_hull(state, l);
    }
    omega_[i] = omega;
  }
}

void SystemBounder::disturbance_jacobian() {
  // From the state's second derivative models, computed once per (t, x)
  // for every system and call at that point (Newton's iterations, the
  // quadratures, the other parameters), times the own models of order q':
  //   adjoint       d psi_i / dx_l = sum_k H[k, i, l] lambda_k,
  //   sensitivity   d phi_k / dx_l = sum_i H[k, i, l] s_i + M[k, j, l],
  // H symmetric in (i, l), each pair stored once.
  const std::size_t n = layout_.n;
  for (auto& m : dist_) jac_arith_->set_constant(m, 0.0);
  const std::vector<PolyModel>& H = jacobian_->hessian();
  auto add_to = [&](std::size_t row, std::size_t col, const PolyModel& v) {
    jac_arith_->add(dist_[row + col * n], v, dist_[row + col * n]);
  };
  for (std::size_t e = 0; e < hessian_->size(); ++e) {
    const HessianEntry& h = (*hessian_)[e];
    if (transposed_jacobian_) {
      jac_arith_->mul(H[e], own_jac_[h.k], dist_term_);
      add_to(h.i, h.l, dist_term_);
      if (h.i != h.l) add_to(h.l, h.i, dist_term_);
    } else {
      jac_arith_->mul(H[e], own_jac_[h.i], dist_term_);
      add_to(h.k, h.l, dist_term_);
      if (h.i != h.l) {
        jac_arith_->mul(H[e], own_jac_[h.l], dist_term_);
        add_to(h.k, h.i, dist_term_);
      }
    }
  }
  if (!mixed_) return;
  for (std::size_t e = 0; e < mixed_->size(); ++e) {
    const HessianEntry& m = (*mixed_)[e];
    if (m.i == parameter_) add_to(m.k, m.l, H[hessian_->size() + e]);
  }
}

namespace {

// Q as a symmetric matrix, projected onto what a positive semidefinite
// matrix can be (Q_ii >= 0, |Q_ik| <= sqrt(Q_ii Q_kk)): the exact bounding
// ODE keeps Q there, where the projection changes nothing, but the
// integrator's iterates can leave it, and the growth term Q (nu + sum
// kappa) with the large kappa of a small trace would then drive a negative
// diagonal to -infinity.
void unpack_shape(const SystemBounder& owner, const double* v, std::vector<double>& M) {
  const std::size_t n = owner.layout().n;
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = k; i < n; ++i) {
      const bool used = !owner.is_quadrature(i) && !owner.is_quadrature(k);
      const double q = used ? v[owner.layout().shape(i, k)] : 0.0;
      M[i + k * n] = q;
      M[k + i * n] = q;
    }
  for (std::size_t i = 0; i < n; ++i) M[i + i * n] = std::max(M[i + i * n], 0.0);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = k + 1; i < n; ++i) {
      const double limit = std::sqrt(M[i + i * n] * M[k + k * n]);
      const double q = std::min(std::max(M[i + k * n], -limit), limit);
      M[i + k * n] = q;
      M[k + i * n] = q;
    }
}

}  // namespace

// Scales of (2)-(3): s_i = Q_ii / max Q_ii + RTOL.
void SystemBounder::shape_scales() {
  const std::size_t n = layout_.n;
  double q_max = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    if (!is_quadrature(i)) q_max = std::max(q_max, Q_[i + i * n]);
  for (std::size_t i = 0; i < n; ++i) {
    const double ratio = q_max > 0.0 ? std::max(Q_[i + i * n], 0.0) / q_max : 1.0;
    scale_[i] = ratio + settings_.scaled_trace;
  }
}

double SystemBounder::scaled_trace(const std::vector<double>& M) const {
  const std::size_t n = layout_.n;
  double tr = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    if (!is_quadrature(i)) tr += M[i + i * n] / scale_[i];
  return tr;
}

// B B^T = C_w Q_x C_w^T (sensitivity systems: the state's ellipsoid, its
// shape in `state`) into BBt_; returns nu = sqrt(tr_Q(B B^T)) / root_trace,
// 0 for the state system itself.
double SystemBounder::input_shape(const double* state, double root_trace) {
  const std::size_t n = layout_.n;
  std::fill(BBt_.begin(), BBt_.end(), 0.0);
  if (!state) return 0.0;
  unpack_shape(*driver_, state, Qw_);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t l = 0; l < n; ++l) {
      double v = 0.0;
      for (std::size_t m = 0; m < n; ++m) v += Cw_[i + m * n] * Qw_[m + l * n];
      CwQw_[i + l * n] = v;
    }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k <= i; ++k) {
      double v = 0.0;
      for (std::size_t l = 0; l < n; ++l) v += CwQw_[i + l * n] * Cw_[k + l * n];
      BBt_[i + k * n] = v;
      BBt_[k + i * n] = v;
    }
  const double tr_b = scaled_trace(BBt_);
  return tr_b > 0.0 ? std::sqrt(tr_b) / root_trace : 0.0;
}

void SystemBounder::shape_derivative(const double* y, const double* state, double* ydot) {
  const std::size_t n = layout_.n;
  unpack_shape(*this, y, Q_);
  shape_scales();
  const double root_trace = std::sqrt(scaled_trace(Q_) + settings_.ellipsoid_eps);
  double kappa_sum = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    if (!is_quadrature(i)) kappa_sum += magnitude(omega_[i]) / std::sqrt(scale_[i]) / root_trace;
  const double nu = input_shape(state, root_trace);
  // A Q with A = C.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      double v = 0.0;
      for (std::size_t m = 0; m < n; ++m) v += C_[i + m * n] * Q_[m + k * n];
      AQ_[i + k * n] = v;
    }
  // (45): Q' = A Q + Q A^T + Q (nu + sum kappa) + B B^T / nu
  //           + diag(rad(Omega_i)^2 / kappa_i),
  // with rad^2 / kappa_i = rad_i sqrt(s_i) sqrt(tr_Q(Q) + eps).
  for (std::size_t k = 0; k < n; ++k) {
    if (is_quadrature(k)) continue;
    for (std::size_t i = k; i < n; ++i) {
      if (is_quadrature(i)) continue;
      double v = AQ_[i + k * n] + AQ_[k + i * n] + Q_[i + k * n] * (nu + kappa_sum);
      if (nu > 0.0) v += BBt_[i + k * n] / nu;
      if (i == k) v += magnitude(omega_[i]) * std::sqrt(scale_[i]) * root_trace;
      ydot[layout_.shape(i, k)] = v;
    }
  }
}

}  // namespace odesens::bounds
