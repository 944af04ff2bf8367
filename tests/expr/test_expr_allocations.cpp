// ExprModel's evaluation services allocate nothing once warm: integrators
// call them in their inner loops. Counts every operator new of this thread
// between two points (support/allocation_counter.hpp).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <new>

#include "expr_test_support.hpp"
#include "support/allocation_counter.hpp"
#include "odesens/odesens.hpp"

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
    m->vjp_accumulate(0.3, x.data(), params.data(), nv, V.data(), out.data(), outp.data(),
                      ws.get());
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

// Model's default vjp_accumulate (chua), and the built-ins' own (glv,
// network), allocate nothing either once the workspace has grown: they run
// in the reverse sweep of erk_adjoint.
TEST(ExprAllocations, VjpAccumulateOfBuiltinsAllocatesNothingOnceWarm) {
  for (const char* spec : {"chua", "glv:7", "network:20"}) {
    auto m = make_builtin_model(spec);
    const std::size_t n = m->nx(), np = m->np(), nw = 5;
    const auto p = m->nominal_params();
    std::vector<double> x(n, 0.3), W(n * nw, 0.5), out_x(n * nw), out_p(np * nw, 0.0);
    const auto ws = m->make_workspace();
    m->vjp_accumulate(0.3, x.data(), p.data(), nw, W.data(), out_x.data(), out_p.data(), ws.get());
    allocations = 0;
    counting = true;
    m->vjp_accumulate(0.3, x.data(), p.data(), nw, W.data(), out_x.data(), out_p.data(), ws.get());
    m->vjp_accumulate(0.3, x.data(), p.data(), nw, W.data(), out_x.data(), nullptr, ws.get());
    counting = false;
    EXPECT_EQ(allocations, 0) << spec;
  }
}

}  // namespace
}  // namespace odesens
