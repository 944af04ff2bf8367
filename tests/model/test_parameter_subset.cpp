// The parameter-subset model: every service equals the full model's at the
// same parameters, restricted to the free ones; solves give the full
// model's S columns of the free parameters; bad arguments are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "model/parameter_subset.hpp"
#include "odesens/odesens.hpp"
#include "support/max_abs.hpp"

namespace odesens {
namespace {

// Parameters in f, in x0, in an event's trigger, delay-free assignment and
// in an output: each service has a parameter part to restrict.
const char* kModel = R"(
param k1 = 0.7
param k2 = 0.3
param a0 = 1.5
param tdose = 2.0
param dose = 0.4
param c = 2.0
state A = a0
state B = 0
let s = c * B
dA/dt = -k1 * A + k2 * B
dB/dt = k1 * A - k2 * B - 0.1 * B * B + piecewise(0.2 * c, A > k2, 0)
event give when t >= tdose: A = A + dose * c
event late when t >= 1 after 0.5 * c: B = B + k2 * dose; A = A * c
output y = s + k2 * A
time t_end = 5
)";

struct Fixture {
  std::shared_ptr<const Model> full = load_ode_text(kModel, "subset.ode");
  std::vector<std::size_t> free{4, 0, 3};  // dose, k1, tdose: not in the full order
  std::vector<double> values{0.9, 0.25, 1.2, 2.5, 0.6, 1.7};
  std::shared_ptr<const Model> sub = parameter_subset(full, free, values);

