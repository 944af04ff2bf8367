// Lane kernels for the baseline instruction set: L = 1 (the reference every
// other width must reproduce bit for bit) and portable L = 4, 8 for CPUs
// without AVX2/AVX-512. Compiled with -ffp-contract=off.
#include "integrate/erk/lane_kernel_impl.hpp"

namespace odesens::integrate::erk::isa {
const ErkLaneKernels portable_1 = make_kernels<1>("portable");
const ErkLaneKernels portable_4 = make_kernels<4>("portable");
const ErkLaneKernels portable_8 = make_kernels<8>("portable");
}  // namespace odesens::integrate::erk::isa
