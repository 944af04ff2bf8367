// Internal differences against their baselines, the setting of Franz &
// Kiehl §4: sensitivity tolerance TOLS from 1e-4 to 1e-7, state tolerance
// TOL = TOLS^2 (rtol = atol), time and achieved error side by side, in one
// run.
//   dopri8s shared     S·R by internal differences, one bundle at TOL
//   dopri8s accurate   nominal=accurate: the bundle at TOLS, η̃ alone at TOL
//   dopri8s lanes=1    shared, f point by point (the effect of SIMD lanes)
//   external DOP853    differences=external: 1 + n_s independent dop853
//                      solves at TOL, perturbed by TOLS (the paper's baseline)
//   cvodes_fsa adams   CVODES forward sensitivities at rtol = atol = TOLS, on
//                      a copy of the model whose x0 are parameters, so that
//                      its columns are those of S·R
// Error: max over output times and entries of |S - S_ref| / (|S_ref| + 1),
// S_ref exact (C1) or cvodes_fsa adams at rtol 1e-13 (C5).
// Cases (the paper's examples):
//   C1  DETEST C1, directions=all (dx/dx0 and dx/dk: n_s = 11), t = 0..20
//   C5  DETEST C5, the 30 initial values as parameters (n_s = 30), t = 1..20
//   E3  STIFF DETEST E3, directions=all (n_s = 7), t = 25..500, first step
//       0.02, with the stiff variants:
//         grk4as corrected   internal differences on GRK4A, lanes' own J v
//         grk4as frozen      the paper's GRK4AS (W = the nominal's J)
//         external GRK4A     differences=external on GRK4A
//         cvodes_fsa bdf     at rtol = atol = TOLS on the x0-as-parameter copy
//       reference: cvodes_fsa bdf at rtol 1e-13
//   E3x10  ten copies of E3 sharing a1..a4, copy i starting from
//       y1 = y2 = 1 + (i-1)/10, y3 = 0 (30 states, generated), directions=all
//       (n_s = 34): the stiff variants with I - h*gamma*J by dense LU and
//       by KLU (sparse_threshold = 1, "KLU" in the label)
// After the table: the goals as ratios, and cvodes_fsa against
// dopri8s at equal achieved error (a sweep of cvodes_fsa tolerances).
//
// Run: build/bin/bench_internal_diff [--tols 1e-4,1e-5,1e-6,1e-7] [--repeats 7]
//      [--cases C1,C5,E3,E3x10]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

std::string shared_dir() {
  if (const char* env = std::getenv("ODESENS_SHARED_DIR")) return env;
  return ODESENS_DEFAULT_SHARED_DIR;
}

