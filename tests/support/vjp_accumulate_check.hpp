// Model::vjp_accumulate against the separate products of the same model
// (vjp_x, vjp_p) and against dense J_x^T W and J_p^T W from jac_x and
// jac_p, for several numbers of vectors (1, 3, 9: below, at and above the
// SIMD lane widths, multiples of none but 1).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"

namespace odesens::testing {

// How closely vjp_accumulate must reproduce the separate products: bitwise,
// or to 1e-14 relative to the block's largest |entry|.
struct VjpAccumulateExactness {
  bool out_x_bitwise = false;  // out_x against vjp_x
  bool out_p_bitwise = false;  // out_p against (initial out_p) + vjp_p
};

inline std::uint64_t bits_of(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

inline double largest_magnitude(const std::vector<double>& v) {
  double m = 0.0;
  for (double e : v) m = std::max(m, std::fabs(e));
  return m;
}

// `got` against `want` entry by entry: bitwise, or within rel * scale.
inline void expect_block(const std::vector<double>& got, const std::vector<double>& want,
                         bool bitwise, double rel, double scale, const char* what) {
  ASSERT_GE(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (bitwise)
      EXPECT_EQ(bits_of(got[i]), bits_of(want[i]))
          << what << " entry " << i << ": " << got[i] << " vs " << want[i];
    else
      EXPECT_LE(std::fabs(got[i] - want[i]), rel * scale)
          << what << " entry " << i << ": " << got[i] << " vs " << want[i];
  }
}

// The entries past the block are the sentinel they were given.
inline void expect_untouched_tail(const std::vector<double>& v, std::size_t block, double sentinel,
                                  const char* what) {
  for (std::size_t i = block; i < v.size(); ++i)
    EXPECT_EQ(bits_of(v[i]), bits_of(sentinel)) << what << " written past its block at " << i;
}

// Every check of the file header at (t, x, p), with workspace ws (null: the
// model's temporary one).
inline void expect_vjp_accumulate_consistent(const Model& m, double t, const std::vector<double>& x,
                                             const std::vector<double>& p, Workspace* ws,
                                             VjpAccumulateExactness exact) {
  const std::size_t n = m.nx(), np = m.np();
  constexpr std::size_t kTail = 5;
  constexpr double kSentinel = -7.8125e3;  // exact, and no product's value
  std::vector<double> J(n * n), Jp(n * np);
  m.jac_x(t, x.data(), p.data(), J.data(), ws);
  m.jac_p(t, x.data(), p.data(), Jp.data(), ws);
  for (std::size_t nw : {1, 3, 9}) {
    SCOPED_TRACE(m.name() + ", nw = " + std::to_string(nw));
    std::mt19937 gen(static_cast<unsigned>(17 + nw));
    std::normal_distribution<double> g;
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> W(n * nw);
    for (auto& v : W) v = g(gen);

    // The separate products, and independent dense ones with the sums of
    // |terms| (the scale of their rounding errors).
    std::vector<double> ref_x(n * nw), ref_p(np * nw);
    m.vjp_x(t, x.data(), p.data(), nw, W.data(), ref_x.data(), ws);
    m.vjp_p(t, x.data(), p.data(), nw, W.data(), ref_p.data(), ws);
    std::vector<double> dense_x(n * nw, 0.0), abs_x(n * nw, 0.0);
    std::vector<double> dense_p(np * nw, 0.0), abs_p(np * nw, 0.0);
    for (std::size_t k = 0; k < nw; ++k)
      for (std::size_t i = 0; i < n; ++i) {
        const double w = W[i + k * n];
        for (std::size_t j = 0; j < n; ++j) {
          dense_x[j + k * n] += J[i + j * n] * w;
          abs_x[j + k * n] += std::fabs(J[i + j * n] * w);
        }
        for (std::size_t j = 0; j < np; ++j) {
          dense_p[j + k * np] += Jp[i + j * n] * w;
          abs_p[j + k * np] += std::fabs(Jp[i + j * n] * w);
        }
      }
    const double scale_x = largest_magnitude(abs_x), scale_ref_x = largest_magnitude(ref_x);

    // Initial out_p of the products' size, so that a lost or doubled term shows.
    const double init_scale = largest_magnitude(dense_p) > 0.0 ? largest_magnitude(dense_p) : 1.0;
    std::vector<double> init(np * nw + kTail, kSentinel);
    for (std::size_t i = 0; i < np * nw; ++i) init[i] = init_scale * u(gen);
    std::vector<double> want_p(np * nw), want_dense_p(np * nw);
    double scale_p = 0.0, scale_dense_p = 0.0;
    for (std::size_t i = 0; i < np * nw; ++i) {
      want_p[i] = init[i] + ref_p[i];
      want_dense_p[i] = init[i] + dense_p[i];
      scale_p = std::max(scale_p, std::fabs(init[i]) + std::fabs(ref_p[i]));
      scale_dense_p = std::max(scale_dense_p, std::fabs(init[i]) + abs_p[i]);
    }

    std::vector<double> out_x(n * nw + kTail, kSentinel), out_p = init;
    m.vjp_accumulate(t, x.data(), p.data(), nw, W.data(), out_x.data(), out_p.data(), ws);
    expect_block(out_x, ref_x, exact.out_x_bitwise, 1e-14, scale_ref_x, "out_x vs vjp_x");
    expect_block(out_p, want_p, exact.out_p_bitwise, 1e-14, scale_p, "out_p vs initial + vjp_p");
    expect_block(out_x, dense_x, false, 1e-12, scale_x, "out_x vs dense J_x^T W");
    expect_block(out_p, want_dense_p, false, 1e-12, scale_dense_p,
                 "out_p vs initial + dense J_p^T W");
    expect_untouched_tail(out_x, n * nw, kSentinel, "out_x");
    expect_untouched_tail(out_p, np * nw, kSentinel, "out_p");

    // Without out_p: out_x alone.
    std::vector<double> only_x(n * nw + kTail, kSentinel);
    m.vjp_accumulate(t, x.data(), p.data(), nw, W.data(), only_x.data(), nullptr, ws);
    expect_block(only_x, ref_x, exact.out_x_bitwise, 1e-14, scale_ref_x, "out_x (out_p null)");
    expect_untouched_tail(only_x, n * nw, kSentinel, "out_x (out_p null)");
  }
}

}  // namespace odesens::testing
