// One prepared model, shared read-only by several threads, each with its own
// Workspace: every evaluation and every solve gives bitwise the results of
// one thread alone. Run under ThreadSanitizer by scripts/test.sh, which
// then also proves that nothing in a model is written during evaluation.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "odesens/odesens.hpp"

namespace odesens {
namespace {

// A small model with transcendental functions, parameter-only work (the
// cached prefix), lets, outputs and non-trivial second derivatives.
const char* kModel = R"(
param k1 = 0.8
param k2 = 1.7
param km = 0.4
state a = 1.0
state b = 0.2
state c = 0.0
let v = k1 * a / (km + a)
output total = a + b + c
da/dt = -v + 0.1 * sin(t) * c
db/dt = v - k2 * b * exp(-b)
dc/dt = k2 * b * exp(-b) - 0.1 * sin(t) * c + log(1 + k1 * k2)
)";

// Every service of the model at a few points, with one workspace.
std::vector<double> evaluate_everything(const ExprModel& m, Workspace& ws, int round) {
  const std::size_t n = m.nx(), np = m.np();
  std::vector<double> out;
  auto append = [&](const std::vector<double>& v) { out.insert(out.end(), v.begin(), v.end()); };
  for (int k = 0; k < 20; ++k) {
    const double t = 0.1 * (k + round);
    std::vector<double> x = {1.0 + 0.01 * k, 0.2 + 0.02 * k, 0.05 * k};
    // Parameters change every other point, so cached prefixes are redone.
    std::vector<double> p = {0.8 + 0.1 * (k % 2), 1.7, 0.4 + 0.05 * (k % 3)};
    std::vector<double> f(n), J(n * n), Jp(n * np), V(n * 5, 0.5), jv(n * 5), wx(n * 5),
        wp(np * 5), a(n), Ja(n * n), Jap(n * np), obs(m.observable_names().size());
    m.rhs(t, x.data(), p.data(), f.data(), &ws);
    m.jac_x(t, x.data(), p.data(), J.data(), &ws);
    m.jac_p(t, x.data(), p.data(), Jp.data(), &ws);
    m.jvp(t, x.data(), p.data(), 5, V.data(), jv.data(), &ws);
    m.vjp(t, x.data(), p.data(), 5, V.data(), wx.data(), wp.data(), &ws);
    m.xddot(t, x.data(), p.data(), a.data(), &ws);
    m.xddot_jac_x(t, x.data(), p.data(), Ja.data(), &ws);
    m.xddot_jac_p(t, x.data(), p.data(), Jap.data(), &ws);
    m.observables(t, x.data(), p.data(), obs.data(), &ws);
    for (const auto* v : {&f, &J, &Jp, &jv, &wx, &wp, &a, &Ja, &Jap, &obs}) append(*v);
  }
  return out;
}

TEST(SharedModelThreads, EvaluationsWithOwnWorkspacesAreBitIdentical) {
  const std::shared_ptr<const ExprModel> model = load_ode_text(kModel, "threads.ode");
  std::vector<std::vector<double>> expected(2);
  for (int r = 0; r < 2; ++r) {
    auto ws = model->make_workspace();
    expected[r] = evaluate_everything(*model, *ws, r);
  }
  std::vector<std::vector<double>> got(2);
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r)
    threads.emplace_back([&, r] {
      auto ws = model->make_workspace();
      for (int repeat = 0; repeat < 3; ++repeat) got[r] = evaluate_everything(*model, *ws, r);
    });
  for (auto& t : threads) t.join();
  for (int r = 0; r < 2; ++r) EXPECT_EQ(got[r], expected[r]) << "thread " << r;
}

TEST(SharedModelThreads, AWorkspaceOfAnotherModelIsRefused) {
  auto m1 = load_ode_text(kModel, "one.ode");
  auto m2 = load_ode_text(kModel, "two.ode");
  auto ws = m1->make_workspace();
  std::vector<double> x = {1.0, 0.2, 0.0}, f(3);
  const auto p = m2->nominal_params();
  try {
    m2->rhs(0.0, x.data(), p.data(), f.data(), ws.get());
    FAIL() << "a foreign workspace was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
  }
}

// Solves of one shared model on two threads at once equal a solve alone,
// for every method.
TEST(SharedModelThreads, ConcurrentSolvesEqualASolveAlone) {
  const std::shared_ptr<const Model> model = load_ode_text(kModel, "threads.ode");
  for (const auto& info : method_infos()) {
    Problem problem;
    problem.model = model;
    problem.output_times = {0.5, 1.0, 2.0};
    if (info.capabilities.parameter_box) {  // +-10% around the nominal values
      for (double p : model->nominal_params()) {
        problem.param_lower.push_back(0.9 * p);
        problem.param_upper.push_back(1.1 * p);
      }
      problem.options.set("order", 2);
    }
    const Result alone = solve(problem, info.id);
    std::vector<Result> results(2);
    std::vector<std::thread> threads;
    for (int r = 0; r < 2; ++r)
      threads.emplace_back([&, r] { results[r] = solve(problem, info.id); });
    for (auto& t : threads) t.join();
    for (const Result& r : results) {
      EXPECT_EQ(r.x, alone.x) << info.id;
      EXPECT_EQ(r.s, alone.s) << info.id;
      EXPECT_EQ(r.bounds.x_coef, alone.bounds.x_coef) << info.id;
      EXPECT_EQ(r.bounds.s_rem, alone.bounds.s_rem) << info.id;
      EXPECT_EQ(r.bounds.gradient_hull, alone.bounds.gradient_hull) << info.id;
      EXPECT_EQ(r.gradient, alone.gradient) << info.id;
    }
  }
}

// Solves whose dense linear algebra is large enough to matter (glv:20:
// 20 states, 420 parameters; 21 x 440 exponentials, LU solves with 420
// right-hand sides) on two threads at once, repeatedly, equal a solve
// alone bit for bit: BLAS keeps no state shared between solves (a build
// with an unlocked BLAS buffer pool fails this).
TEST(SharedModelThreads, ConcurrentBlasHeavySolvesEqualASolveAlone) {
  const std::shared_ptr<const Model> model = make_builtin_model("glv:20");
  for (const char* method : {"exp", "pbsr", "cvodes_fsa"}) {
    Problem problem;
    problem.model = model;
    problem.output_times = {0.0, 1.0, 2.0};
    const Result alone = solve(problem, method);
    std::vector<std::vector<Result>> results(2, std::vector<Result>(3));
    std::vector<std::thread> threads;
    for (int r = 0; r < 2; ++r)
      threads.emplace_back([&, r] {
        for (auto& result : results[r]) result = solve(problem, method);
      });
    for (auto& t : threads) t.join();
    for (const auto& per_thread : results)
      for (const Result& r : per_thread) {
        EXPECT_EQ(r.x, alone.x) << method;
        EXPECT_EQ(r.s, alone.s) << method;
      }
  }
}

}  // namespace
}  // namespace odesens
