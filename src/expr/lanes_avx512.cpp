// Width 8: AVX-512F lanes, transcendental functions from SLEEF (u10, at
// most 1 ulp). Compiled with -mavx512f -mfma -ffp-contract=off (see
// CMakeLists.txt); reached only through lane_kernels() after a CPU check.
#include <immintrin.h>
#include <sleef.h>

#include <cstdint>

namespace odesens::expr {
namespace {

struct LaneMath {
  static constexpr int L = 8;
  // aligned(8): registers are read from plain double buffers.
  typedef double V __attribute__((vector_size(64), __may_alias__, aligned(8)));
  typedef std::uint64_t Bits __attribute__((vector_size(64)));
  static V exp(V a) { return Sleef_expd8_u10avx512f(a); }
  static V log(V a) { return Sleef_logd8_u10avx512f(a); }
  static V log10(V a) { return Sleef_log10d8_u10avx512f(a); }
  // The masked form with every lane selected: same vsqrtpd, without the
  // undefined pass-through operand that GCC 12 warns about.
  static V sqrt(V a) { return _mm512_mask_sqrt_pd(a, 0xff, a); }
  static V sin(V a) { return Sleef_sind8_u10avx512f(a); }
  static V cos(V a) { return Sleef_cosd8_u10avx512f(a); }
  static V tan(V a) { return Sleef_tand8_u10avx512f(a); }
  static V sinh(V a) { return Sleef_sinhd8_u10avx512f(a); }
  static V cosh(V a) { return Sleef_coshd8_u10avx512f(a); }
  static V tanh(V a) { return Sleef_tanhd8_u10avx512f(a); }
  static V asin(V a) { return Sleef_asind8_u10avx512f(a); }
  static V acos(V a) { return Sleef_acosd8_u10avx512f(a); }
  static V atan(V a) { return Sleef_atand8_u10avx512f(a); }
  static V floor(V a) { return Sleef_floord8_avx512f(a); }
  static V ceil(V a) { return Sleef_ceild8_avx512f(a); }
  static V tgamma(V a) { return Sleef_tgammad8_u10avx512f(a); }
  static V abs(V a) { return _mm512_abs_pd(a); }
  static V pow(V a, V b) { return Sleef_powd8_u10avx512f(a, b); }
};

}  // namespace
}  // namespace odesens::expr

#include "expr/lane_kernel_impl.hpp"

namespace odesens::expr::isa {
const LaneKernels avx512_kernels = Kernel<LaneMath>::table();
}  // namespace odesens::expr::isa
