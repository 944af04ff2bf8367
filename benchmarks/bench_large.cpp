// Large models: the generated sparse mass-action network network:N
// (N = 100, 300, 1000 by default; ../shared/design/BUILTIN_MODELS.md),
// Lang's cell-cycle model (124 states, 317 parameters) and CaMKII, each
// solved once per method (a solve under 0.2 s: the fastest of repeats
// adding up to 0.5 s) over its span with 11 output times at rtol 1e-6,
// atol 1e-8 (CaMKII: the PBS paper's rtol 1e-5, atol 1e-6), in one run:
//   cvodes_fsa                     S at every output time
//   cvodes_fsa batched_solves=0    the same with CVODES' own Newton solver
//   cvodes_fsa sensitivities=0     the state solve alone (the yardstick)
//   cvodes_asa final_sensitivity=0 the gradient of sum_i x_i(T)
//   pbsr, exp                      S at every output time
// and re_k = |S_k - S_k^FS|_F / |S_k^FS|_F of pbsr and exp against the
// cvodes_fsa run (same state tolerances), the largest over the outputs.
// Prints a Markdown table; a method whose time at one size, grown like
// N^3, would exceed --budget seconds (default 900) at the next size is not
// run there.
//
// Run: build/bin/bench_large [--sizes 100,300,1000] [--budget SECONDS]
//      (benchmarks/make_results.py writes RESULTS.md)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

std::string shared_dir() {
  if (const char* env = std::getenv("ODESENS_SHARED_DIR")) return env;
  return ODESENS_DEFAULT_SHARED_DIR;
}

struct Variant {
  const char* label;
  const char* method;
  const char* option;  // "name=value" or null
};

const Variant kVariants[] = {
    {"fsa", "cvodes_fsa", nullptr},
    {"fsa_unbatched", "cvodes_fsa", "batched_solves=0"},
    {"states", "cvodes_fsa", "sensitivities=0"},
    {"asa_gradient", "cvodes_asa", "final_sensitivity=0"},
    {"pbsr", "pbsr", nullptr},
    {"exp", "exp", nullptr},
};

struct Run {
  double seconds = NAN;
  long long steps = 0;
  double re_max = NAN;
  std::string error;
};

double max_relative_error(const odesens::Result& r, const odesens::Result& ref) {
  const std::size_t m = r.nx * r.np;
  double worst = 0.0;
  for (std::size_t k = 1; k < ref.s_times.size(); ++k) {
    double d = 0.0, s = 0.0;
    for (std::size_t q = 0; q < m; ++q) {
      d += std::pow(r.s[k * m + q] - ref.s[k * m + q], 2);
      s += std::pow(ref.s[k * m + q], 2);
    }
    worst = std::max(worst, s > 0.0 ? std::sqrt(d / s) : std::sqrt(d));
  }
  return worst;
}

odesens::Problem make_problem(std::shared_ptr<odesens::Model> model, double t_end, double rtol,
                              double atol) {
  odesens::Problem p;
  p.model = std::move(model);
  for (int k = 0; k <= 10; ++k) p.output_times.push_back(t_end * k / 10);
  p.rtol = rtol;
  p.atol = {atol};
  return p;
}

std::map<std::string, Run> run_all(const odesens::Problem& base,
                                   const std::map<std::string, bool>& skip) {
  std::map<std::string, Run> runs;
  odesens::Result reference;
  bool have_reference = false;
  for (const Variant& v : kVariants) {
    Run run;
    if (skip.count(v.label) && skip.at(v.label)) {
      run.error = "skipped (predicted over the budget)";
      runs[v.label] = run;
      continue;
    }
    odesens::Problem p = base;
    if (v.option) {
      const std::string o = v.option;
      const auto eq = o.find('=');
      p.options.set(o.substr(0, eq), static_cast<std::int64_t>(std::stoll(o.substr(eq + 1))));
    }
    try {
      const odesens::Result r = odesens::solve(p, v.method);
      run.seconds = r.stats.wall_seconds;
      run.steps = r.stats.steps;
      // A solve of milliseconds is at the mercy of one interruption on this
      // shared machine: the fastest of repeats that add up to half a second.
      double spent = run.seconds;
      for (int k = 0; run.seconds < 0.2 && spent < 0.5 && k < 200; ++k) {
        const double again = odesens::solve(p, v.method).stats.wall_seconds;
        run.seconds = std::min(run.seconds, again);
        spent += again;
      }
      if (std::strcmp(v.label, "fsa") == 0) {
        reference = r;
        have_reference = true;
      } else if (have_reference && !r.s_times.empty() && r.s_times.size() == reference.s_times.size()) {
        run.re_max = max_relative_error(r, reference);
      }
    } catch (const odesens::Error& e) {
      run.error = e.what();
    }
    std::fprintf(stderr, "  %s: %.3f s%s%s\n", v.label, run.seconds, run.error.empty() ? "" : " ",
                 run.error.c_str());
    runs[v.label] = run;
  }
  return runs;
}

