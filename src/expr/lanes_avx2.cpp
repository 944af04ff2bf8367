// Width 4: AVX2 + FMA lanes, transcendental functions from SLEEF (u10, at
// most 1 ulp). Compiled with -mavx2 -mfma -ffp-contract=off (see
// CMakeLists.txt); reached only through lane_kernels() after a CPU check.
#include <immintrin.h>
#include <sleef.h>

#include <cstdint>

namespace odesens::expr {
namespace {

struct LaneMath {
  static constexpr int L = 4;
  // aligned(8): registers are read from plain double buffers.
  typedef double V __attribute__((vector_size(32), __may_alias__, aligned(8)));
  typedef std::uint64_t Bits __attribute__((vector_size(32)));
  // The SLEEF functions that ops.def names (u10: at most 1 ulp).
#define sleef1(fn, accuracy) \
  static V fn(V a) { return Sleef_##fn##d4_##accuracy##avx2(a); }
#define sleef2(fn, accuracy) \
  static V fn(V a, V b) { return Sleef_##fn##d4_##accuracy##avx2(a, b); }
#define intrinsic
#define no_math
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) math
#include "expr/ops.def"
#undef sleef1
#undef sleef2
#undef intrinsic
#undef no_math
  static V sqrt(V a) { return _mm256_sqrt_pd(a); }
  static V abs(V a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
};

}  // namespace
}  // namespace odesens::expr

#include "expr/lane_kernel_impl.hpp"

namespace odesens::expr::isa {
const LaneKernels avx2_kernels = Kernel<LaneMath>::table();
}  // namespace odesens::expr::isa
