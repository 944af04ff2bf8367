// erk_adjoint next to the adjoint paper's experiments (Martins & Lakshtanov
// 2024, section 4), one section per run:
//   tables   Tables 1-2: heat2d, Euler and RK4 at dt 5e-5, relative error
//            (59) of dx(t_f)/dalpha against the closed form (57), in 1e-1 %
//            (Np = 10, 30; 50 with --long)
//   fig2     vanderpol (mu = 1000, t in [0, 0.5]), tol 1e-3 ... 1e-12
//            (rtol = atol): error of x(T) against error of S(T), reference
//            cvodes_fsa at rtol 1e-13
//   fig4     glv:N, N = 10, 55, 100, 200, tol 1e-4 ... 1e-10 (atol =
//            rtol / 100): S(T) by dopri5 with the built-in model's
//            hand-written products and with the same model recorded as an
//            ExprModel at lanes 1, 4 and 8, and cvodes_asa (N <= 55); time
//            against the error of S(T) with the fitted t ~ eps^m; then
//            (fig5) time against N + P at each tolerance, fitted t ~ (N+P)^m
//   vjp      the adjoint sweep's stage products (vjp_accumulate: J_x^T W and
//            J_p^T W added in) of recorded glv:N for 4 and N + 1 vectors at
//            lanes 1, 4, 8: vectors per second and the ratio to lanes 1
//   cost     one gradient (final_sensitivity=0) against a state-only solve
//            of the same engine, tableau and tolerance
//   memory   peak RSS of this process after one S(T) of glv:200 at tol 1e-8
//            (run it alone: --only memory)
// Times are medians of --repeats runs (default 5; 1 for runs over 2 s).
//
// Run: build/bin/bench_erk_adjoint_paper [--only tables|fig2|fig4|vjp|cost|memory]
//      [--sizes 10,55,100,200] [--repeats 5] [--long]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_workspace.hpp"
#include "integrate/erk/tableau.hpp"
#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::vector<double> parse_list(const char* text) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(std::strtod(item.c_str(), nullptr));
  return out;
}

int g_repeats = 5;

