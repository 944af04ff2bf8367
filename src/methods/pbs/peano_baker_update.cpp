#include "methods/pbs/peano_baker_update.hpp"

#include <algorithm>

#include "linalg/csc.hpp"
#include "linalg/dense.hpp"

namespace odesens::pbs {

using linalg::gemm;
using linalg::Trans;

PeanoBakerUpdate::PeanoBakerUpdate(const PropagatorShape& shape) : shape_(shape) {
  const std::size_t nx = shape_.nx, nm = shape_.nm();
  if (shape_.sparse) {
    block_a_.resize(nm);
    block_b_.resize(nm);
    block_c_.resize(nm);
    return;
  }
  // Dense updates hold n x n matrices.
  const std::size_t nn = nx * nx;
  i1_.resize(nn);
  phi_forward_.resize(nn);
  phi_backward_.resize(nn);
  drift_.resize(nm);
  power_a_.resize(nn);
  power_c_.resize(nm);
  power_tmp_a_.resize(nn);
  power_tmp_c_.resize(nm);
}

// Eq. 21-24: Phi(b;a) = I + I1 + I2, Phi(a;b) = I - I1 + I2 with
// I1 = dt/2 (Ja + Jb), I2 = dt/2 Jb I1; then
// S <- Phi(b;a) (S + dt/2 (Jp_a + Phi(a;b) Jp_b)).
void PeanoBakerUpdate::step(const Jacobians& a, const Jacobians& b, double dt,
                            SensitivityBlocks s) {
  if (shape_.sparse) {
    sparse_step(a, b, dt, s.s);
    return;
  }
  dense_step(a, b, dt, s);
}

void PeanoBakerUpdate::identical_steps(const Jacobians& j, double dt, std::int64_t n,
                                       SensitivityBlocks s) {
  if (shape_.sparse) {  // one by one
    for (std::int64_t h = 0; h < n; ++h) sparse_step(j, j, dt, s.s);
    return;
  }
  dense_step(j, j, dt, s);
  pending_steps_ += n - 1;
}

void PeanoBakerUpdate::dense_step(const Jacobians& a, const Jacobians& b, double dt,
                                  SensitivityBlocks s) {
  const bool reuse = dt == pbs_key_dt_ && a.jx == pbs_key_ja_ && b.jx == pbs_key_jb_ &&
                     a.jp == pbs_key_jpa_ && b.jp == pbs_key_jpb_;
  if (!reuse) {
    apply_pending_steps(s);
    transition_matrices(a, b, dt);
    pbs_key_dt_ = dt;
    pbs_key_ja_ = a.jx;
    pbs_key_jb_ = b.jx;
    pbs_key_jpa_ = a.jp;
    pbs_key_jpb_ = b.jp;
  }
  ++pending_steps_;
}

// T(S) = Phi (S + drift) = Phi S + c with c = Phi drift, applied r times:
// for each binary digit of r, S <- T^(2^i)(S) when the digit is set, and
// T^(2^(i+1)) = T^(2^i) o T^(2^i) = (A^2, A c + c).
void PeanoBakerUpdate::apply_pending_steps(SensitivityBlocks s) {
  const std::size_t nx = shape_.nx, np = shape_.np;
  std::int64_t r = pending_steps_;
  pending_steps_ = 0;
  if (r == 0 || np == 0) return;
  const std::size_t nm = nx * np;
  if (r == 1) {
    for (std::size_t q = 0; q < nm; ++q) s.next[q] = s.s[q] + drift_[q];
    gemm(Trans::no, Trans::no, nx, np, nx, 1.0, phi_forward_.data(), nx, s.next.data(), nx,
         0.0, s.s.data(), nx);
    return;
  }
  std::copy(phi_forward_.begin(), phi_forward_.end(), power_a_.begin());
  gemm(Trans::no, Trans::no, nx, np, nx, 1.0, phi_forward_.data(), nx, drift_.data(), nx, 0.0,
       power_c_.data(), nx);
  while (true) {
    if (r & 1) {
      std::copy(power_c_.begin(), power_c_.end(), s.next.begin());
      gemm(Trans::no, Trans::no, nx, np, nx, 1.0, power_a_.data(), nx, s.s.data(), nx, 1.0,
           s.next.data(), nx);
      std::swap(s.s, s.next);
    }
    r >>= 1;
    if (r == 0) break;
    std::copy(power_c_.begin(), power_c_.end(), power_tmp_c_.begin());
    gemm(Trans::no, Trans::no, nx, np, nx, 1.0, power_a_.data(), nx, power_c_.data(), nx, 1.0,
         power_tmp_c_.data(), nx);
    gemm(Trans::no, Trans::no, nx, nx, nx, 1.0, power_a_.data(), nx, power_a_.data(), nx, 0.0,
         power_tmp_a_.data(), nx);
    std::swap(power_a_, power_tmp_a_);
    std::swap(power_c_, power_tmp_c_);
  }
}

void PeanoBakerUpdate::transition_matrices(const Jacobians& a, const Jacobians& b, double dt) {
  const std::size_t nx = shape_.nx, np = shape_.np;
  const std::size_t nn = nx * nx;
  const double half = 0.5 * dt;
  for (std::size_t q = 0; q < nn; ++q) i1_[q] = half * (a.jx[q] + b.jx[q]);
  // phi_forward_ holds I2 first
  gemm(Trans::no, Trans::no, nx, nx, nx, half, b.jx.data(), nx, i1_.data(), nx, 0.0,
       phi_forward_.data(), nx);
  for (std::size_t q = 0; q < nn; ++q) {
    phi_backward_[q] = phi_forward_[q] - i1_[q];
    phi_forward_[q] += i1_[q];
  }
  for (std::size_t i = 0; i < nx; ++i) {
    phi_forward_[i + i * nx] += 1.0;
    phi_backward_[i + i * nx] += 1.0;
  }
  if (np == 0) return;
  // drift = dt/2 (Jp_a + Phi(a;b) Jp_b)
  std::copy(a.jp.begin(), a.jp.end(), drift_.begin());
  gemm(Trans::no, Trans::no, nx, np, nx, 1.0, phi_backward_.data(), nx, b.jp.data(), nx, 1.0,
       drift_.data(), nx);
  for (double& v : drift_) v *= half;
}

// Eq. 21-24 with sparse J, never forming Phi: with I1 X = dt/2 (Ja X + Jb X),
//   Phi(a;b) X = X - I1 X + dt/2 Jb (I1 X),  Phi(b;a) X = X + I1 X + dt/2 Jb (I1 X),
//   S <- Phi(b;a) (S + dt/2 (Jp_a + Phi(a;b) Jp_b)):
// six sparse-times-dense products on n x np blocks.
void PeanoBakerUpdate::sparse_step(const Jacobians& a, const Jacobians& b, double dt,
                                   std::vector<double>& s) {
  if (shape_.np == 0) return;
  const std::size_t nm = shape_.nm();
  const double half = 0.5 * dt;
  // block_a_ = Jp_b (dense), then Phi(a;b) Jp_b.
  dense_jp(shape_, b, block_a_.data());
  apply_phi(a, b, half, -1.0, block_a_.data());
  // s += dt/2 (Jp_a + Phi(a;b) Jp_b)
  dense_jp(shape_, a, block_b_.data());
  for (std::size_t q = 0; q < nm; ++q) s[q] += half * (block_b_[q] + block_a_[q]);
  apply_phi(a, b, half, +1.0, s.data());
}

// X <- X + sign I1 X + half Jb (I1 X), I1 X = half (Ja X + Jb X).
void PeanoBakerUpdate::apply_phi(const Jacobians& a, const Jacobians& b, double half,
                                 double sign, double* X) {
  const std::size_t nm = shape_.nm(), np = shape_.np;
  const SparsityPattern& pattern = *shape_.jx_pattern;
  linalg::csc_multiply(pattern, a.jx.data(), np, X, block_b_.data());
  linalg::csc_multiply(pattern, b.jx.data(), np, X, block_c_.data());
  for (std::size_t q = 0; q < nm; ++q) block_b_[q] = half * (block_b_[q] + block_c_[q]);  // I1 X
  linalg::csc_multiply(pattern, b.jx.data(), np, block_b_.data(), block_c_.data());
  for (std::size_t q = 0; q < nm; ++q) X[q] += sign * block_b_[q] + half * block_c_[q];
}

double PeanoBakerUpdate::workspace_bytes() const {
  std::size_t doubles = 0;
  for (const std::vector<double>* v :
       {&block_a_, &block_b_, &block_c_, &i1_, &phi_forward_, &phi_backward_, &drift_,
        &pbs_key_ja_, &pbs_key_jb_, &pbs_key_jpa_, &pbs_key_jpb_, &power_a_, &power_c_,
        &power_tmp_a_, &power_tmp_c_})
    doubles += v->capacity();
  return 8.0 * static_cast<double>(doubles);
}

}  // namespace odesens::pbs
