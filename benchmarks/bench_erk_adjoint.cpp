// erk_adjoint on the adjoint paper's glv:N (its Fig. 3 setting: N states,
// N + N^2 parameters, S(T) wanted): time against the error of S(T), next
// to cvodes_fsa and cvodes_asa at the same tolerances, in one run.
//   erk_adjoint cash_karp   the paper's solver, S(T) by N + 1 adjoint vectors
//   erk_adjoint dopri5      the default tableau
//   erk_adjoint gradient    dopri5, final_sensitivity=0 (one adjoint vector)
//   cvodes_fsa, cvodes_asa  S(T) (cvodes_asa: one backward problem per state)
//   finite differences      the paper's "ND": forward differences of state-only
//                           cash_karp solves (own adaptive steps), bump 1e-6
//                           relative to max(1, |p_j|); N <= 40
// Error: max |S - S_ref| / max |S_ref| at T, S_ref from cvodes_fsa at rtol
// 1e-12 (N > 40: erk_adjoint dop853 at 1e-13; the CVODES methods are not run there) (the gradient row compares dG/dp with the column sums of S_ref).
// Times are the median of --repeats runs (default 5). Also the memory:
// erk_adjoint's trajectory bytes and workspace bytes per size.
//
// Run: build/bin/bench_erk_adjoint [--sizes 2,10,30,40] [--tols 1e-4,1e-6,1e-8,1e-10]
//      [--repeats 5]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_workspace.hpp"
#include "integrate/erk/tableau.hpp"
#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

std::vector<double> parse_list(const char* text) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(std::strtod(item.c_str(), nullptr));
  return out;
}

odesens::Problem glv(int n, double rtol) {
  odesens::Problem p;
  p.model = odesens::load_model("builtin:glv:" + std::to_string(n));
  p.t0 = p.model->default_t0();
  p.output_times = {p.model->default_t_end()};
  p.rtol = rtol;
  p.atol = {rtol * 1e-2};
  return p;
}

struct Variant {
  const char* label;
  const char* method;
  const char* tableau;  // erk_adjoint only
  bool gradient_only;
};

double seconds_median(const odesens::Problem& problem, const std::string& method, int repeats,
                      odesens::Result& last) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    last = odesens::solve(problem, method);
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

class ModelSystem final : public odesens::integrate::erk::ErkSystem {
 public:
  ModelSystem(const odesens::Model& m, const double* p) : m_(m), p_(p), ws_(m.make_workspace()) {}
  void rhs(double t, const double* x, double* f) override { m_.rhs(t, x, p_, f, ws_.get()); }

 private:
  const odesens::Model& m_;
  const double* p_;
  std::unique_ptr<odesens::Workspace> ws_;
};

// x(T) of a state-only cash_karp solve with its own adaptive steps.
std::vector<double> final_state(const odesens::Model& model, const std::vector<double>& p,
                                double rtol, double t_end, long* steps) {
  namespace erk = odesens::integrate::erk;
  const erk::Tableau& tableau = *erk::find_tableau("cash_karp");
  ModelSystem system(model, p.data());
  erk::ErkWorkspace workspace(tableau, model.nx(), 1);
  erk::ErkSettings settings;
  settings.tolerances.rtol = rtol;
  settings.tolerances.atol = rtol * 1e-2;
  erk::ErkEngine engine(system, workspace, settings);
  std::vector<double> x(model.nx());
  model.initial_state(p.data(), x.data());
  engine.reset(0.0, x.data(), t_end);
  engine.integrate_to(t_end);
  *steps += engine.stats().accepted;
  return std::vector<double>(engine.x(), engine.x() + model.nx());
}

// S(T) by forward differences, bump 1e-6 max(1, |p_j|).
odesens::Result finite_differences(const odesens::Problem& problem) {
  const odesens::Model& model = *problem.model;
  const std::size_t nx = model.nx(), np = model.np();
  const double t_end = problem.output_times.back();
  odesens::Result r;
  r.nx = nx;
  r.np = np;
  r.s_times = {t_end};
  r.s.resize(nx * np);
  long steps = 0;
  const std::vector<double> p0 = model.nominal_params();
  const std::vector<double> x0 = final_state(model, p0, *problem.rtol, t_end, &steps);
  for (std::size_t j = 0; j < np; ++j) {
    std::vector<double> p = p0;
    const double bump = 1e-6 * std::max(1.0, std::fabs(p0[j]));
    p[j] += bump;
    const std::vector<double> x = final_state(model, p, *problem.rtol, t_end, &steps);
    for (std::size_t i = 0; i < nx; ++i) r.s[i + j * nx] = (x[i] - x0[i]) / bump;
  }
  r.stats.steps = steps;
  return r;
}

