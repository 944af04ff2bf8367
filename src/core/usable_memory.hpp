// How much memory this process may allocate, for refusing in advance what
// cannot fit: under overcommit, a sanitizer's allocator or a library that
// does not check its allocations (SUNDIALS 6 in places), asking may not
// fail cleanly.
#pragma once

#include <string>

namespace odesens {

// Bytes of the machine's physical memory, or of the address-space limit
// (ulimit -v) when that is lower; 0 when unknown.
double usable_memory_bytes();

// The machine's physical memory in bytes; 0 when unknown.
double physical_memory_bytes();

// Whether `bytes` fit in half the memory this process may use (true when
// that is unknown): the rest is left to everything else the process holds.
bool fits_in_memory(double bytes);

// Error(out_of_memory) where `bytes` more would not fit in what is left now:
// the address-space limit (ulimit -v) less what the process has mapped, or
// the memory the machine has available. For libraries that crash rather
// than fail where an allocation is refused (SUNDIALS 6's vector clones):
// "out of memory: WHAT would take about X GB, more than the Y GB left ...;
// REMEDY".
// Allocations below kSmallAllocation bytes pass unchecked.
inline constexpr double kSmallAllocation = 64.0 * 1024 * 1024;
void require_allocatable(double bytes, const std::string& what, const std::string& remedy);

// Error(out_of_memory) unless fits_in_memory(bytes): "out of memory: WHAT
// would take about X GB, more than half of the Y GB this process may use;
// REMEDY".
void require_fits_in_memory(double bytes, const std::string& what, const std::string& remedy);

}  // namespace odesens
