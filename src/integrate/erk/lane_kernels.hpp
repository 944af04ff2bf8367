// Stage-combination kernels of the ERK engine, one table per lane width L.
//
// Buffers hold n states × L trajectories interleaved state-major: state i of
// trajectory l at [i*L + l]. Each kernel is one template over L
// (lane_kernel_impl.hpp) compiled per instruction set: a portable
// translation unit for L = 1, 4, 8, an -mavx2 one for L = 4 and an -mavx512f
// one for L = 8, all with -ffp-contract=off. Every lane performs the
// operations of the L = 1 kernel in the same order without contraction, so
// a trajectory gives bit-identical results whatever the lane width.
#pragma once

#include <cstddef>

namespace odesens::integrate::erk {

struct ErkLaneKernels {
  int lanes;
  const char* isa;  // "portable", "avx2", "avx512f"
  // out = base + h * (Σ_j coef_j K_j) over the n*L values, the sum left to
  // right over j < count, skipping zero coefficients (exact zeros of the
  // tableau). base == null gives out = h * (Σ_j coef_j K_j). Used for the
  // stage values Y_i = x + h Σ a_ij k_j, for x_{n+1} and the error vector.
  void (*combine)(std::size_t n, const double* base, double h, const double* coef,
                  const double* const* K, int count, double* out);
  // Compensated x_{n+1}: with d = base_low + h * (Σ_j coef_j K_j) (the sum
  // as in combine), out = base + d and out_low = the rounding error of that
  // addition (TwoSum, exact), so that base + base_low carries the state to
  // about twice double precision from step to step.
  void (*combine_compensated)(std::size_t n, const double* base, const double* base_low, double h,
                              const double* coef, const double* const* K, int count, double* out,
                              double* out_low);
  // True when none of the n*L values is NaN or Inf.
  bool (*all_finite)(std::size_t n, const double* v);
};

// Fastest kernels for this CPU and lane width (checked once with
// __builtin_cpu_supports), or null when lanes is not 1, 4 or 8.
const ErkLaneKernels* erk_lane_kernels(int lanes);

// The kernels of one instruction set: for tests that compare them.
// Null when the CPU cannot run that instruction set.
const ErkLaneKernels* erk_lane_kernels_portable(int lanes);
const ErkLaneKernels* erk_lane_kernels_avx2();
const ErkLaneKernels* erk_lane_kernels_avx512();

namespace isa {
extern const ErkLaneKernels portable_1, portable_4, portable_8;  // lanes_portable.cpp
extern const ErkLaneKernels avx2_4;                              // lanes_avx2.cpp
extern const ErkLaneKernels avx512_8;                            // lanes_avx512.cpp
}  // namespace isa

}  // namespace odesens::integrate::erk
