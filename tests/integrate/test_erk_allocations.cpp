// The ERK step loop allocates nothing: the workspace is sized once. Counts
// every operator new of this thread between two points (the replacement
// operators serve the whole test program and count only while asked to, as
// in tests/expr/test_expr_allocations.cpp).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#include "erk_test_problems.hpp"
#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_stepped_solution.hpp"
#include "integrate/output_grid.hpp"

namespace {
thread_local bool counting = false;
thread_local long allocations = 0;

void* allocate(std::size_t n, std::size_t align) {
  if (counting) ++allocations;
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

namespace odesens::integrate::erk {
namespace {

class ErkAllocations : public ::testing::TestWithParam<std::tuple<TableauId, int>> {};

TEST_P(ErkAllocations, ResetStepsAndDenseOutputAllocateNothing) {
  const auto [id, lanes] = GetParam();
  testing::LotkaVolterra system(lanes);
  ErkWorkspace ws(tableau(id), 2, lanes);
  ErkSettings settings;
  settings.tolerances.rtol = settings.tolerances.atol = 1e-8;
  ErkEngine engine(system, ws, settings);
  ErkSteppedSolution solution(engine);
  std::vector<double> x0(2 * lanes, 1.0), out(2 * lanes), grid(2 * lanes * 20);
  std::vector<double> times(20);
  for (int k = 0; k < 20; ++k) times[k] = 2.0 + 0.15 * k;  // from where the steps stop
  counting = true;
  allocations = 0;
  engine.reset(0.0, x0.data(), 5.0);  // the HNW starting step included
  while (engine.t() < 2.0) engine.step(2.0);
  engine.interpolate(0.5 * (engine.t_previous() + engine.t()), out.data());
  reach_outputs(solution, times.data(), times.size(), OutputGridSettings{}, grid.data());
  const long counted = allocations;
  counting = false;
  EXPECT_EQ(counted, 0) << tableau(id).name << " L = " << lanes;
  EXPECT_GT(engine.stats().accepted, 10);
}

INSTANTIATE_TEST_SUITE_P(Tableaux, ErkAllocations,
                         ::testing::Combine(::testing::Values(TableauId::bs3, TableauId::cash_karp,
                                                              TableauId::dopri5, TableauId::dop853),
                                            ::testing::Values(1, 4)),
                         [](const auto& p) {
                           return std::string(tableau(std::get<0>(p.param)).name) + "_L" +
                                  std::to_string(std::get<1>(p.param));
                         });

// The counter itself works: a vector allocates.
TEST(ErkAllocations, CounterSeesAnAllocation) {
  counting = true;
  allocations = 0;
  std::vector<double>* v = new std::vector<double>(10);
  const long counted = allocations;
  counting = false;
  delete v;
  EXPECT_GE(counted, 2);
}

}  // namespace
}  // namespace odesens::integrate::erk