std::vector<std::string> split(const char* text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

std::vector<double> range(double a, double b, int n) {
  std::vector<double> t(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) t[static_cast<std::size_t>(k)] = a + (b - a) * k / (n - 1);
  return t;
}

// How a variant sets up its problem for one TOLS.
struct Variant {
  std::string label;
  std::string method;
  bool x0_as_params;  // runs on the case's copy with x0 as parameters
  std::function<void(odesens::Problem&, double tols)> configure;
};

struct Case {
  std::string name;
  odesens::Problem problem;         // for dopri8s (directions set by `directions`)
  odesens::Problem x0_problem;      // x0 as parameters (cvodes_fsa)
  std::string directions;           // the internal-difference methods' option
  bool stiff = false;               // no goal ratios of dopri8s, no adams sweep
  std::vector<double> reference;    // S·R at the output times, n_t x nx x n_s
  std::vector<Variant> variants;
};

// S·R of a result in the layout of Case::reference.
const std::vector<double>& sensitivities(const odesens::Result& r) {
  return r.ns > 0 ? r.sr : r.s;
}

double mixed_error(const std::vector<double>& s, const std::vector<double>& ref) {
  if (s.size() != ref.size()) return INFINITY;
  double e = 0.0;
  for (std::size_t q = 0; q < s.size(); ++q)
    e = std::max(e, std::fabs(s[q] - ref[q]) / (std::fabs(ref[q]) + 1.0));
  return e;
}

double median_seconds(const odesens::Problem& p, const std::string& method, int repeats,
                      odesens::Result& last) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    last = odesens::solve(p, method);
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void tolerances(odesens::Problem& p, double rtol) {
  p.rtol = rtol;
  p.atol = {rtol};
}

std::vector<Variant> non_stiff_variants() {
  auto dopri8s = [](const char* key, const char* value, std::int64_t lanes) {
    return [=](odesens::Problem& p, double tols) {
      tolerances(p, tols * tols);
      p.options.set("sens_rtol", tols);
      if (key) p.options.set(key, std::string(value));
      if (lanes >= 0) p.options.set("lanes", lanes);
    };
  };
  return {
      {"dopri8s shared", "dopri8s", false, dopri8s(nullptr, nullptr, -1)},
      {"dopri8s accurate", "dopri8s", false, dopri8s("nominal", "accurate", -1)},
      {"dopri8s shared lanes=1", "dopri8s", false, dopri8s(nullptr, nullptr, 1)},
      {"external DOP853", "dopri8s", false, dopri8s("differences", "external", -1)},
      {"cvodes_fsa adams", "cvodes_fsa", true,
       [](odesens::Problem& p, double tols) {
         tolerances(p, tols);
         p.options.set("lmm", std::string("adams"));
       }},
  };
}

// The stiff variants, on the paper's GRK4A (the method's default tableau is
// RODAS4 since; bench_method_matrix measures it); with `klu` also each grk4as variant on KLU
// (sparse_threshold = 1), labelled "... KLU".
std::vector<Variant> stiff_variants(bool klu = false) {
  auto grk4as = [](const char* key, const char* value, bool sparse) {
    return [=](odesens::Problem& p, double tols) {
      tolerances(p, tols * tols);
      p.options.set("sens_rtol", tols);
      p.options.set("h0", 0.02);  // the paper's E3 setting
      p.options.set("tableau", std::string("grk4a"));  // the paper's method
      if (key) p.options.set(key, std::string(value));
      if (sparse) p.options.set("sparse_threshold", std::int64_t{1});
    };
  };
  std::vector<Variant> variants;
  for (bool sparse : {false, true}) {
    if (sparse && !klu) continue;
    const std::string suffix = sparse ? " KLU" : "";
    variants.push_back({"grk4as corrected" + suffix, "grk4as", false,
                        grk4as(nullptr, nullptr, sparse)});
    variants.push_back({"grk4as frozen" + suffix, "grk4as", false,
                        grk4as("jacobian", "frozen", sparse)});
    variants.push_back({"external GRK4A" + suffix, "grk4as", false,
                        grk4as("differences", "external", sparse)});
  }
  variants.push_back({"cvodes_fsa bdf", "cvodes_fsa", true,
                      [](odesens::Problem& p, double tols) { tolerances(p, tols); }});
  return variants;
}

// The .ode text of a model whose listed states start from new parameters
// x0_<state> (declared first, with the old initial values), for CVODES.
std::string x0_as_params(const std::string& text, const std::vector<std::string>& states) {
  std::string out;
  std::stringstream in(text);
  std::string line;
  for (const auto& s : states) out += "param x0_" + s + " = 0\n";
  while (std::getline(in, line)) {
    for (const auto& s : states) {
      const std::string head = "state " + s + " = ";
      if (line.rfind(head, 0) == 0) {
        // param x0_s takes the old initial value; the state starts there.
        const std::string value = line.substr(head.size());
        const std::string decl = "param x0_" + s + " = 0\n";
        out.replace(out.find(decl), decl.size(), "param x0_" + s + " = " + value + "\n");
        line = head + "x0_" + s;
      }
    }
    out += line + "\n";
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return "";
  std::string text;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  return text;
}

// DETEST C1 with directions=all: exact S (see tests/methods/test_dopri8s.cpp).
Case detest_c1() {
  Case c;
  c.name = "C1";
  const std::string path = shared_dir() + "/models/ode/detest_c1.ode";
  c.problem.model = odesens::load_model(path);
  c.problem.output_times = range(0, 20, 21);
  c.directions = "all";
  // x0 parameters first, then k: the column order of directions=all.
  std::string text = read_file(path);
  std::vector<std::string> states;
  for (int i = 1; i <= 10; ++i) states.push_back("y" + std::to_string(i));
  // The x0 parameters come first, k after them: CVODES' columns are the
  // parameters in declaration order.
  const std::string copy = x0_as_params(text, states);
  c.x0_problem.model = odesens::load_ode_text(copy, "detest_c1_x0.ode");
  c.x0_problem.output_times = c.problem.output_times;
  const int n = 10;
  for (double t : c.problem.output_times) {
    std::vector<double> S(110, 0.0);
    for (int j = 0; j < n; ++j) {
      double* col = S.data() + j * n;
      if (j == n - 1) {
        col[n - 1] = 1.0;
        continue;
      }
      double sum = 0.0;
      for (int i = j; i < n - 1; ++i) {
        col[i] = std::pow(t, i - j) * std::exp(-t) / std::tgamma(i - j + 1.0);
        sum += col[i];
      }
      col[n - 1] = 1.0 - sum;
    }
    const double* x = S.data();
    double* dk = S.data() + n * n;
    dk[0] = -t * x[0];
    for (int i = 1; i < n - 1; ++i) dk[i] = t * (x[i - 1] - x[i]);
    dk[n - 1] = t * x[n - 2];
    c.reference.insert(c.reference.end(), S.begin(), S.end());
  }
  c.variants = non_stiff_variants();
  return c;
}

// DETEST C5: its parameters are already the 30 initial values.
Case detest_c5() {
  Case c;
  c.name = "C5";
  c.problem.model = odesens::load_model(shared_dir() + "/models/ode/detest_c5.ode");
  c.problem.output_times = range(1, 20, 20);
  c.directions = "params";
  c.x0_problem = c.problem;
  odesens::Problem ref = c.problem;
  tolerances(ref, 1e-13);
  ref.options.set("lmm", std::string("adams"));
  c.reference = odesens::solve(ref, "cvodes_fsa").s;
  c.variants = non_stiff_variants();
  return c;
}

// STIFF DETEST E3, directions=all: columns dx/dx0 (3), then dx/da (4).
Case stiff_e3() {
  Case c;
  c.name = "E3";
  const std::string path = shared_dir() + "/models/ode/stiff_e3.ode";
  c.problem.model = odesens::load_model(path);
  c.problem.output_times = range(25, 500, 20);
  c.directions = "all";
  c.stiff = true;
  const std::string copy = x0_as_params(read_file(path), {"y1", "y2", "y3"});
  c.x0_problem.model = odesens::load_ode_text(copy, "stiff_e3_x0.ode");
  c.x0_problem.output_times = c.problem.output_times;
  odesens::Problem ref = c.x0_problem;
  tolerances(ref, 1e-13);
  c.reference = odesens::solve(ref, "cvodes_fsa").s;
  c.variants = stiff_variants();
  return c;
}

// Ten copies of E3 (stiff_e3.ode) on the same parameters a1..a4, copy i
// from y1 = y2 = 1 + (i-1)/10: 30 states with a block-diagonal J.
std::string e3x10_text() {
  std::string text =
      "# Ten copies of STIFF DETEST E3 sharing a1..a4 (generated by bench_internal_diff)\n"
      "param a1 = 55\nparam a2 = 65\nparam a3 = 0.0785\nparam a4 = 0.1\n";
  for (int i = 1; i <= 10; ++i) {
    const std::string c = std::to_string(i), start = "1." + std::to_string(i - 1);
    text += "state y1_" + c + " = " + start + "\nstate y2_" + c + " = " + start + "\nstate y3_" + c +
            " = 0\n";
  }
  for (int i = 1; i <= 10; ++i) {
    const std::string c = std::to_string(i);
    text += "dy1_" + c + "/dt = -(a1 + y3_" + c + ")*y1_" + c + " + a2*y2_" + c + "\n";
    text += "dy2_" + c + "/dt = a3*(y1_" + c + " - y2_" + c + ")\n";
    text += "dy3_" + c + "/dt = a4*y1_" + c + "\n";
  }
  return text;
}

Case stiff_e3x10() {
  Case c;
  c.name = "E3x10";
  const std::string text = e3x10_text();
  c.problem.model = odesens::load_ode_text(text, "e3x10.ode");
  c.problem.output_times = range(25, 500, 20);
  c.directions = "all";
  c.stiff = true;
  std::vector<std::string> states;
  for (int i = 1; i <= 10; ++i)
    for (const char* y : {"y1_", "y2_", "y3_"}) states.push_back(y + std::to_string(i));
  c.x0_problem.model = odesens::load_ode_text(x0_as_params(text, states), "e3x10_x0.ode");
  c.x0_problem.output_times = c.problem.output_times;
  odesens::Problem ref = c.x0_problem;
  tolerances(ref, 1e-13);
  c.reference = odesens::solve(ref, "cvodes_fsa").s;
  c.variants = stiff_variants(true);
  return c;
}

struct Row {
  std::string case_name, label;
  double tols, seconds, error;
  long long steps, rhs_evals;
};

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv,
                              {{"--tols", true}, {"--repeats", true}, {"--cases", true}},
                              "[--tols T,...] [--repeats N] [--cases NAME,...]");
  std::vector<double> tols_list = {1e-4, 1e-5, 1e-6, 1e-7};
  std::vector<std::string> case_names = {"C1", "C5"};
  int repeats = 7;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--tols")) {
      tols_list.clear();
      for (const auto& s : split(argv[i + 1])) tols_list.push_back(std::strtod(s.c_str(), nullptr));
    } else if (!std::strcmp(argv[i], "--repeats")) {
      repeats = std::max(1, std::atoi(argv[i + 1]));
    } else if (!std::strcmp(argv[i], "--cases")) {
      case_names = split(argv[i + 1]);
    }
  }
  std::vector<Case> cases;
  for (const auto& name : case_names) {
    if (name == "C1") cases.push_back(detest_c1());
    if (name == "C5") cases.push_back(detest_c5());
    if (name == "E3") cases.push_back(stiff_e3());
    if (name == "E3x10") cases.push_back(stiff_e3x10());
  }

  std::vector<Row> rows;
  std::printf("| case | TOLS | method | time [ms] | error | error/TOLS | steps | f evals |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const Case& c : cases) {
    for (double tols : tols_list) {
      for (const Variant& v : c.variants) {
        odesens::Problem p = v.x0_as_params ? c.x0_problem : c.problem;
        if (v.method != "cvodes_fsa") p.options.set("directions", c.directions);
        v.configure(p, tols);
        odesens::Result r;
        const double seconds = median_seconds(p, v.method, repeats, r);
        const double error = mixed_error(sensitivities(r), c.reference);
        rows.push_back({c.name, v.label, tols, seconds, error, static_cast<long long>(r.stats.steps),
                        static_cast<long long>(r.stats.rhs_evals)});
        std::printf("| %s | %.0e | %s | %.3f | %.2e | %.2f | %lld | %lld |\n", c.name.c_str(), tols,
                    v.label.c_str(), 1e3 * seconds, error, error / tols, rows.back().steps,
                    rows.back().rhs_evals);
      }
    }
  }

  auto find = [&](const std::string& c, const std::string& label, double tols) -> const Row* {
    for (const Row& r : rows)
      if (r.case_name == c && r.label == label && r.tols == tols) return &r;
    return nullptr;
  };
  std::printf("\nGoals at TOLS <= 1e-6 (time ratios; error <= TOLS on C1):\n\n");
  std::printf("| case | TOLS | external/shared | external/accurate | lanes=1/shared | "
              "shared error/TOLS | accurate error/TOLS |\n|---|---|---|---|---|---|---|\n");
  for (const Case& c : cases)
    for (double tols : tols_list) {
      const Row* shared = find(c.name, "dopri8s shared", tols);
      const Row* accurate = find(c.name, "dopri8s accurate", tols);
      const Row* scalar = find(c.name, "dopri8s shared lanes=1", tols);
      const Row* external = find(c.name, "external DOP853", tols);
      if (!shared || !accurate || !scalar || !external) continue;
      std::printf("| %s | %.0e | %.2f | %.2f | %.2f | %.2f | %.2f |\n", c.name.c_str(), tols,
                  external->seconds / shared->seconds, external->seconds / accurate->seconds,
                  scalar->seconds / shared->seconds, shared->error / tols, accurate->error / tols);
    }

  std::printf("\nStiff goals at TOLS <= 1e-6 (error <= TOLS on E3; external/internal >= 1 on E3, "
              ">= 3 on E3x10 dense, >= 1.5 on E3x10 KLU):\n\n");
  std::printf("| case | LU | TOLS | external/corrected | external/frozen | cvodes_fsa/corrected | "
              "corrected error/TOLS | frozen error/TOLS |\n|---|---|---|---|---|---|---|---|\n");
  for (const Case& c : cases)
    for (const std::string suffix : {"", " KLU"})
      for (double tols : tols_list) {
        const Row* corrected = find(c.name, "grk4as corrected" + suffix, tols);
        const Row* frozen = find(c.name, "grk4as frozen" + suffix, tols);
        const Row* external = find(c.name, "external GRK4A" + suffix, tols);
        const Row* cvodes = find(c.name, "cvodes_fsa bdf", tols);
        if (!corrected || !frozen || !external || !cvodes) continue;
        std::printf("| %s | %s | %.0e | %.2f | %.2f | %.2f | %.2f | %.2f |\n", c.name.c_str(),
                    suffix.empty() ? "dense" : "KLU", tols, external->seconds / corrected->seconds,
                    external->seconds / frozen->seconds, cvodes->seconds / corrected->seconds,
                    corrected->error / tols, frozen->error / tols);
      }

  // cvodes_fsa at equal achieved error: a sweep of its tolerances, and for
  // each dopri8s row the fastest cvodes_fsa run at least as accurate.
  std::printf("\ncvodes_fsa (adams) at equal achieved error:\n\n");
  std::printf("| case | dopri8s | TOLS | its error | its time [ms] | fastest cvodes_fsa at least "
              "as accurate: rtol | time [ms] | cvodes/dopri8s |\n|---|---|---|---|---|---|---|---|\n");
  for (const Case& c : cases) {
    if (c.stiff) continue;  // Adams on a stiff problem says nothing
    std::vector<Row> sweep;
    for (double rtol = 1e-4; rtol >= 0.99e-13; rtol /= 10) {
      odesens::Problem p = c.x0_problem;
      tolerances(p, rtol);
      p.options.set("lmm", std::string("adams"));
      odesens::Result r;
      const double seconds = median_seconds(p, "cvodes_fsa", repeats, r);
      sweep.push_back({c.name, "cvodes_fsa", rtol, seconds, mixed_error(r.s, c.reference), 0, 0});
    }
    for (const char* label : {"dopri8s shared", "dopri8s accurate"})
      for (double tols : tols_list) {
        const Row* d = find(c.name, label, tols);
        if (!d) continue;
        const Row* best = nullptr;
        for (const Row& s : sweep)
          if (s.error <= d->error && (!best || s.seconds < best->seconds)) best = &s;
        if (best)
          std::printf("| %s | %s | %.0e | %.2e | %.3f | %.0e | %.3f | %.2f |\n", c.name.c_str(),
                      label, tols, d->error, 1e3 * d->seconds, best->tols, 1e3 * best->seconds,
                      best->seconds / d->seconds);
        else
          std::printf("| %s | %s | %.0e | %.2e | %.3f | none down to 1e-13 | | |\n", c.name.c_str(),
                      label, tols, d->error, 1e3 * d->seconds);
      }
  }
  return 0;
}
