// Which lane kernels this CPU may run (baseline code: it decides whether the
// AVX translation units are ever entered).
#include "integrate/erk/lane_kernels.hpp"

namespace odesens::integrate::erk {
namespace {

bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

// libgcc's check includes the operating system's support for the zmm state.
bool cpu_has_avx512f() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}

}  // namespace

const ErkLaneKernels* erk_lane_kernels_portable(int lanes) {
  switch (lanes) {
    case 1: return &isa::portable_1;
    case 4: return &isa::portable_4;
    case 8: return &isa::portable_8;
    default: return nullptr;
  }
}

const ErkLaneKernels* erk_lane_kernels_avx2() {
  static const bool available = cpu_has_avx2();
  return available ? &isa::avx2_4 : nullptr;
}

const ErkLaneKernels* erk_lane_kernels_avx512() {
  static const bool available = cpu_has_avx512f();
  return available ? &isa::avx512_8 : nullptr;
}

const ErkLaneKernels* erk_lane_kernels(int lanes) {
  const ErkLaneKernels* simd = lanes == 4 ? erk_lane_kernels_avx2()
                               : lanes == 8 ? erk_lane_kernels_avx512()
                                            : nullptr;
  return simd ? simd : erk_lane_kernels_portable(lanes);
}

}  // namespace odesens::integrate::erk