  // The subset's parameters at `values`, perturbed so that they differ
  // from the nominal ones the subset model was made with.
  std::vector<double> q() const { return {0.55, 0.95, 2.45}; }
  std::vector<double> full_params() const {
    std::vector<double> p = values;
    const std::vector<double> v = q();
    for (std::size_t k = 0; k < free.size(); ++k) p[free[k]] = v[k];
    return p;
  }
};

TEST(ParameterSubset, NamesSizesAndNominalValues) {
  Fixture f;
  EXPECT_EQ(f.sub->nx(), 2u);
  ASSERT_EQ(f.sub->np(), 3u);
  EXPECT_EQ(f.sub->param_names(), (std::vector<std::string>{"dose", "k1", "tdose"}));
  // The full model's nominal dose, k1, tdose (not the values given, whose
  // free entries are not read).
  EXPECT_EQ(f.sub->nominal_params(), (std::vector<double>{0.4, 0.7, 2.0}));
  EXPECT_EQ(f.sub->state_names(), f.full->state_names());
}

TEST(ParameterSubset, ServicesAreTheFullModelsRestricted) {
  Fixture f;
  const std::size_t nx = 2, npf = 6, nps = 3;
  const std::vector<double> q = f.q(), p = f.full_params();
  const double x[2] = {0.8, 0.45}, t = 1.3;
  auto ws = f.sub->make_workspace();
  auto column = [&](const std::vector<double>& all, std::size_t rows, std::size_t k) {
    return std::vector<double>(all.begin() + f.free[k] * rows,
                               all.begin() + (f.free[k] + 1) * rows);
  };
  // x0, dx0/dp, f, J_x, J_p.
  std::vector<double> a(nx * npf), b(nx * nps), xa(nx), xb(nx);
  f.full->initial_state(p.data(), xa.data());
  f.sub->initial_state(q.data(), xb.data(), ws.get());
  EXPECT_EQ(xa, xb);
  f.full->initial_sensitivity(p.data(), a.data());
  f.sub->initial_sensitivity(q.data(), b.data(), ws.get());
  for (std::size_t k = 0; k < nps; ++k)
    EXPECT_EQ(column(a, nx, k), std::vector<double>(b.begin() + k * nx, b.begin() + (k + 1) * nx));
  f.full->rhs(t, x, p.data(), xa.data());
  f.sub->rhs(t, x, q.data(), xb.data(), ws.get());
  EXPECT_EQ(xa, xb);
  f.full->jac_p(t, x, p.data(), a.data());
  f.sub->jac_p(t, x, q.data(), b.data(), ws.get());
  for (std::size_t k = 0; k < nps; ++k)
    EXPECT_EQ(column(a, nx, k), std::vector<double>(b.begin() + k * nx, b.begin() + (k + 1) * nx));
  // J_p's pattern and values agree with the dense restriction.
  const SparsityPattern* pattern = f.sub->jac_p_pattern();
  ASSERT_NE(pattern, nullptr);
  EXPECT_NO_THROW(pattern->validate());
  ASSERT_EQ(pattern->cols, nps);
  std::vector<double> values(pattern->nnz());
  f.sub->jac_p_values(t, x, q.data(), values.data(), ws.get());
  for (std::size_t j = 0; j < nps; ++j)
    for (auto e = pattern->col_ptr[j]; e < pattern->col_ptr[j + 1]; ++e)
      EXPECT_EQ(
          values[static_cast<std::size_t>(e)],
          b[static_cast<std::size_t>(pattern->row_idx[static_cast<std::size_t>(e)]) + j * nx]);
  // J_p^T W, alone and accumulated.
  const double W[4] = {0.3, -1.1, 2.0, 0.7};  // nx x 2
  std::vector<double> va(npf * 2), vb(nps * 2), ox(nx * 2), acc(nps * 2, 1.0);
  f.full->vjp_p(t, x, p.data(), 2, W, va.data());
  f.sub->vjp_p(t, x, q.data(), 2, W, vb.data(), ws.get());
  f.sub->vjp_accumulate(t, x, q.data(), 2, W, ox.data(), acc.data(), ws.get());
  for (std::size_t c = 0; c < 2; ++c)
    for (std::size_t k = 0; k < nps; ++k) {
      EXPECT_EQ(vb[k + c * nps], va[f.free[k] + c * npf]);
      EXPECT_DOUBLE_EQ(acc[k + c * nps], 1.0 + va[f.free[k] + c * npf]);
    }
}

// The services without a parameter part are the full model's, with or
// without a workspace; the products in p over points and the one-off
// path give what the dense restriction gives.
TEST(ParameterSubset, StateServicesAndProductsOverPoints) {
  Fixture f;
  const std::size_t nx = 2, npf = 6, nps = 3;
  const std::vector<double> q = f.q(), p = f.full_params();
  const double x[2] = {0.8, 0.45}, t = 1.3;
  auto ws = f.sub->make_workspace();
  std::vector<double> a(nx * nx), b(nx * nx);
  f.full->jac_x(t, x, p.data(), a.data());
  f.sub->jac_x(t, x, q.data(), b.data(), ws.get());
  EXPECT_EQ(a, b);
  f.sub->jac_x(t, x, q.data(), b.data());  // a one-off call: a workspace of its own
  EXPECT_EQ(a, b);
  std::vector<double> da(nx), db(nx);
  f.full->dfdt(t, x, p.data(), da.data());
  f.sub->dfdt(t, x, q.data(), db.data(), ws.get());
  EXPECT_EQ(da, db);
  const double V[4] = {0.3, -1.1, 2.0, 0.7};
  f.full->jvp(t, x, p.data(), 2, V, a.data());
  f.sub->jvp(t, x, q.data(), 2, V, b.data(), ws.get());
  EXPECT_EQ(a, b);
  f.full->vjp_x(t, x, p.data(), 2, V, a.data());
  f.sub->vjp_x(t, x, q.data(), 2, V, b.data(), ws.get());
  EXPECT_EQ(a, b);
  std::vector<double> ox(nx * 2);
  f.sub->vjp_accumulate(t, x, q.data(), 2, V, ox.data(), nullptr, ws.get());  // J_x^T W alone
  EXPECT_EQ(ox, a);
  // Two points, summed: J_p(t_q, X_q)^T W_q.
  const double ts[2] = {0.4, 2.7}, X[4] = {0.8, 0.45, 0.3, 1.2};
  std::vector<double> full_sum(npf * 2, 0.0), sub_sum(nps * 2, 0.5);
  f.full->vjp_p_accumulate_points(2, ts, X, p.data(), 1, V, full_sum.data());
  f.sub->vjp_p_accumulate_points(2, ts, X, q.data(), 1, V, sub_sum.data(), ws.get());
  for (std::size_t k = 0; k < nps; ++k) EXPECT_DOUBLE_EQ(sub_sum[k], 0.5 + full_sum[f.free[k]]);
  // f on the branches of a point, P per point (nps rows).
  const EventSystem* full_events = f.full->event_system();
  const EventSystem* events = f.sub->event_system();
  ASSERT_FALSE(events->branch_roots().empty());
  const std::vector<double> truth(events->branch_roots().size(), 1.0);
  std::vector<double> P_full(npf * 2), P_sub(nps * 2);
  for (std::size_t l = 0; l < 2; ++l) {
    for (std::size_t j = 0; j < npf; ++j) P_full[j + l * npf] = p[j] * (1.0 + 0.1 * l);
    for (std::size_t k = 0; k < nps; ++k) P_sub[k + l * nps] = P_full[f.free[k] + l * npf];
  }
  // The held ones must be the subset's own: only the free rows move.
  for (std::size_t j = 0; j < npf; ++j)
    if (std::find(f.free.begin(), f.free.end(), j) == f.free.end()) P_full[j + npf] = p[j];
  std::vector<double> Fa(nx * 2), Fb(nx * 2);
  full_events->rhs_points_on_branches(2, ts, X, P_full.data(), truth.data(), Fa.data());
  events->rhs_points_on_branches(2, ts, X, P_sub.data(), truth.data(), Fb.data(), ws.get());
  EXPECT_EQ(Fa, Fb);
  // The products on the same branches: J_x^T W stored, J_p^T W added.
  std::vector<double> vx_a(nx * 2), vx_b(nx * 2), vp_a(npf * 2, 0.0), vp_b(nps * 2, 0.25);
  full_events->vjp_on_branches(t, x, p.data(), truth.data(), 2, V, vx_a.data(), vp_a.data());
  events->vjp_on_branches(t, x, q.data(), truth.data(), 2, V, vx_b.data(), vp_b.data(), ws.get());
  EXPECT_EQ(vx_a, vx_b);
  for (std::size_t c = 0; c < 2; ++c)
    for (std::size_t k = 0; k < nps; ++k)
      EXPECT_DOUBLE_EQ(vp_b[k + c * nps], 0.25 + vp_a[f.free[k] + c * npf]);
  // The delayed event: its delay 0.5 c and d(delay)/dp (c is held: zero).
  double dt_a, dt_b, dx_a[2], dx_b[2];
  std::vector<double> dp_a(npf), dp_b(nps, 7.0);
  EXPECT_EQ(events->delay(1, t, x, q.data(), ws.get()), full_events->delay(1, t, x, p.data()));
  EXPECT_DOUBLE_EQ(events->delay(1, t, x, q.data(), ws.get()), 0.5 * 1.7);
  full_events->delay_gradient(1, t, x, p.data(), &dt_a, dx_a, dp_a.data());
  events->delay_gradient(1, t, x, q.data(), &dt_b, dx_b, dp_b.data(), ws.get());
  for (std::size_t k = 0; k < nps; ++k) EXPECT_EQ(dp_b[k], dp_a[f.free[k]]);
  EXPECT_EQ(events->priority(1, t, x, q.data(), ws.get()),
            full_events->priority(1, t, x, p.data()));
  // Two targets: h_p is 2 x np.
  ASSERT_EQ(events->events()[1].targets.size(), 2u);
  double ht[2], hx[4];
  std::vector<double> hp_a(2 * npf), hp_b(2 * nps);
  full_events->assignment_jacobians(1, t, x, p.data(), ht, hx, hp_a.data());
  events->assignment_jacobians(1, t, x, q.data(), ht, hx, hp_b.data(), ws.get());
  for (std::size_t k = 0; k < nps; ++k)
    for (std::size_t r = 0; r < 2; ++r) EXPECT_EQ(hp_b[r + k * 2], hp_a[r + f.free[k] * 2]);
  // The observables' gradients in p.
  const ObservableSet* obs = f.sub->observable_set();
  for (std::size_t m = 0; m < obs->observable_names().size(); ++m)
    if (obs->observable_names()[m] == "y") {
      std::vector<double> gx_a(nx), gx_b(nx), gp_a(npf), gp_b(nps);
      const std::size_t w[1] = {m};
      f.full->observable_set()->observable_gradients(t, x, p.data(), 1, w, gx_a.data(),
                                                     gp_a.data());
      obs->observable_gradients(t, x, q.data(), 1, w, gx_b.data(), gp_b.data(), ws.get());
      EXPECT_EQ(gx_a, gx_b);
      for (std::size_t k = 0; k < nps; ++k) EXPECT_EQ(gp_b[k], gp_a[f.free[k]]);
    }
}

TEST(ParameterSubset, EventsAndObservablesAreRestrictedToo) {
  Fixture f;
  const std::size_t npf = 6, nps = 3;
  const std::vector<double> q = f.q(), p = f.full_params();
  const double x[2] = {0.8, 0.45}, t = 2.2;
  auto ws = f.sub->make_workspace();
  const EventSystem* full_events = f.full->event_system();
  const EventSystem* events = f.sub->event_system();
  ASSERT_NE(full_events, nullptr);
  ASSERT_NE(events, nullptr);
  ASSERT_EQ(events->roots().size(), full_events->roots().size());
  std::vector<double> ga(full_events->roots().size()), gb(ga.size());
  full_events->root_values(t, x, p.data(), ga.data());
  events->root_values(t, x, q.data(), gb.data(), ws.get());
  EXPECT_EQ(ga, gb);
  // Every root's dg/dp; the dose time's root, +-(t - tdose), has +-1 for tdose.
  bool dose_root = false;
  for (std::size_t i = 0; i < events->roots().size(); ++i) {
    double gt_a, gt_b, gx_a[2], gx_b[2];
    std::vector<double> gp_a(npf), gp_b(nps);
    full_events->root_gradient(i, t, x, p.data(), &gt_a, gx_a, gp_a.data());
    events->root_gradient(i, t, x, q.data(), &gt_b, gx_b, gp_b.data(), ws.get());
    for (std::size_t k = 0; k < nps; ++k) EXPECT_EQ(gp_b[k], gp_a[f.free[k]]);
    dose_root = dose_root || std::abs(gp_b[2]) == 1.0;  // g = +-(t - tdose)
  }
  EXPECT_TRUE(dose_root);
  // The assignment A + dose * c: dh/d(dose) = c = 1.7, held.
  double ht_a, ht_b, hx_a[2], hx_b[2], ha_v, hb_v;
  std::vector<double> hp_a(npf), hp_b(nps);
  full_events->assignment_values(0, t, x, p.data(), &ha_v);
  events->assignment_values(0, t, x, q.data(), &hb_v, ws.get());
  EXPECT_EQ(ha_v, hb_v);
  full_events->assignment_jacobians(0, t, x, p.data(), &ht_a, hx_a, hp_a.data());
  events->assignment_jacobians(0, t, x, q.data(), &ht_b, hx_b, hp_b.data(), ws.get());
  for (std::size_t k = 0; k < nps; ++k) EXPECT_EQ(hp_b[k], hp_a[f.free[k]]);
  EXPECT_DOUBLE_EQ(hp_b[0], 1.7);
  // Observables.
  const ObservableSet* full_obs = f.full->observable_set();
  const ObservableSet* obs = f.sub->observable_set();
  ASSERT_NE(obs, nullptr);
  const std::size_t n_obs = obs->observable_names().size();
  std::vector<double> oa(n_obs), ob(n_obs);
  full_obs->observables(t, x, p.data(), oa.data());
  obs->observables(t, x, q.data(), ob.data(), ws.get());
  EXPECT_EQ(oa, ob);
}

// odeSD's second derivatives: a = df/dt along x' = f and its partial
// derivatives in x and t are the full model's; da/dp, dense and on its
// pattern, is restricted to the free columns.
TEST(ParameterSubset, SecondDerivativesAreTheFullModelsRestricted) {
  Fixture f;
  const SecondDerivatives* full = f.full->second_derivatives();
  ASSERT_NE(full, nullptr);
  const SecondDerivatives* sub = f.sub->second_derivatives();
  ASSERT_NE(sub, nullptr);
  const std::size_t nx = 2, npf = 6, nps = 3;
  const std::vector<double> q = f.q(), p = f.full_params();
  const double x[2] = {0.8, 0.45}, t = 1.3;
  auto ws = f.sub->make_workspace();
  std::vector<double> a(nx), b(nx);
  full->xddot(t, x, p.data(), a.data());
  sub->xddot(t, x, q.data(), b.data(), ws.get());
  EXPECT_EQ(a, b);
  full->xddot_dt(t, x, p.data(), a.data());
  sub->xddot_dt(t, x, q.data(), b.data(), ws.get());
  EXPECT_EQ(a, b);
  std::vector<double> ja(nx * nx), jb(nx * nx);
  full->xddot_jac_x(t, x, p.data(), ja.data());
  sub->xddot_jac_x(t, x, q.data(), jb.data(), ws.get());
  EXPECT_EQ(ja, jb);
  // Without a workspace too (a one-off call's own).
  std::vector<double> pa(nx * npf), pb(nx * nps), pc(nx * nps);
  full->xddot_jac_p(t, x, p.data(), pa.data());
  sub->xddot_jac_p(t, x, q.data(), pb.data(), ws.get());
  sub->xddot_jac_p(t, x, q.data(), pc.data(), nullptr);
  EXPECT_EQ(pb, pc);
  for (std::size_t k = 0; k < nps; ++k)
    for (std::size_t i = 0; i < nx; ++i)
      EXPECT_EQ(pb[i + k * nx], pa[i + f.free[k] * nx]) << "state " << i << ", column " << k;
  // da/dp's pattern and values agree with the dense restriction.
  const SparsityPattern* pattern = sub->xddot_jac_p_pattern();
  if (full->xddot_jac_p_pattern() == nullptr) {
    EXPECT_EQ(pattern, nullptr);
    return;
  }
  ASSERT_NE(pattern, nullptr);
  EXPECT_NO_THROW(pattern->validate());
  ASSERT_EQ(pattern->cols, nps);
  std::vector<double> values(pattern->nnz());
  sub->xddot_jac_p_values(t, x, q.data(), values.data(), ws.get());
  for (std::size_t j = 0; j < nps; ++j)
    for (auto e = pattern->col_ptr[j]; e < pattern->col_ptr[j + 1]; ++e)
      EXPECT_EQ(
          values[static_cast<std::size_t>(e)],
          pb[static_cast<std::size_t>(pattern->row_idx[static_cast<std::size_t>(e)]) + j * nx]);
}

// cvodes_fsa and odesd on the subset give the full model's S columns of the
// free parameters (through the event, whose time depends on tdose), and
// cvodes_asa its gradient's entries.
TEST(ParameterSubset, SolvesGiveTheFullModelsColumns) {
  Fixture f;
  Problem full_problem;
  full_problem.model = f.full;
  full_problem.params = f.full_params();
  full_problem.output_times = {0.5, 1.0, 3.0, 5.0};
  full_problem.rtol = 1e-10;
  full_problem.atol = {1e-12};
  Problem sub_problem = full_problem;
  sub_problem.model = f.sub;
  sub_problem.params = f.q();
  for (const char* method : {"cvodes_fsa", "odesd", "cvodes_asa"}) {
    SCOPED_TRACE(method);
    const Result a = solve(full_problem, method);
    const Result b = solve(sub_problem, method);
    EXPECT_LT(testing::max_abs_diff(a.x, b.x), 1e-8);
    if (std::string(method) != "cvodes_asa") {
      const std::size_t nx = 2, npf = 6, nps = 3, nt = 4;
      ASSERT_EQ(b.s.size(), nt * nx * nps);
      for (std::size_t k = 0; k < nt; ++k)
        for (std::size_t j = 0; j < nps; ++j)
          for (std::size_t i = 0; i < nx; ++i)
            EXPECT_NEAR(b.s[i + j * nx + k * nx * nps], a.s[i + f.free[j] * nx + k * nx * npf],
                        1e-7)
                << "t index " << k << ", parameter " << f.sub->param_names()[j];
    } else {
      ASSERT_EQ(b.gradient.size(), 3u);
      for (std::size_t j = 0; j < 3; ++j)
        EXPECT_NEAR(b.gradient[j], a.gradient[f.free[j]],
                    1e-7 * (1 + std::abs(a.gradient[f.free[j]])));
    }
  }
}

TEST(ParameterSubset, RefusesBadArguments) {
  Fixture f;
  auto refused = [&](std::vector<std::size_t> free, std::vector<double> values) {
    try {
      parameter_subset(f.full, std::move(free), std::move(values));
    } catch (const Error& e) {
      return e.status() == Status::invalid_argument;
    }
    return false;
  };
  EXPECT_TRUE(refused({6}, f.values));     // out of range
  EXPECT_TRUE(refused({1, 1}, f.values));  // twice
  EXPECT_TRUE(refused({1}, {1.0, 2.0}));   // values of another model
  EXPECT_THROW(parameter_subset(nullptr, {}, {}), Error);
  // Another model's workspace.
  auto other = f.full->make_workspace();
  double xdot[2];
  const double x[2] = {1.0, 1.0};
  EXPECT_THROW(f.sub->rhs(0.0, x, f.q().data(), xdot, other.get()), Error);
  // Every parameter held: a model without parameters that still solves.
  auto none = parameter_subset(f.full, {}, f.values);
  EXPECT_EQ(none->np(), 0u);
  Problem problem;
  problem.model = none;
  problem.output_times = {1.0, 3.0};
  const Result r = solve(problem, "cvodes_fsa");
  EXPECT_EQ(r.x.size(), 4u);
  EXPECT_TRUE(std::isfinite(r.x[3]));
}

}  // namespace
}  // namespace odesens
