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
  static V exp(V a) { return Sleef_expd4_u10avx2(a); }
  static V log(V a) { return Sleef_logd4_u10avx2(a); }
  static V log10(V a) { return Sleef_log10d4_u10avx2(a); }
  static V sqrt(V a) { return _mm256_sqrt_pd(a); }
  static V sin(V a) { return Sleef_sind4_u10avx2(a); }
  static V cos(V a) { return Sleef_cosd4_u10avx2(a); }
  static V tan(V a) { return Sleef_tand4_u10avx2(a); }
  static V sinh(V a) { return Sleef_sinhd4_u10avx2(a); }
  static V cosh(V a) { return Sleef_coshd4_u10avx2(a); }
  static V tanh(V a) { return Sleef_tanhd4_u10avx2(a); }
  static V asin(V a) { return Sleef_asind4_u10avx2(a); }
  static V acos(V a) { return Sleef_acosd4_u10avx2(a); }
  static V atan(V a) { return Sleef_atand4_u10avx2(a); }
  static V floor(V a) { return Sleef_floord4_avx2(a); }
  static V ceil(V a) { return Sleef_ceild4_avx2(a); }
  static V tgamma(V a) { return Sleef_tgammad4_u10avx2(a); }
  static V abs(V a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
  static V pow(V a, V b) { return Sleef_powd4_u10avx2(a, b); }
};

}  // namespace
}  // namespace odesens::expr

#include "expr/lane_kernel_impl.hpp"

namespace odesens::expr::isa {
const LaneKernels avx2_kernels = Kernel<LaneMath>::table();
}  // namespace odesens::expr::isa
