// Width 1: the scalar evaluators, for every CPU (baseline x86-64 code).
#include <cstdint>

#include "expr/scalar_ops.hpp"

namespace odesens::expr {
namespace {

// One lane computes what constant folding computes: the libm functions.
struct LaneMath : ScalarMath {
  static constexpr int L = 1;
  using Bits = std::uint64_t;
};

}  // namespace
}  // namespace odesens::expr

#include "expr/lane_kernel_impl.hpp"

namespace odesens::expr::isa {
const LaneKernels scalar_kernels = Kernel<LaneMath>::table();
}  // namespace odesens::expr::isa
