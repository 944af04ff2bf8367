// ExprModel's evaluation services allocate nothing once warm: integrators
// call them in their inner loops. Counts every operator new of this thread
// between two points (the replacement operators below serve the whole test
// program, and count only while a test asks them to).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <new>

#include "expr_test_support.hpp"
#include "odesens/odesens.hpp"

namespace {
thread_local bool counting = false;
thread_local long allocations = 0;
}  // namespace

// Every form of the global allocation functions, so that whatever the
// library (or the standard library) calls is counted and pairs with free().
namespace {
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

namespace odesens {
namespace {

TEST(ExprAllocations, EvaluationServicesAllocateNothingOnceWarm) {
  ODESENS_REQUIRE_SHARED_MODEL("camkii.ode");
  auto m = load_ode_file(expr_testing::ode_model_path("camkii.ode"));
  const auto p = expr_testing::probe_params(*m);
  const auto x = expr_testing::probe_state(*m, p);
  const std::size_t n = m->nx(), np = m->np(), nv = 11;
  std::vector<double> f(n), J(n * n), Jv(m->jac_x_pattern()->nnz()), Jp(n * np), V(n * nv, 0.5),
      out(n * nv), outp(np * nv), x0(n), S0(n * np), xdd(n), JJ(n * n), JJp(n * np),
      pts_t(3, 0.1), X(n * 3), P(np * 3), F(n * 3);
  for (std::size_t k = 0; k < 3; ++k) {
    std::copy(x.begin(), x.end(), X.begin() + static_cast<std::ptrdiff_t>(k * n));
    std::copy(p.begin(), p.end(), P.begin() + static_cast<std::ptrdiff_t>(k * np));
  }
  const auto ws = m->make_workspace();
  auto all = [&](const std::vector<double>& params) {
    m->rhs(0.3, x.data(), params.data(), f.data(), ws.get());
    m->jac_x(0.3, x.data(), params.data(), J.data(), ws.get());
    m->jac_x_values(0.3, x.data(), params.data(), Jv.data(), ws.get());
    m->jac_p(0.3, x.data(), params.data(), Jp.data(), ws.get());
    m->jvp(0.3, x.data(), params.data(), nv, V.data(), out.data(), ws.get());
    m->vjp_x(0.3, x.data(), params.data(), nv, V.data(), out.data(), ws.get());
    m->vjp_p(0.3, x.data(), params.data(), nv, V.data(), outp.data(), ws.get());
    m->initial_state(params.data(), x0.data(), ws.get());
    m->initial_sensitivity(params.data(), S0.data(), ws.get());
    m->xddot(0.3, x.data(), params.data(), xdd.data(), ws.get());
    m->xddot_jac_x(0.3, x.data(), params.data(), JJ.data(), ws.get());
    m->xddot_jac_p(0.3, x.data(), params.data(), JJp.data(), ws.get());
    m->rhs_points(3, pts_t.data(), X.data(), P.data(), F.data(), ws.get());
  };
  counting = true;  // the counter sees allocations, aligned ones included
  { std::vector<double> probe(3); }
  ::operator delete(::operator new(32, std::align_val_t(64)), std::align_val_t(64));
  counting = false;
  ASSERT_EQ(allocations, 2);
  allocations = 0;

  all(p);  // warm: builds the second-order tapes, grows the register files
  auto q = p;
  q[0] *= 1.5;
  counting = true;
  all(p);
  all(q);  // new parameters: the cached prefixes are recomputed in place
  counting = false;
  EXPECT_EQ(allocations, 0);
}

}  // namespace
}  // namespace odesens
