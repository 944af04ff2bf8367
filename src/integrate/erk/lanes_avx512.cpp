// Width 8 on AVX-512F. Compiled with -mavx512f -ffp-contract=off (no FMA, so
// each lane rounds exactly like the L = 1 kernel); entered only through
// erk_lane_kernels() after a CPU check.
#include "integrate/erk/lane_kernel_impl.hpp"

namespace odesens::integrate::erk::isa {
const ErkLaneKernels avx512_8 = make_kernels<8>("avx512f");
}  // namespace odesens::integrate::erk::isa
