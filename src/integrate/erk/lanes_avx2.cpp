// Width 4 on AVX2. Compiled with -mavx2 -ffp-contract=off (no FMA, so each
// lane rounds exactly like the L = 1 kernel); entered only through
// erk_lane_kernels() after a CPU check.
#include "integrate/erk/lane_kernel_impl.hpp"

namespace odesens::integrate::erk::isa {
const ErkLaneKernels avx2_4 = make_kernels<4>("avx2");
}  // namespace odesens::integrate::erk::isa
