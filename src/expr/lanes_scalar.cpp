// Width 1: the scalar evaluators, for every CPU (baseline x86-64 code).
#include <cmath>
#include <cstdint>

namespace odesens::expr {
namespace {

struct LaneMath {
  static constexpr int L = 1;
  using V = double;
  using Bits = std::uint64_t;
  static V exp(V a) { return std::exp(a); }
  static V log(V a) { return std::log(a); }
  static V log10(V a) { return std::log10(a); }
  static V sqrt(V a) { return std::sqrt(a); }
  static V sin(V a) { return std::sin(a); }
  static V cos(V a) { return std::cos(a); }
  static V tan(V a) { return std::tan(a); }
  static V sinh(V a) { return std::sinh(a); }
  static V cosh(V a) { return std::cosh(a); }
  static V tanh(V a) { return std::tanh(a); }
  static V asin(V a) { return std::asin(a); }
  static V acos(V a) { return std::acos(a); }
  static V atan(V a) { return std::atan(a); }
  static V floor(V a) { return std::floor(a); }
  static V ceil(V a) { return std::ceil(a); }
  static V tgamma(V a) { return std::tgamma(a); }
  static V abs(V a) { return std::fabs(a); }
  static V pow(V a, V b) { return std::pow(a, b); }
};

}  // namespace
}  // namespace odesens::expr

#include "expr/lane_kernel_impl.hpp"

namespace odesens::expr::isa {
const LaneKernels scalar_kernels = Kernel<LaneMath>::table();
}  // namespace odesens::expr::isa
