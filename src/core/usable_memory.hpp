// How much memory this process may allocate, for refusing in advance what
// cannot fit: under overcommit, a sanitizer's allocator or a library that
// does not check its allocations (SUNDIALS 6 in places), asking may not
// fail cleanly.
#pragma once

namespace odesens {

// Bytes of the machine's physical memory, or of the address-space limit
// (ulimit -v) when that is lower; 0 when unknown.
double usable_memory_bytes();

// The machine's physical memory in bytes; 0 when unknown.
double physical_memory_bytes();

}  // namespace odesens
