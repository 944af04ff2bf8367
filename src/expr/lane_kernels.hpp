// Tape evaluators over L lanes, L = 1 (scalar), 4 (AVX2) or 8 (AVX-512),
// chosen at run time from the CPU.
//
// One implementation (lane_kernel_impl.hpp) is compiled once per width in
// its own translation unit with that width's instruction-set flags; this
// header is the only way in, and lane_kernels() hands out a width only when
// the CPU supports it, so AVX code never runs on a CPU without AVX.
//
// Three evaluators:
//   values    L points at once: every register holds L lanes; the
//             transcendental functions of the lanes come from SLEEF.
//   tangents  one point, L tangent directions (forward mode) and
//   adjoints  one point, L weight vectors (reverse mode), both on a
//             single-assignment tape whose scalar values the scalar
//             evaluator (values with L = 1, or native code) has computed.
// The tangent and adjoint lanes only multiply and add, so their results do
// not depend on L; values lanes differ from the scalar ones by the ulps of
// SLEEF's functions (u10: at most 1 ulp each).
//
// Buffers are lane-interleaved: register r, lane l is at [r*L + l]; the same
// for outputs and weights.
#pragma once

#include <cstdint>

#include "expr/tape.hpp"

namespace odesens::expr {

struct LaneKernels {
  int width;
  // Runs instructions [begin, end) on regs (n_registers * width), whose input
  // registers the caller has filled; stores write out (n_outputs * width).
  void (*values)(const TapeView& tape, std::uint32_t begin, std::uint32_t end, double* regs,
                 double* out);
  // Adjoint (single-assignment) tape, vals (n_registers) all computed;
  // tans (n_registers * width) with the input tangents filled (the
  // constants' zero). Writes out_tan (n_outputs * width).
  void (*tangents)(const TapeView& tape, const double* vals, double* tans, double* out_tan);
  // Adjoint tape, vals all computed; adj (n_registers * width) with the input
  // registers zeroed; w (n_outputs * width). Leaves in adj's input registers
  // sum_k w_k d out_k / d input.
  void (*adjoints)(const TapeView& tape, const double* vals, double* adj, const double* w);
};

// The evaluators of a width, or nullptr when this build or this CPU lacks it.
const LaneKernels* lane_kernels(int width);
// 8 with AVX-512F, else 4 with AVX2 and FMA, else 1.
int widest_lane_width();

namespace isa {
extern const LaneKernels scalar_kernels;
extern const LaneKernels avx2_kernels;
extern const LaneKernels avx512_kernels;
}  // namespace isa

}  // namespace odesens::expr