void print_row(const std::string& name, std::size_t nx, std::size_t np,
               std::map<std::string, Run>& runs) {
  auto cell = [&](const char* label) {
    const Run& r = runs[label];
    if (!r.error.empty()) return std::string("—");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", r.seconds);
    return std::string(buf);
  };
  auto re = [&](const char* label) {
    const Run& r = runs[label];
    if (std::isnan(r.re_max)) return std::string("—");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1e", r.re_max);
    return std::string(buf);
  };
  std::printf("| %s | %zu | %zu | %s | %s | %s | %s | %s | %s | %s | %s |\n", name.c_str(), nx, np,
              cell("fsa").c_str(), cell("fsa_unbatched").c_str(), cell("states").c_str(),
              cell("asa_gradient").c_str(), cell("pbsr").c_str(), cell("exp").c_str(),
              re("pbsr").c_str(), re("exp").c_str());
  for (auto& [label, r] : runs)
    if (!r.error.empty() && r.error.find("skipped") == std::string::npos)
      std::printf("|  | | | %s failed: %s | | | | | | | |\n", label.c_str(), r.error.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv, {{"--sizes", true}, {"--budget", true}},
                              "[--sizes N,...] [--budget SECONDS]");
  std::vector<int> sizes = {100, 300, 1000};
  double budget = 900.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--sizes") == 0) {
      sizes.clear();
      for (const char* s = argv[i + 1]; *s;) {
        sizes.push_back(std::atoi(s));
        while (*s && *s != ',') ++s;
        if (*s == ',') ++s;
      }
    } else if (std::strcmp(argv[i], "--budget") == 0) {
      budget = std::atof(argv[i + 1]);
    }
  }
  std::printf("| model | nx | np | fsa [s] | fsa, batched_solves=0 [s] | states only [s] | "
              "adjoint gradient [s] | pbsr [s] | exp [s] | max re_k pbsr | max re_k exp |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::map<std::string, bool> skip;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const int n = sizes[i];
    std::fprintf(stderr, "network:%d\n", n);
    auto model = odesens::load_model("builtin:network:" + std::to_string(n));
    auto runs = run_all(make_problem(model, 100.0, 1e-6, 1e-8), skip);
    print_row("network:" + std::to_string(n), model->nx(), model->np(), runs);
    // A method whose time, grown like N^3, would pass the budget at the
    // next size is not run there.
    if (i + 1 < sizes.size()) {
      const double growth = std::pow(static_cast<double>(sizes[i + 1]) / n, 3.0);
      for (auto& [label, r] : runs)
        if (!(r.seconds * growth <= budget)) skip[label] = true;
    }
  }
  struct Named {
    const char* name;
    std::string path;
    double t_end, rtol, atol;
  };
  for (const Named& m : {Named{"Lang", shared_dir() + "/models/sbml/Lang_PLOSComputBiol2024.xml",
                               100.0, 1e-6, 1e-8},
                         Named{"CaMKII", shared_dir() + "/models/ode/camkii.ode", 600.0, 1e-5,
                               1e-6}}) {
    std::shared_ptr<odesens::Model> model;
    try {
      model = odesens::load_model(m.path);
    } catch (const odesens::Error& e) {
      std::fprintf(stderr, "bench_large: skipping %s: %s\n", m.name, e.what());
      continue;
    }
    std::fprintf(stderr, "%s\n", m.name);
    auto runs = run_all(make_problem(model, m.t_end, m.rtol, m.atol), {});
    print_row(m.name, model->nx(), model->np(), runs);
  }
  return 0;
}
