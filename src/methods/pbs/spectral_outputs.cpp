#include "methods/pbs/spectral_outputs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/finite_values.hpp"
#include "linalg/dense.hpp"
#include "methods/pbs/phi_scalars.hpp"

namespace odesens::pbs {

using linalg::gemm;
using linalg::Trans;


SpectralOutputs::SpectralOutputs(std::size_t nx, std::size_t np, double rtol)
    : nx_(nx),
      np_(np),
      largest_condition_(0.01 * rtol / std::numeric_limits<double>::epsilon()),
      a_(nx * nx),
      wr_(nx),
      wi_(nx),
      real_scale_(nx),
      vr_(nx * nx),
      lu_(nx * nx),
      eigen_work_(linalg::general_eigen_workspace(nx)),
      rcond_work_(4 * nx),
      pivots_(nx),
      rcond_iwork_(nx),
      x_(5 * nx * np),
      y_(5 * nx * np),
      z_(nx * np),
      s_frozen_(nx * np),
      d_(nx * np),
      j_tau_(nx * nx),
      v_inverse_(nx * nx),
      y_d_(nx * np),
      f_exp_(nx),
      f_phi1_(nx),
      f_phi2_(nx),
      f_phi3_(nx),
      f_ramp_(nx) {}

double SpectralOutputs::workspace_bytes() const {
  const double doubles = static_cast<double>(
      a_.size() + wr_.size() + wi_.size() + real_scale_.size() + vr_.size() + lu_.size() +
      eigen_work_.size() + rcond_work_.size() + x_.size() + y_.size() + z_.size() +
      s_frozen_.size() + d_.size() + j_tau_.size() + v_inverse_.size() + y_d_.size());
  return 8.0 * doubles + 16.0 * 5.0 * static_cast<double>(nx_) +
         4.0 * static_cast<double>(pivots_.size() + rcond_iwork_.size());
}

bool SpectralOutputs::prepare(const StepKnot& knot) {
  if (have_key_ && key_ == knot.id) return accepted_;
  have_key_ = true;
  key_ = knot.id;
  if (skipping_ > 0) {
    --skipping_;
    return accepted_ = false;
  }
  accepted_ = decompose(knot);
  if (accepted_) {
    refusals_in_a_row_ = 0;
    skip_ = kFirstSkip;
    return true;
  }
  ++refusals_;
  if (++refusals_in_a_row_ >= kMostRefusalsInARow) {
    skipping_ = skip_;
    skip_ = std::min(2 * skip_, kLongestSkip);
  }
  return false;
}

bool SpectralOutputs::decompose(const StepKnot& knot) {
  const std::size_t n = nx_;
  if (n == 0 || !all_finite(knot.mid.jx.size(), knot.mid.jx.data())) return false;
  std::copy(knot.mid.jx.begin(), knot.mid.jx.end(), a_.begin());
  if (!linalg::general_eigen(n, a_.data(), wr_.data(), wi_.data(), vr_.data(), eigen_work_.data()))
    return false;
  ++decompositions_;
  all_real_ = std::all_of(wi_.begin(), wi_.end(), [](double v) { return v == 0.0; });
  std::copy(vr_.begin(), vr_.end(), lu_.begin());
  if (!linalg::lu_factor(n, lu_.data(), pivots_.data())) return false;
  const double rcond = linalg::lu_rcond(n, lu_.data(), linalg::norm1(n, n, vr_.data()),
                                        rcond_work_.data(), rcond_iwork_.data());
  if (!(rcond * largest_condition_ >= 1.0)) return false;
  // V^{-1} explicitly: a product per output is several times faster than
  // triangular solves of this size (V is well-conditioned here).
  std::fill(v_inverse_.begin(), v_inverse_.end(), 0.0);
  for (std::size_t i = 0; i < n; ++i) v_inverse_[i + i * n] = 1.0;
  linalg::lu_solve(n, lu_.data(), pivots_.data(), n, v_inverse_.data());
  transform_inputs(knot);
  return all_finite(y_.size(), y_.data());
}

void SpectralOutputs::transform_inputs(const StepKnot& knot) {
  const std::size_t n = nx_, nm = nx_ * np_;
  const double h = knot.t1 - knot.t0;
  double* s = x_.data();
  double* g0 = s + nm;
  double* g1 = g0 + nm;
  double* g2 = g1 + nm;
  double* d0 = g2 + nm;
  std::copy(knot.s.begin(), knot.s.end(), s);
  // The quadratic through (0, L), (h/2, M), (h, R) as g0 + g1 s + g2 s^2.
  const double* l = knot.left.jp.data();
  const double* m = knot.mid.jp.data();
  const double* r = knot.right.jp.data();
  for (std::size_t q = 0; q < nm; ++q) {
    g0[q] = l[q];
    g1[q] = (4.0 * m[q] - 3.0 * l[q] - r[q]) / h;
    g2[q] = (2.0 * l[q] + 2.0 * r[q] - 4.0 * m[q]) / (h * h);
  }
  // D_0 = (J_0 - J_m) S_k.
  gemm(Trans::no, Trans::no, n, np_, n, 1.0, knot.left.jx.data(), n, s, n, 0.0, d0, n);
  gemm(Trans::no, Trans::no, n, np_, n, -1.0, knot.mid.jx.data(), n, s, n, 1.0, d0, n);
  gemm(Trans::no, Trans::no, n, 5 * np_, n, 1.0, v_inverse_.data(), n, x_.data(), n, 0.0, y_.data(),
       n);
}

void SpectralOutputs::add_scaled(const Complex* f, const double* y, double* z) {
  const std::size_t n = nx_;
  if (all_real_) {  // the common case, which vectorizes
    for (std::size_t j = 0; j < n; ++j) real_scale_[j] = f[j].real();
    for (std::size_t c = 0; c < np_; ++c)
      for (std::size_t j = 0; j < n; ++j) z[j + c * n] += real_scale_[j] * y[j + c * n];
    return;
  }
  for (std::size_t c = 0; c < np_; ++c) {
    const double* yc = y + c * n;
    double* zc = z + c * n;
    for (std::size_t j = 0; j < n; ++j) {
      if (wi_[j] == 0.0) {
        zc[j] += f[j].real() * yc[j];
        continue;
      }
      // The pair's coefficient of v = vr(:,j) + i vr(:,j+1) is (y_j - i
      // y_{j+1}) / 2.
      const Complex scaled = f[j] * Complex(yc[j], -yc[j + 1]);
      zc[j] += scaled.real();
      zc[j + 1] -= scaled.imag();
      ++j;
    }
  }
}

bool SpectralOutputs::evaluate(const StepKnot& knot, double t, double* s_out) {
  const std::size_t n = nx_, nm = nx_ * np_;
  const double h = knot.t1 - knot.t0, tau = t - knot.t0, theta = tau / h;
  for (std::size_t j = 0; j < n; ++j) {
    const PhiScalars<Complex> p = phi_scalars(tau * Complex(wr_[j], wi_[j]));
    f_exp_[j] = p.e;
    f_phi1_[j] = tau * p.p1;
    f_phi2_[j] = tau * tau * p.p2;
    f_phi3_[j] = 2.0 * tau * tau * tau * p.p3;
    f_ramp_[j] = tau * p.p2;
  }
  const double* y = y_.data();
  // The frozen part.
  std::fill(z_.begin(), z_.end(), 0.0);
  add_scaled(f_exp_.data(), y, z_.data());
  add_scaled(f_phi1_.data(), y + nm, z_.data());
  add_scaled(f_phi2_.data(), y + 2 * nm, z_.data());
  add_scaled(f_phi3_.data(), y + 3 * nm, z_.data());
  gemm(Trans::no, Trans::no, n, np_, n, 1.0, vr_.data(), n, z_.data(), n, 0.0, s_frozen_.data(), n);
  // D_tau = (J_x(tau) - J_m) S_frozen, J_x(tau) quadratic through the knot's.
  interpolate_jx_change(knot, theta);
  gemm(Trans::no, Trans::no, n, np_, n, 1.0, j_tau_.data(), n, s_frozen_.data(), n, 0.0, d_.data(),
       n);
  // + tau phi1 D_0 + tau phi2 (D_tau - D_0), in V's basis: y_d = V^{-1} D_tau -
  // y_d0.
  const double* y_d0 = y + 4 * nm;
  std::copy(y_d0, y_d0 + nm, y_d_.begin());
  gemm(Trans::no, Trans::no, n, np_, n, 1.0, v_inverse_.data(), n, d_.data(), n, -1.0, y_d_.data(),
       n);
  add_scaled(f_phi1_.data(), y_d0, z_.data());
  add_scaled(f_ramp_.data(), y_d_.data(), z_.data());
  gemm(Trans::no, Trans::no, n, np_, n, 1.0, vr_.data(), n, z_.data(), n, 0.0, s_out, n);
  return all_finite(nm, s_out);
}

void SpectralOutputs::interpolate_jx_change(const StepKnot& knot, double theta) {
  quadratic(knot.left.jx, knot.mid.jx, knot.right.jx, theta, j_tau_);
  for (std::size_t q = 0; q < j_tau_.size(); ++q) j_tau_[q] -= knot.mid.jx[q];
}

}  // namespace odesens::pbs
