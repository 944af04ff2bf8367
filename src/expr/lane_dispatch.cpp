// Which lane widths this CPU may run (baseline code: it decides whether the
// AVX translation units are ever entered).
#include "expr/lane_kernels.hpp"

namespace odesens::expr {
namespace {

bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

// libgcc's check includes the operating system's support for the zmm state.
bool cpu_has_avx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && cpu_has_avx2();
}

}  // namespace

const LaneKernels* lane_kernels(int width) {
  static const bool avx2 = cpu_has_avx2();
  static const bool avx512 = cpu_has_avx512();
  switch (width) {
    case 1: return &isa::scalar_kernels;
    case 4: return avx2 ? &isa::avx2_kernels : nullptr;
    case 8: return avx512 ? &isa::avx512_kernels : nullptr;
    default: return nullptr;
  }
}

int widest_lane_width() {
  if (lane_kernels(8)) return 8;
  if (lane_kernels(4)) return 4;
  return 1;
}

}  // namespace odesens::expr