double fd_seconds_median(const odesens::Problem& problem, int repeats, odesens::Result& last) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    last = finite_differences(problem);
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv,
                              {{"--sizes", true}, {"--tols", true}, {"--repeats", true}},
                              "[--sizes N,...] [--tols T,...] [--repeats N]");
  std::vector<double> sizes{2, 10, 30, 40}, tols{1e-4, 1e-6, 1e-8, 1e-10};
  int repeats = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--sizes"))
      sizes = parse_list(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--tols"))
      tols = parse_list(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeats")) repeats = std::max(1, std::atoi(argv[i + 1]));
  }
  const Variant variants[] = {{"erk_adjoint cash_karp", "erk_adjoint", "cash_karp", false},
                              {"erk_adjoint dopri5", "erk_adjoint", "dopri5", false},
                              {"erk_adjoint gradient", "erk_adjoint", "dopri5", true},
                              {"cvodes_fsa", "cvodes_fsa", nullptr, false},
                              {"cvodes_asa", "cvodes_asa", nullptr, false},
                              {"finite differences", "fd", "cash_karp", false}};
  std::printf("| N | tol | method | time [ms] | error of S(T) (or dG/dp) | steps |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (double size : sizes) {
    const int n = static_cast<int>(size);
    // Reference: cvodes_fsa at rtol 1e-12 up to N = 40, dop853 at 1e-13
    // beyond (cvodes_fsa with N + N^2 sensitivities would take minutes).
    odesens::Problem reference = glv(n, n > 40 ? 1e-13 : 1e-12);
    if (n > 40) reference.options.set("tableau", std::string("dop853"));
    const odesens::Result ref = odesens::solve(reference, n > 40 ? "erk_adjoint" : "cvodes_fsa");
    const std::size_t nx = ref.nx, np = ref.np;
    const double* s_ref = ref.s.data() + (ref.s_times.size() - 1) * nx * np;
    std::vector<double> g_ref(np, 0.0);
    double s_scale = 0.0, g_scale = 0.0;
    for (std::size_t j = 0; j < np; ++j)
      for (std::size_t i = 0; i < nx; ++i) {
        g_ref[j] += s_ref[i + j * nx];
        s_scale = std::max(s_scale, std::fabs(s_ref[i + j * nx]));
      }
    for (double g : g_ref) g_scale = std::max(g_scale, std::fabs(g));
    for (double tol : tols) {
      for (const Variant& v : variants) {
        // S(T) of glv:N costs CVODES N + N^2 sensitivities or N backward
        // problems: past N = 40 that is minutes per point.
        if (n > 40 && std::strcmp(v.method, "erk_adjoint") != 0) continue;
        odesens::Problem problem = glv(n, tol);
        if (v.tableau) problem.options.set("tableau", std::string(v.tableau));
        if (v.gradient_only) problem.options.set("final_sensitivity", std::int64_t{0});
        odesens::Result r;
        const bool fd = std::strcmp(v.method, "fd") == 0;
        const double t = fd ? fd_seconds_median(problem, repeats, r)
                            : seconds_median(problem, v.method, repeats, r);
        double err = 0.0;
        if (v.gradient_only) {
          for (std::size_t j = 0; j < np; ++j) err = std::max(err, std::fabs(r.gradient[j] - g_ref[j]));
          err /= g_scale;
        } else {
          const double* s = r.s.data() + (r.s_times.size() - 1) * nx * np;
          for (std::size_t q = 0; q < nx * np; ++q) err = std::max(err, std::fabs(s[q] - s_ref[q]));
          err /= s_scale;
        }
        std::printf("| %d | %.0e | %s | %.3f | %.2e | %lld |\n", n, tol, v.label, 1e3 * t, err,
                    static_cast<long long>(r.stats.steps));
      }
    }
    odesens::Problem problem = glv(n, 1e-8);
    const odesens::Result r = odesens::solve(problem, "erk_adjoint");
    std::printf("| %d | memory | erk_adjoint dopri5, tol 1e-8 | trajectory %.0f B | workspace %.0f B | %lld |\n",
                n, r.stats.extra.at("trajectory_bytes"), r.stats.extra.at("workspace_bytes"),
                static_cast<long long>(r.stats.steps));
  }
  return 0;
}
