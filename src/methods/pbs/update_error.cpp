#include "methods/pbs/update_error.hpp"

#include <algorithm>
#include <cmath>

#include "linalg/csc.hpp"
#include "linalg/dense.hpp"
#include "methods/pbs/phi_scalars.hpp"

namespace odesens::pbs {

UpdateError::UpdateError(const PropagatorShape& shape, double rtol,
                         const std::vector<double>& atol, const double* p)
    : shape_(shape), rtol_(rtol) {
  const std::size_t nx = shape_.nx, np = shape_.np, nm = shape_.nm();
  abs_tol_.resize(nm);
  for (std::size_t j = 0; j < np; ++j) {
    const double pbar = std::fabs(p[j]) > 0.0 ? std::fabs(p[j]) : 1.0;
    for (std::size_t i = 0; i < nx; ++i) {
      const double a = atol.empty() ? 0.0 : atol.size() == nx ? atol[i] : atol[0];
      abs_tol_[j * nx + i] = a / pbar;
    }
  }
  const std::size_t jx_size = shape_.sparse ? shape_.jx_pattern->nnz() : nx * nx;
  a_curve_.resize(jx_size);
  a_change_.resize(jx_size);
  for (std::vector<double>* v :
       {&b_curve_, &b_change_, &b_mid_, &error_, &product_a_, &product_b_, &s_end_, &f2_})
    v->resize(nm);
}

void UpdateError::jx_times(const std::vector<double>& a, const double* v, std::size_t nv,
                           double* out) const {
  if (shape_.sparse) {
    linalg::csc_multiply(*shape_.jx_pattern, a.data(), nv, v, out);
    return;
  }
  linalg::gemm(linalg::Trans::no, linalg::Trans::no, shape_.nx, nv, shape_.nx, 1.0, a.data(),
               shape_.nx, v, shape_.nx, 0.0, out, shape_.nx);
}

double UpdateError::estimate(const Jacobians& left, const Jacobians& mid, const Jacobians& right,
                             double h, const std::vector<double>& s, UpdateKind kind,
                             bool frozen_jp, std::int64_t sub_steps) {
  const std::size_t np = shape_.np, nm = shape_.nm();
  if (np == 0) return 0.0;
  for (std::size_t q = 0; q < a_curve_.size(); ++q) {
    a_curve_[q] = left.jx[q] - 2.0 * mid.jx[q] + right.jx[q];
    a_change_[q] = right.jx[q] - left.jx[q];
  }
  dense_jp(shape_, left, b_curve_.data());
  dense_jp(shape_, right, product_a_.data());
  dense_jp(shape_, mid, b_mid_.data());
  for (std::size_t q = 0; q < nm; ++q) {
    b_change_[q] = product_a_[q] - b_curve_[q];
    b_curve_[q] += product_a_[q] - 2.0 * b_mid_[q];
  }

  predict_end(mid.jx, h, s);
  jx_times(a_curve_, s.data(), np, error_.data());
  if (kind == UpdateKind::peano_baker) {
    // -h^3 (A2 S + B2) / 12 = -(h / 3) (A'' S + B'') in second differences.
    for (std::size_t q = 0; q < nm; ++q) error_[q] = -(h / 3.0) * (error_[q] + b_curve_[q]);
    add_peano_baker_truncation(mid.jx, h, sub_steps, s);
    damp_stiff_rows(mid.jx, h);
    return weighted_norm(s);
  }
  // h^3 (A2 S / 24 - B2 / 12) in second differences (+B2 / 24 frozen; no
  // h^3 term of A with J_x's change, of B with the Simpson ramp).
  const bool ramp = jp_ramp_ && !frozen_jp;
  const double a_factor = jx_change_ ? 0.0 : h / 6.0;
  const double b_factor = frozen_jp ? h / 6.0 : (ramp ? 0.0 : -h / 3.0);
  for (std::size_t q = 0; q < nm; ++q)
    error_[q] = a_factor * error_[q] + b_factor * b_curve_[q];
  if (jx_change_) {
    damp_stiff_rows(mid.jx, h);
    if (ramp) add_simpson_remainder(mid.jx, h, s);
    return weighted_norm(s);
  }
  // -h^3 [A_M, A1] S / 12 + h^3 A1 B_M / 12
  //   = (h^2 / 12) (-A_M (dA S) + dA (A_M S + B_M)), dA = A_R - A_L.
  // The commutator and coupling terms come from expanding e^{h A} in h A:
  // on a stiff step (h |a_ii| > 1 for some i) they are meaningless (fast
  // equilibria make them huge where the solution is smooth) and left out.
  if (stiff_step(mid.jx, h)) {
    damp_stiff_rows(mid.jx, h);
    return weighted_norm(s);
  }
  const double c = h * h / 12.0;
  jx_times(a_change_, s.data(), np, product_a_.data());
  jx_times(mid.jx, product_a_.data(), np, product_b_.data());
  for (std::size_t q = 0; q < nm; ++q) error_[q] -= c * product_b_[q];
  jx_times(mid.jx, s.data(), np, product_a_.data());
  for (std::size_t q = 0; q < nm; ++q) product_a_[q] += b_mid_[q];
  jx_times(a_change_, product_a_.data(), np, product_b_.data());
  for (std::size_t q = 0; q < nm; ++q) error_[q] += c * product_b_[q];
  damp_stiff_rows(mid.jx, h);
  return weighted_norm(s);
}

namespace {

// c(z) = phi3(z) - (2/3) phi2(z) + phi1(z) / 6, by its series near 0.
double simpson_kernel(double z) {
  if (std::fabs(z) < 0.5) return z / 72.0 + z * z / 120.0 + z * z * z / 360.0;
  const PhiScalars<double> phi = phi_scalars(z);
  return phi.p3 - (2.0 / 3.0) * phi.p2 + phi.p1 / 6.0;
}

}  // namespace

void UpdateError::add_peano_baker_truncation(const std::vector<double>& jx_mid, double h,
                                             std::int64_t sub_steps,
                                             const std::vector<double>& s) {
  const std::size_t nm = shape_.nm();
  const double n = static_cast<double>(std::max<std::int64_t>(sub_steps, 1));
  const double c = h * h * h / (n * n);
  // A^2 (A S / 6 - B / 12), A and B at the midpoint.
  jx_times(jx_mid, s.data(), shape_.np, product_a_.data());
  for (std::size_t q = 0; q < nm; ++q) product_a_[q] = product_a_[q] / 6.0 - b_mid_[q] / 12.0;
  jx_times(jx_mid, product_a_.data(), shape_.np, product_b_.data());
  jx_times(jx_mid, product_b_.data(), shape_.np, product_a_.data());
  for (std::size_t q = 0; q < nm; ++q) error_[q] += c * product_a_[q];
  // The second term of the series, h^2/4 A_R (A_L + A_R), against the
  // exact iterated integral: -(h^3 / 12) (A_M A1 + 2 A1 A_M) S, A1 = dA / h,
  // for each sub-step: (h^2 / (12 n^2)) with dA over the step.
  const double d = -h * h / (12.0 * n * n);
  jx_times(a_change_, s.data(), shape_.np, product_a_.data());
  jx_times(jx_mid, product_a_.data(), shape_.np, product_b_.data());
  for (std::size_t q = 0; q < nm; ++q) error_[q] += d * product_b_[q];
  jx_times(jx_mid, s.data(), shape_.np, product_a_.data());
  jx_times(a_change_, product_a_.data(), shape_.np, product_b_.data());
  for (std::size_t q = 0; q < nm; ++q) error_[q] += 2.0 * d * product_b_[q];
  // ... and its forcing's counterpart, h^3 (A_M B1 / 6 + A1 B_M / 12) a
  // step: (h^2 / (12 n^2)) (2 A_M dB + dA B_M).
  jx_times(jx_mid, b_change_.data(), shape_.np, product_a_.data());
  jx_times(a_change_, b_mid_.data(), shape_.np, product_b_.data());
  for (std::size_t q = 0; q < nm; ++q)
    error_[q] -= d * (2.0 * product_a_[q] + product_b_[q]);
}

void UpdateError::add_simpson_remainder(const std::vector<double>& jx_mid, double h,
                                        const std::vector<double>& s) {
  const std::size_t nx = shape_.nx, np = shape_.np, nm = shape_.nm();
  // h^2 F'' = 4 (A'' S + B'') + 2 h A' (A_M S + B_M) in second differences.
  jx_times(a_curve_, s.data(), np, f2_.data());
  jx_times(jx_mid, s.data(), np, product_a_.data());
  for (std::size_t q = 0; q < nm; ++q) product_a_[q] += b_mid_[q];
  jx_times(a_change_, product_a_.data(), np, product_b_.data());
  for (std::size_t q = 0; q < nm; ++q)
    f2_[q] = 4.0 * (f2_[q] + b_curve_[q]) + 2.0 * h * product_b_[q];
  // h c(h A_M) (h^2 F''): where h |A_M| is small, two terms of c's series.
  if (!stiff_step(jx_mid, h)) {
    jx_times(jx_mid, f2_.data(), np, product_a_.data());
    jx_times(jx_mid, product_a_.data(), np, product_b_.data());
    for (std::size_t q = 0; q < nm; ++q)
      error_[q] += h * (h * product_a_[q] / 72.0 + h * h * product_b_[q] / 120.0);
    return;
  }
  // On a stiff step the series diverges (its products of A_M read 1e12 on
  // Boehm_JProteomeRes2014): each row takes c of its diagonal, which stands
  // in for its spectrum as in damp_stiff_rows; a growing diagonal is taken
  // no further than h a_ii = 1 (alone it says little of the spectrum).
  for (std::size_t i = 0; i < nx; ++i) {
    const double c = simpson_kernel(std::min(h * diagonal(jx_mid, i), 1.0));
    for (std::size_t j = 0; j < np; ++j) error_[j * nx + i] += h * c * f2_[j * nx + i];
  }
}

bool UpdateError::stiff_step(const std::vector<double>& jx, double h) const {
  for (std::size_t i = 0; i < shape_.nx; ++i)
    if (h * std::fabs(diagonal(jx, i)) > 1.0) return true;
  return false;
}

// |S| at the step's end, for the weights: S changes over a step (from 0 at
// the start, often), and an error is judged against the larger of the two.
// Exponential Euler with J's diagonal: S + h phi1(h a_ii) (A_M S + B_M).
void UpdateError::predict_end(const std::vector<double>& jx_mid, double h,
                              const std::vector<double>& s) {
  const std::size_t nx = shape_.nx, np = shape_.np;
  jx_times(jx_mid, s.data(), np, s_end_.data());
  for (std::size_t i = 0; i < nx; ++i) {
    const double z = h * diagonal(jx_mid, i);
    const double phi1 = z < -1e-3 ? std::expm1(z) / z : 1.0;
    for (std::size_t j = 0; j < np; ++j) {
      const std::size_t q = j * nx + i;
      s_end_[q] = s[q] + h * phi1 * (s_end_[q] + b_mid_[q]);
    }
  }
}

// The expansion above holds where h |J| is small. A component that decays
// much faster than the step (h a_ii << -1) forgets what went wrong early in
// the step: its error is the defect integrated against e^{a_ii (h - s)},
// about phi1(h a_ii) = (e^{h a_ii} - 1) / (h a_ii) of the undamped sum.
// J's diagonal stands in for its spectrum.
void UpdateError::damp_stiff_rows(const std::vector<double>& jx, double h) {
  const std::size_t nx = shape_.nx, np = shape_.np;
  for (std::size_t i = 0; i < nx; ++i) {
    const double z = h * diagonal(jx, i);
    if (!(z < -1e-3)) continue;
    const double damping = std::expm1(z) / z;
    for (std::size_t j = 0; j < np; ++j) error_[j * nx + i] *= damping;
  }
}

double UpdateError::diagonal(const std::vector<double>& jx, std::size_t i) const {
  if (!shape_.sparse) return jx[i * shape_.nx + i];
  const SparsityPattern& p = *shape_.jx_pattern;
  for (auto q = static_cast<std::size_t>(p.col_ptr[i]);
       q < static_cast<std::size_t>(p.col_ptr[i + 1]); ++q)
    if (static_cast<std::size_t>(p.row_idx[q]) == i) return jx[q];
  return 0.0;
}

// As CVODES' error test of forward sensitivities (cvSensNorm): the largest
// over parameters of each column's weighted RMS norm over the states. One
// RMS over all of S let a column's error hide among parameters whose S is 0
// (pka.ode at rtol 1e-5: one column 13 times its tolerances read 0.96).
double UpdateError::weighted_norm(const std::vector<double>& s) const {
  const std::size_t nx = shape_.nx, np = shape_.np;
  double largest = 0.0;
  for (std::size_t j = 0; j < np; ++j) {
    double sum = 0.0;
    for (std::size_t q = j * nx; q < (j + 1) * nx; ++q) {
      // An entry with no tolerance at all (atol 0 where S is 0) is not weighed.
      const double weight =
          rtol_ * std::max(std::fabs(s[q]), std::fabs(s_end_[q])) + abs_tol_[q];
      // NaN is never mistaken for a small error, whatever its weight.
      if (std::isnan(weight) || std::isnan(error_[q])) return std::nan("");
      if (weight > 0.0) sum += (error_[q] / weight) * (error_[q] / weight);
    }
    largest = std::max(largest, std::sqrt(sum / static_cast<double>(nx)));
  }
  return largest;
}

double UpdateError::workspace_bytes() const {
  std::size_t doubles = 0;
  for (const std::vector<double>* v :
       {&abs_tol_, &a_curve_, &a_change_, &b_curve_, &b_change_, &b_mid_, &error_, &product_a_,
        &product_b_, &s_end_, &f2_})
    doubles += v->capacity();
  return 8.0 * static_cast<double>(doubles);
}

}  // namespace odesens::pbs
