// Thread-local scratch buffers for default derivative implementations, which
// are const and must not allocate on every call. A buffer grows to the
// largest size asked for and is then reused by every later call on the
// thread. Distinct slots never alias.
#pragma once

#include <cstddef>
#include <vector>

namespace odesens::detail {

enum class ScratchSlot { fd_plus, fd_minus, fd_shift, dense_jacobian, jacobian_values, count };

inline double* scratch(ScratchSlot slot, std::size_t size) {
  thread_local std::vector<double> buffers[static_cast<int>(ScratchSlot::count)];
  auto& b = buffers[static_cast<int>(slot)];
  if (b.size() < size) b.resize(size);
  return b.data();
}

}  // namespace odesens::detail