template <class F>
double median_seconds(F&& run) {
  std::vector<double> t;
  for (int r = 0; r < g_repeats; ++r) {
    const auto start = Clock::now();
    run();
    t.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    if (t.back() > 2.0) break;  // slow points: one run is enough
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double max_abs_diff(const double* a, const double* b, std::size_t n) {
  double d = 0.0;
  for (std::size_t q = 0; q < n; ++q) d = std::max(d, std::fabs(a[q] - b[q]));
  return d;
}

double max_abs(const double* a, std::size_t n) {
  double d = 0.0;
  for (std::size_t q = 0; q < n; ++q) d = std::max(d, std::fabs(a[q]));
  return d;
}

// Least-squares slope of log y against log x.
double log_slope(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  if (n < 2) return NAN;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double lx = std::log(x[k]), ly = std::log(y[k]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  const double den = n * sxx - sx * sx;
  return den == 0 ? NAN : (n * sxy - sx * sy) / den;
}

// ---- Tables 1-2 ----

void tables(bool long_run) {
  const double pi = 3.14159265358979323846, t_f = 0.01;
  std::printf("| tableau | Np | eps_r (59) [1e-1 %%] | paper (adjoint column) | time [s] |\n");
  std::printf("|---|---|---|---|---|\n");
  struct Case {
    const char* tableau;
    int grid;
    double paper;
  };
  std::vector<Case> cases = {{"euler", 10, 7.260}, {"euler", 30, 0.104}, {"rk4", 10, 8.135},
                             {"rk4", 30, 0.785}};
  if (long_run) {
    cases.push_back({"euler", 50, 0.615});
    cases.push_back({"rk4", 50, 0.275});
  }
  for (const Case& c : cases) {
    odesens::Problem problem;
    problem.model = odesens::load_model("builtin:heat2d:" + std::to_string(c.grid));
    problem.output_times = {t_f};
    problem.options.set("tableau", std::string(c.tableau));
    problem.options.set("h_fixed", 5e-5);
    problem.options.set("threads", std::int64_t{0});
    const auto start = Clock::now();
    const odesens::Result r = odesens::solve(problem, "erk_adjoint");
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const double h = 1.0 / (c.grid - 1);
    double diff = 0, scale = 0;
    for (int k = 0; k < c.grid * c.grid; ++k) {
      const double exact = -2 * pi * pi * t_f * std::sin(pi * (k % c.grid) * h) *
                           std::sin(pi * (k / c.grid) * h) * std::exp(-2 * pi * pi * t_f);
      diff = std::max(diff, std::fabs(r.s_at(0, k, 0) - exact));
      scale = std::max(scale, std::fabs(exact));
    }
    std::printf("| %s | %d | %.3f | %.3f | %.2f |\n", c.tableau, c.grid, diff / scale / 1e-3,
                c.paper, seconds);
  }
}

// ---- Fig. 2 ----

void fig2() {
  odesens::Problem base;
  base.model = odesens::load_model("builtin:vanderpol");
  base.params = {1000.0};
  base.output_times = {0.5};
  odesens::Problem reference = base;
  reference.rtol = 1e-13;
  reference.atol = {1e-13};
  const odesens::Result ref = odesens::solve(reference, "cvodes_fsa");
  const std::size_t nx = ref.nx, np = ref.np;
  const double* x_ref = ref.x.data() + (ref.times.size() - 1) * nx;
  const double* s_ref = ref.s.data() + (ref.s_times.size() - 1) * nx * np;
  std::printf("| tableau | tol | error of x(T) | error of S(T) | steps | time [ms] |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const char* tableau : {"cash_karp", "dopri5"}) {
    for (int e = 3; e <= 12; ++e) {
      odesens::Problem problem = base;
      const double tol = std::pow(10.0, -e);
      problem.rtol = tol;
      problem.atol = {tol};
      problem.options.set("tableau", std::string(tableau));
      odesens::Result r;
      const double t = median_seconds([&] { r = odesens::solve(problem, "erk_adjoint"); });
      std::printf("| %s | 1e-%02d | %.2e | %.2e | %lld | %.3f |\n", tableau, e,
                  max_abs_diff(r.x.data() + (r.times.size() - 1) * nx, x_ref, nx),
                  max_abs_diff(r.s.data(), s_ref, nx * np), static_cast<long long>(r.stats.steps),
                  1e3 * t);
    }
  }
}

// ---- Fig. 4 and 5 ----

std::shared_ptr<const odesens::Model> recorded_glv(int n) {
  const auto builtin = odesens::load_model("builtin:glv:" + std::to_string(n));
  odesens::RecordOptions options;
  options.name = "recorded glv:" + std::to_string(n);
  options.nominal_params = builtin->nominal_params();
  options.x0.assign(n, 0.1);
  const std::size_t nn = static_cast<std::size_t>(n);
  return odesens::record(
      nn, nn + nn * nn,
      [nn](auto, const auto* x, const auto* p, auto* dx) {
        for (std::size_t i = 0; i < nn; ++i) {
          auto g = p[i];
          for (std::size_t j = 0; j < nn; ++j) g = g + p[nn + i * nn + j] * x[j];
          dx[i] = x[i] * g;
        }
      },
      options);
}

odesens::Problem glv_problem(std::shared_ptr<const odesens::Model> model, double tol) {
  odesens::Problem p;
  p.model = std::move(model);
  p.output_times = {10.0};
  p.rtol = tol;
  p.atol = {tol * 1e-2};
  return p;
}

struct Series {
  std::string label;
  std::vector<double> eps, ms;
};

void fig4(const std::vector<double>& sizes) {
  const std::vector<double> tols = {1e-4, 1e-6, 1e-8, 1e-10};
  std::map<std::string, std::map<double, std::vector<std::pair<double, double>>>> by_tol;  // fig5
  std::printf("| N | tol | variant | time [ms] | error of S(T) | steps |\n");
  std::printf("|---|---|---|---|---|---|\n");
  std::vector<std::pair<int, Series>> fits;
  for (double size : sizes) {
    const int n = static_cast<int>(size);
    const auto builtin = odesens::load_model("builtin:glv:" + std::to_string(n));
    const auto recorded = recorded_glv(n);
    odesens::Problem reference = glv_problem(builtin, 1e-13);
    reference.options.set("tableau", std::string("dop853"));
    const odesens::Result ref = odesens::solve(reference, "erk_adjoint");
    const std::size_t count = ref.nx * ref.np;
    const double scale = max_abs(ref.s.data(), count);
    struct Variant {
      std::string label;
      std::shared_ptr<const odesens::Model> model;
      std::string method;
      std::int64_t lanes;
    };
    std::vector<Variant> variants = {{"dopri5 hand-written", builtin, "erk_adjoint", 0},
                                     {"dopri5 recorded L=1", recorded, "erk_adjoint", 1},
                                     {"dopri5 recorded L=4", recorded, "erk_adjoint", 4},
                                     {"dopri5 recorded L=8", recorded, "erk_adjoint", 8}};
    if (n <= 55) variants.push_back({"cvodes_asa", builtin, "cvodes_asa", 0});
    for (const Variant& v : variants) {
      if (v.lanes > odesens::widest_expr_lane_width()) continue;
      Series series{v.label, {}, {}};
      for (double tol : tols) {
        odesens::Problem problem = glv_problem(v.model, tol);
        if (v.method == "erk_adjoint") problem.options.set("lanes", v.lanes);
        odesens::Result r;
        const double t = median_seconds([&] { r = odesens::solve(problem, v.method); });
        const double err = max_abs_diff(r.s.data(), ref.s.data(), count) / scale;
        std::printf("| %d | %.0e | %s | %.2f | %.2e | %lld |\n", n, tol, v.label.c_str(), 1e3 * t,
                    err, static_cast<long long>(r.stats.steps));
        series.eps.push_back(err);
        series.ms.push_back(1e3 * t);
        by_tol[v.label][tol].push_back({static_cast<double>(2 * n + n * n), 1e3 * t});
      }
      fits.push_back({n, series});
    }
  }
  std::printf("\nFitted t ~ eps^m (Fig. 4):\n\n| N | variant | m |\n|---|---|---|\n");
  for (const auto& [n, s] : fits) std::printf("| %d | %s | %.2f |\n", n, s.label.c_str(), log_slope(s.eps, s.ms));
  std::printf("\nFitted t ~ (N + P)^m over N = sizes (Fig. 5):\n\n| variant | tol | m |\n|---|---|---|\n");
  for (const auto& [label, tols_map] : by_tol) {
    for (const auto& [tol, points] : tols_map) {
      if (points.size() < 3) continue;
      std::vector<double> x, y;
      for (const auto& [np, ms] : points) {
        x.push_back(np);
        y.push_back(ms);
      }
      std::printf("| %s | %.0e | %.2f |\n", label.c_str(), tol, log_slope(x, y));
    }
  }
}

// ---- vJp throughput ----

void vjp(const std::vector<double>& sizes) {
  std::printf("| N | vectors | lanes | products per second | ratio to lanes 1 |\n");
  std::printf("|---|---|---|---|---|\n");
  for (double size : sizes) {
    const int n = static_cast<int>(size);
    const auto model = recorded_glv(n);
    const std::size_t nx = model->nx(), np = model->np();
    const std::vector<double> p = model->nominal_params();
    std::vector<double> x(nx, 0.1);
    for (std::size_t nw : {std::size_t{4}, nx + 1}) {
      std::vector<double> w(nx * nw), out_x(nx * nw), out_p(np * nw, 0.0);
      for (std::size_t q = 0; q < w.size(); ++q) w[q] = std::sin(0.1 * static_cast<double>(q));
      double base = 0;
      for (int lanes : {1, 4, 8}) {
        if (lanes > odesens::widest_expr_lane_width()) continue;
        auto ws = model->make_workspace(lanes);
        int calls = 0;
        const auto start = Clock::now();
        double elapsed = 0;
        do {
          model->vjp_accumulate(0.0, x.data(), p.data(), nw, w.data(), out_x.data(),
                                out_p.data(), ws.get());
          ++calls;
          elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        } while (elapsed < 0.3);
        const double rate = static_cast<double>(calls) * static_cast<double>(nw) / elapsed;
        if (lanes == 1) base = rate;
        std::printf("| %d | %zu | %d | %.3g | %.2f |\n", n, nw, lanes, rate, rate / base);
      }
    }
  }
}

// ---- one gradient against a state-only solve ----

class ModelSystem final : public odesens::integrate::erk::ErkSystem {
 public:
  ModelSystem(const odesens::Model& m, const double* p) : m_(m), p_(p), ws_(m.make_workspace()) {}
  void rhs(double t, const double* x, double* f) override { m_.rhs(t, x, p_, f, ws_.get()); }

 private:
  const odesens::Model& m_;
  const double* p_;
  std::unique_ptr<odesens::Workspace> ws_;
};

void cost(const std::vector<double>& sizes) {
  std::printf("| N | tol | state-only [ms] | gradient [ms] | ratio | S(T) [ms] |\n");
  std::printf("|---|---|---|---|---|---|\n");
  namespace erk = odesens::integrate::erk;
  const erk::Tableau& tableau = *erk::find_tableau("dopri5");
  for (double size : sizes) {
    const int n = static_cast<int>(size);
    const auto model = odesens::load_model("builtin:glv:" + std::to_string(n));
    const std::vector<double> p = model->nominal_params();
    for (double tol : {1e-6, 1e-8}) {
      const double state_only = median_seconds([&] {
        ModelSystem system(*model, p.data());
        erk::ErkWorkspace workspace(tableau, model->nx(), 1);
        erk::ErkSettings settings;
        settings.tolerances.rtol = tol;
        settings.tolerances.atol = tol * 1e-2;
        erk::ErkEngine engine(system, workspace, settings);
        std::vector<double> x0(model->nx());
        model->initial_state(p.data(), x0.data());
        engine.reset(0.0, x0.data(), 10.0);
        while (engine.t() < 10.0) engine.step(10.0);
      });
      odesens::Problem problem = glv_problem(model, tol);
      problem.options.set("final_sensitivity", std::int64_t{0});
      const double gradient = median_seconds([&] { odesens::solve(problem, "erk_adjoint"); });
      problem.options.set("final_sensitivity", std::int64_t{1});
      const double full = median_seconds([&] { odesens::solve(problem, "erk_adjoint"); });
      std::printf("| %d | %.0e | %.3f | %.3f | %.1f | %.1f |\n", n, tol, 1e3 * state_only,
                  1e3 * gradient, gradient / state_only, 1e3 * full);
    }
  }
}

// ---- memory ----

void memory() {
  odesens::Problem problem = glv_problem(odesens::load_model("builtin:glv:200"), 1e-8);
  const odesens::Result r = odesens::solve(problem, "erk_adjoint");
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("| glv:200, tol 1e-8, S(T) | trajectory %.0f B | workspace %.0f B | peak RSS %.1f MB |\n",
              r.stats.extra.at("trajectory_bytes"), r.stats.extra.at("workspace_bytes"),
              static_cast<double>(usage.ru_maxrss) / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(
      argc, argv, {{"--long", false}, {"--only", true}, {"--sizes", true}, {"--repeats", true}},
      "[--long] [--only SECTION] [--sizes N,...] [--repeats N]");
  std::string only;
  bool long_run = false;
  std::vector<double> sizes{10, 55, 100, 200};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--long"))
      long_run = true;
    else if (i + 1 < argc && !std::strcmp(argv[i], "--only")) only = argv[++i];
    else if (i + 1 < argc && !std::strcmp(argv[i], "--sizes")) sizes = parse_list(argv[++i]);
    else if (i + 1 < argc && !std::strcmp(argv[i], "--repeats")) g_repeats = std::max(1, std::atoi(argv[++i]));
  }
  auto wanted = [&](const char* name) { return only.empty() || only == name; };
  if (only == "memory") {
    memory();
    return 0;
  }
  if (wanted("tables")) {
    std::printf("### Tables 1-2: heat2d, fixed steps 5e-5\n\n");
    tables(long_run);
  }
  if (wanted("fig2")) {
    std::printf("\n### Fig. 2: vanderpol, mu = 1000, [0, 0.5]\n\n");
    fig2();
  }
  if (wanted("fig4")) {
    std::printf("\n### Fig. 4: glv:N, S(T)\n\n");
    fig4(sizes);
  }
  if (wanted("vjp")) {
    std::printf("\n### Vector-Jacobian products of recorded glv:N (J_x^T W and J_p^T W)\n\n");
    vjp(sizes);
  }
  if (wanted("cost")) {
    std::printf("\n### One gradient against a state-only solve (dopri5)\n\n");
    cost(sizes);
  }
  return 0;
}
