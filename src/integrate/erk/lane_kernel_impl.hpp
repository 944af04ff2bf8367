// The lane kernels as templates over the lane width L. Included only by the
// per-instruction-set translation units (lanes_*.cpp), inside an anonymous
// namespace so that no instantiation compiled with -mavx2/-mavx512f can be
// shared with (and picked by the linker for) baseline code. Uses no library
// functions for the same reason.
#pragma once

#include <cstddef>

#include "integrate/erk/lane_kernels.hpp"

namespace odesens::integrate::erk {
namespace {

template <int L>
struct LaneVector;

template <>
struct LaneVector<1> {
  using V = double;
  static V load(const double* p) { return *p; }
  static void store(double* p, V v) { *p = v; }
  static V splat(double a) { return a; }
};

// GCC generic vectors; aligned(8) because the buffers are plain doubles.
template <>
struct LaneVector<4> {
  typedef double V __attribute__((vector_size(32), aligned(8), __may_alias__));
  static V load(const double* p) { return *reinterpret_cast<const V*>(p); }
  static void store(double* p, V v) { *reinterpret_cast<V*>(p) = v; }
  static V splat(double a) { return V{a, a, a, a}; }
};

template <>
struct LaneVector<8> {
  typedef double V __attribute__((vector_size(64), aligned(8), __may_alias__));
  static V load(const double* p) { return *reinterpret_cast<const V*>(p); }
  static void store(double* p, V v) { *reinterpret_cast<V*>(p) = v; }
  static V splat(double a) { return V{a, a, a, a, a, a, a, a}; }
};

// Σ_j coef_j K_j at offset o, left to right, skipping exact zeros.
template <int L>
typename LaneVector<L>::V stage_sum(std::size_t o, const double* coef, const double* const* K,
                                    int count) {
  using LV = LaneVector<L>;
  typename LV::V acc = LV::splat(0.0);
  for (int j = 0; j < count; ++j)
    if (coef[j] != 0.0) acc = acc + LV::splat(coef[j]) * LV::load(K[j] + o);
  return acc;
}

template <int L>
void combine(std::size_t n, const double* base, double h, const double* coef,
             const double* const* K, int count, double* out) {
  using LV = LaneVector<L>;
  using V = typename LV::V;
  const V hv = LV::splat(h);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t o = i * L;
    V r = hv * stage_sum<L>(o, coef, K, count);
    if (base) r = LV::load(base + o) + r;
    LV::store(out + o, r);
  }
}

template <int L>
void combine_compensated(std::size_t n, const double* base, const double* base_low, double h,
                         const double* coef, const double* const* K, int count, double* out,
                         double* out_low) {
  using LV = LaneVector<L>;
  using V = typename LV::V;
  const V hv = LV::splat(h);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t o = i * L;
    const V b = LV::load(base + o);
    const V d = hv * stage_sum<L>(o, coef, K, count) + LV::load(base_low + o);
    const V sum = b + d;
    const V d_kept = sum - b;
    LV::store(out + o, sum);
    LV::store(out_low + o, (b - (sum - d_kept)) + (d - d_kept));
  }
}

template <int L>
bool all_finite(std::size_t n, const double* v) {
  using LV = LaneVector<L>;
  using V = typename LV::V;
  // x*0 is 0 for finite x and NaN for NaN or ±Inf; NaN survives the sum.
  V acc = LV::splat(0.0);
  for (std::size_t i = 0; i < n; ++i) acc = acc + LV::load(v + i * L) * LV::splat(0.0);
  double lanes[L];
  LV::store(lanes, acc);
  bool finite = true;
  for (int l = 0; l < L; ++l) finite = finite && lanes[l] == lanes[l];
  return finite;
}

template <int L>
constexpr ErkLaneKernels make_kernels(const char* isa_name) {
  return ErkLaneKernels{L, isa_name, &combine<L>, &combine_compensated<L>, &all_finite<L>};
}

}  // namespace
}  // namespace odesens::integrate::erk
