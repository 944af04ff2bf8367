// Replacement global allocation functions that count (allocation_counter.hpp).
#include "support/allocation_counter.hpp"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace odesens::testing {
thread_local bool counting = false;
thread_local long allocations = 0;
thread_local long failing_at = -1;
}  // namespace odesens::testing

// Every form of the global allocation functions, so that whatever the
// library (or the standard library) calls is counted and pairs with free().
namespace {
void* allocate(std::size_t n, std::size_t align) {
  using namespace odesens::testing;
  if (counting && allocations++ == failing_at) return nullptr;
  if (n == 0) n = 1;
  return align <= alignof(std::max_align_t)
             ? std::malloc(n)
             : std::aligned_alloc(align, (n + align - 1) / align * align);
}
void* allocate_or_throw(std::size_t n, std::size_t align) {
  if (void* p = allocate(n, align)) return p;
  throw std::bad_alloc();
}
constexpr std::size_t kPlain = alignof(std::max_align_t);
}  // namespace

void* operator new(std::size_t n) { return allocate_or_throw(n, kPlain); }
void* operator new[](std::size_t n) { return allocate_or_throw(n, kPlain); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, kPlain); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, kPlain); }
void* operator new(std::size_t n, std::align_val_t a) {
  return allocate_or_throw(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return allocate_or_throw(n, static_cast<std::size_t>(a));
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, static_cast<std::size_t>(a));
}
// Every allocation function above takes its memory from malloc, so free
// matches; GCC sees only the operator's name (at -O1 it warns).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

