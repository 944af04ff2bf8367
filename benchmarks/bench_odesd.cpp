// odesd against cvodes_fsa on the odeSD paper's measures (Gonnet et al.
// 2012, Figs. 1-5), in one run:
//   cvodes            cvodes_fsa, sensitivities=0 (the states alone)
//   cvodes_fsa        simultaneous corrector, S at every output time
//   cvodes_stg        staggered corrector
//   odesd_x           odesd, sensitivities=0
//   odesd             odesd with S (direct sensitivities, Eq. 15)
// per model and rtol (atol = 1e-2 rtol). Precision: max |e| / max |ref| over
// x and S at every output time, against cvodes_fsa at rtol 1e-12 (states
// only for the generated networks, whose n_p = 2n makes S large), that
// reference checked by odesd at 1e-12.
// Tables: Fig. 1 (states only: odesd/CVODES time, steps, f, J per rtol, mean
// and std over models), Fig. 3A/B (per model at 1e-6, with and without S),
// Figs. 3C/3D/4B (cvodes_fsa/odesd time, odesd/cvodes_fsa steps, f, J, per
// rtol, geometric means), Figs. 2/5 (work-precision rows), the sparse
// statistics of odesd (nnz(J), nnz(J_a), nnz(M), nnz(L+U)) and the goals.
//
// Networks of n >= 1000 (n_p = 2n) run at --network-tols only, without the
// staggered corrector, and their precision is that of x: a cvodes_fsa
// reference for S at rtol 1e-12 would take hours. Above --network-s-max they
// run states only.
//
// Run: build/bin/bench_odesd [--ode] [--sbml] [--networks 300,1000,3000]
//      [--network-s-max 1000] [--network-tols 1e-6] [--tols 1e-3,...,1e-10]
//      [--repeats 1] [--outputs 10]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "odesens/odesens.hpp"
#include "bench_flags.hpp"

namespace {

using odesens::Problem;
using odesens::Result;

std::vector<std::string> split(const char* text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(item);
  return out;
}

std::string shared_dir() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return env ? env : ODESENS_DEFAULT_SHARED_DIR;
}

struct Case {
  std::string name;
  std::shared_ptr<odesens::Model> model;
  double t_end;
  bool with_s;        // S solves
  bool s_reference;   // S in the reference and in the precision
  bool large = false;  // network of n >= 1000: --network-tols, no staggered corrector
};

struct Variant {
  const char* label;
  const char* method;
  bool s;
  const char* corrector;  // cvodes_fsa only
};
const Variant variants[] = {{"cvodes", "cvodes_fsa", false, nullptr},
                            {"cvodes_fsa", "cvodes_fsa", true, "simultaneous"},
                            {"cvodes_stg", "cvodes_fsa", true, "staggered"},
                            {"odesd_x", "odesd", false, nullptr},
                            {"odesd", "odesd", true, nullptr}};

struct Run {
  bool ok = false;
  double seconds = 0, precision = 0;
  double steps = 0, f = 0, jac = 0, lu = 0;
  std::map<std::string, double> extra;
  std::string error;
};

double max_rel(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0, s = 0;
  for (std::size_t q = 0; q < a.size() && q < b.size(); ++q) {
    d = std::max(d, std::fabs(a[q] - b[q]));
    s = std::max(s, std::fabs(b[q]));
  }
  return s > 0 ? d / s : d;
}

Problem problem_of(const Case& c, double rtol, std::size_t outputs) {
  Problem p;
  p.model = c.model;
  p.t0 = 0.0;
  for (std::size_t k = 1; k <= outputs; ++k)
    p.output_times.push_back(c.t_end * static_cast<double>(k) / static_cast<double>(outputs));
  p.rtol = rtol;
  p.atol = {1e-2 * rtol};
  return p;
}

Run run(const Case& c, const Variant& v, double rtol, std::size_t outputs, int repeats,
        const Result& ref) {
  Problem p = problem_of(c, rtol, outputs);
  p.options.set("sensitivities", std::int64_t{v.s ? 1 : 0});
  if (v.corrector) p.options.set("corrector", v.corrector);
  Run r;
  std::vector<double> times;
  try {
    Result res;
    for (int k = 0; k < repeats; ++k) {
      const auto start = std::chrono::steady_clock::now();
      res = odesens::solve(p, v.method);
      times.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    r.seconds = times[times.size() / 2];
    r.precision = max_rel(res.x, ref.x);
    if (v.s && c.s_reference) r.precision = std::max(r.precision, max_rel(res.s, ref.s));
    r.steps = static_cast<double>(res.stats.steps);
    r.f = static_cast<double>(res.stats.rhs_evals);
    r.jac = static_cast<double>(res.stats.jac_evals);
    r.lu = static_cast<double>(res.stats.linear_setups);
    r.extra = res.stats.extra;
    r.ok = true;
  } catch (const odesens::Error& e) {
    r.error = e.what();
  }
  return r;
}

struct Stat {
  std::vector<double> v;
  void add(double x) {
    if (std::isfinite(x) && x > 0) v.push_back(x);
  }
  double mean() const {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? NAN : s / static_cast<double>(v.size());
  }
  double sd() const {
    const double m = mean();
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return v.size() < 2 ? 0.0 : std::sqrt(s / static_cast<double>(v.size() - 1));
  }
  double geomean() const {
    double s = 0;
    for (double x : v) s += std::log(x);
    return v.empty() ? NAN : std::exp(s / static_cast<double>(v.size()));
  }
};

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv,
                              {{"--ode", false},
                               {"--sbml", false},
                               {"--networks", true},
                               {"--network-s-max", true},
                               {"--network-tols", true},
                               {"--tols", true},
                               {"--repeats", true},
                               {"--outputs", true}},
                              "[--ode] [--sbml] [--networks N,...] [--network-s-max N] "
                              "[--network-tols T,...] [--tols T,...] [--repeats N] [--outputs N]");
  bool ode = false, sbml = false;
  std::vector<std::string> networks;
  std::vector<double> tols = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
  int repeats = 1;
  std::size_t outputs = 10, network_s_max = 1000;
  std::vector<double> network_tols = {1e-6};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--ode") ode = true;
    else if (a == "--sbml") sbml = true;
    else if (a == "--networks" && i + 1 < argc) networks = split(argv[++i]);
    else if (a == "--network-s-max" && i + 1 < argc) network_s_max = std::strtoul(argv[++i], nullptr, 10);
    else if (a == "--network-tols" && i + 1 < argc) {
      network_tols.clear();
      for (const auto& t : split(argv[++i])) network_tols.push_back(std::strtod(t.c_str(), nullptr));
    }
    else if (a == "--tols" && i + 1 < argc) {
      tols.clear();
      for (const auto& t : split(argv[++i])) tols.push_back(std::strtod(t.c_str(), nullptr));
    } else if (a == "--repeats" && i + 1 < argc) repeats = std::atoi(argv[++i]);
    else if (a == "--outputs" && i + 1 < argc) outputs = std::strtoul(argv[++i], nullptr, 10);
    else {
      std::fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (!ode && !sbml && networks.empty()) ode = true;

  std::vector<Case> cases;
  const std::vector<std::pair<std::string, double>> ode_files = {
      {"camkii", 600}, {"chua", 10}, {"cubic_oscillator", 100}, {"detest_c1", 20},
      {"detest_c5", 20}, {"michaelis_menten", 50}, {"pka", 600}, {"stiff_e3", 500},
      {"vanderpol", 0.5}};
  if (ode)
    for (const auto& [f, t] : ode_files) {
      const std::string path = shared_dir() + "/models/ode/" + f + ".ode";
      if (!std::ifstream(path).good()) continue;
      cases.push_back({f, odesens::load_model_file(path), t, true, true});
    }
  if (sbml) {
    const char* names[] = {"Armistead_CellDeathDis2024", "Bachmann_MSB2011",
                           "Beer_MolBioSystems2014", "Bertozzi_PNAS2020",
                           "Boehm_JProteomeRes2014", "Brannmark_JBC2010", "Bruno_JExpBot2016",
                           "Crauste_CellSystems2017", "Elowitz_Nature2000",
                           "Lang_PLOSComputBiol2024", "Laske_PLOSComputBiol2019",
                           "Lucarelli_CellSystems2018", "Okuonghae_ChaosSolitonsFractals2020",
                           "Oliveira_NatCommun2021", "Perelson_Science1996", "Rahman_MBS2016",
                           "Raia_CancerResearch2011", "SalazarCavazos_MBoC2020",
                           "Schwen_PONE2014", "Weber_BMC2015", "Zheng_PNAS2012"};
    for (const char* n : names) {
      const std::string path = shared_dir() + "/models/sbml/" + n + ".xml";
      if (!std::ifstream(path).good()) continue;
      auto m = odesens::load_model_file(path);
      cases.push_back({n, m, m->default_t_end(), true, true});
    }
  }
  for (const auto& n : networks) {
    auto m = odesens::load_model("builtin:network:" + n);
    const auto size = static_cast<std::size_t>(std::atoi(n.c_str()));
    const bool large = size >= 1000;
    cases.push_back({"network:" + n, m, 100.0, size <= network_s_max, size <= network_s_max && !large,
                     large});
  }

  // results[case][variant][tol]
  std::vector<std::vector<std::vector<Run>>> results(cases.size());
  std::printf("# rows: model rtol variant seconds steps f J LU precision\n");
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    const Case& c = cases[ci];
    Problem ref = problem_of(c, 1e-12, outputs);
    ref.atol = {1e-14};
    ref.options.set("sensitivities", std::int64_t{c.s_reference ? 1 : 0});
    Result rr, check;
    try {
      rr = odesens::solve(ref, "cvodes_fsa");
      check = odesens::solve(ref, "odesd");
    } catch (const odesens::Error& e) {
      std::printf("%s: no reference (%s)\n", c.name.c_str(), e.what());
      continue;
    }
    std::printf("%s: nx %zu np %zu, reference checked by odesd at 1e-12: x %.2e S %.2e\n",
                c.name.c_str(), c.model->nx(), c.model->np(), max_rel(check.x, rr.x),
                c.s_reference ? max_rel(check.s, rr.s) : 0.0);
    results[ci].resize(std::size(variants));
    for (std::size_t vi = 0; vi < std::size(variants); ++vi) {
      const Variant& v = variants[vi];
      for (double tol : tols) {
        Run r;
        const bool wanted =
            (!v.s || c.with_s) &&
            (!c.large || (std::find(network_tols.begin(), network_tols.end(), tol) !=
                              network_tols.end() &&
                          std::strcmp(v.label, "cvodes_stg") != 0));
        if (wanted) r = run(c, v, tol, outputs, repeats, rr);
        results[ci][vi].push_back(r);
        if (wanted)
          std::printf("%s %.0e %s %s %.4g %g %g %g %g %.3e%s%s\n", c.name.c_str(), tol, v.label,
                      r.ok ? "ok" : "FAILED", r.seconds, r.steps, r.f, r.jac, r.lu, r.precision,
                      r.ok ? "" : " ", r.error.c_str());
        std::fflush(stdout);
      }
    }
  }

  auto ratio_table = [&](const char* title, std::size_t num, std::size_t den, bool inverse_time) {
    std::printf("\n## %s\n\n| rtol | models | time | steps | f | J |\n|---|---|---|---|---|---|\n",
                title);
    for (std::size_t ti = 0; ti < tols.size(); ++ti) {
      Stat t, s, f, j;
      for (std::size_t ci = 0; ci < cases.size(); ++ci) {
        if (results[ci].empty() || cases[ci].large) continue;
        const Run& a = results[ci][num][ti];
        const Run& b = results[ci][den][ti];
        if (!a.ok || !b.ok) continue;
        t.add(inverse_time ? b.seconds / a.seconds : a.seconds / b.seconds);
        s.add(a.steps / b.steps);
        f.add(a.f / b.f);
        j.add(a.jac / b.jac);
      }
      std::printf("| %.0e | %zu | %.2f ± %.2f (gm %.2f) | %.2f ± %.2f | %.2f ± %.2f | %.2f ± %.2f |\n",
                  tols[ti], t.v.size(), t.mean(), t.sd(), t.geomean(), s.mean(), s.sd(),
                  f.mean(), f.sd(), j.mean(), j.sd());
    }
  };
  ratio_table("Fig. 1: states only, odesd_x / cvodes (time, steps, f, J; mean ± std)", 3, 0, false);
  ratio_table("Figs. 3C/3D/4B: cvodes_fsa / odesd time; odesd / cvodes_fsa steps, f, J", 4, 1, true);
  ratio_table("staggered: cvodes_stg / odesd time; odesd / cvodes_stg steps, f, J", 4, 2, true);

  const auto at = std::find_if(tols.begin(), tols.end(), [](double t) { return std::fabs(t - 1e-6) < 1e-12; });
  if (at != tols.end()) {
    const std::size_t ti = static_cast<std::size_t>(at - tols.begin());
    std::printf("\n## Fig. 3A/B: per model at rtol 1e-6 (seconds; steps)\n\n"
                "| model | nx | np | cvodes | cvodes_fsa | odesd_x | odesd | odesd/odesd_x | cvodes_fsa/odesd | steps odesd/cvodes_fsa | nnz(J) | nnz(J_a) | nnz(M) | nnz(L+U) | KLU |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t ci = 0; ci < cases.size(); ++ci) {
      if (results[ci].empty()) continue;
      const auto& R = results[ci];
      const Run& od = R[4][ti].ok ? R[4][ti] : R[3][ti];
      auto ex = [&](const char* k) {
        const auto it = od.extra.find(k);
        return it == od.extra.end() ? NAN : it->second;
      };
      std::printf("| %s | %zu | %zu | %.4f (%g) | %.4f (%g) | %.4f (%g) | %.4f (%g) | %.2f | %.2f | %.2f | %g | %g | %g | %g | %g |\n",
                  cases[ci].name.c_str(), cases[ci].model->nx(), cases[ci].model->np(),
                  R[0][ti].seconds, R[0][ti].steps, R[1][ti].seconds, R[1][ti].steps,
                  R[3][ti].seconds, R[3][ti].steps, R[4][ti].seconds, R[4][ti].steps,
                  R[4][ti].seconds / R[3][ti].seconds, R[1][ti].seconds / R[4][ti].seconds,
                  R[4][ti].steps / R[1][ti].steps, ex("nnz_jac_x"), ex("nnz_jac_a"),
                  ex("nnz_matrix"), ex("nnz_factors"), ex("klu"));
    }
  }

  // Figs. 2/5: work against precision, geometric means over the models
  // (the networks of n >= 1000 apart) of time and precision per rtol.
  std::printf("\n## Figs. 2/5: work-precision (geometric means over models: seconds; precision)\n\n"
              "| rtol | models |");
  for (const Variant& v : variants) std::printf(" %s |", v.label);
  std::printf("\n|---|---|");
  for (std::size_t vi = 0; vi < std::size(variants); ++vi) std::printf("---|");
  std::printf("\n");
  for (std::size_t ti = 0; ti < tols.size(); ++ti) {
    std::vector<Stat> time(std::size(variants)), prec(std::size(variants));
    std::size_t models = 0;
    for (std::size_t ci = 0; ci < cases.size(); ++ci) {
      if (results[ci].empty() || cases[ci].large) continue;
      bool all = true;
      for (std::size_t vi = 0; vi < std::size(variants); ++vi)
        all = all && results[ci][vi][ti].ok;
      if (!all) continue;  // the same models in every column
      ++models;
      for (std::size_t vi = 0; vi < std::size(variants); ++vi) {
        time[vi].add(results[ci][vi][ti].seconds);
        prec[vi].add(results[ci][vi][ti].precision);
      }
    }
    std::printf("| %.0e | %zu |", tols[ti], models);
    for (std::size_t vi = 0; vi < std::size(variants); ++vi)
      std::printf(" %.3g; %.1e |", time[vi].geomean(), prec[vi].geomean());
    std::printf("\n");
  }

  // cvodes_fsa's time at odesd's achieved precision, by log-log
  // interpolation between the two cvodes_fsa points that bracket it.
  auto fsa_time_at = [&](std::size_t ci, double precision) {
    std::vector<std::pair<double, double>> pts;  // (log precision, log time)
    for (const Run& r : results[ci][1])
      if (r.ok && r.precision > 0) pts.push_back({std::log(r.precision), std::log(r.seconds)});
    std::sort(pts.begin(), pts.end());
    const double lp = std::log(precision);
    for (std::size_t k = 1; k < pts.size(); ++k)
      if (pts[k - 1].first <= lp && lp <= pts[k].first) {
        const double w = pts[k].first > pts[k - 1].first
                             ? (lp - pts[k - 1].first) / (pts[k].first - pts[k - 1].first)
                             : 0.0;
        return std::exp(pts[k - 1].second + w * (pts[k].second - pts[k - 1].second));
      }
    return std::numeric_limits<double>::quiet_NaN();
  };

  // Goals (the paper's claims as floors).
  Stat t48, t6, steps48, sx_t, sx_steps, s_over_x, equal_precision, large_fsa;
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    if (results[ci].empty()) continue;
    if (cases[ci].large) {
      for (std::size_t ti = 0; ti < tols.size(); ++ti)
        if (results[ci][4][ti].ok && results[ci][1][ti].ok)
          large_fsa.add(results[ci][1][ti].seconds / results[ci][4][ti].seconds);
      continue;
    }
    for (std::size_t ti = 0; ti < tols.size(); ++ti) {
      const auto& R = results[ci];
      const double tol = tols[ti];
      if (R[4][ti].ok && R[1][ti].ok && tol <= 1.001e-4 && tol >= 0.999e-8) {
        t48.add(R[1][ti].seconds / R[4][ti].seconds);
        steps48.add(R[4][ti].steps / R[1][ti].steps);
      }
      if (R[4][ti].ok && R[1][ti].ok && std::fabs(tol - 1e-6) < 1e-12)
        t6.add(R[1][ti].seconds / R[4][ti].seconds);
      if (R[3][ti].ok && R[0][ti].ok && tol <= 1.001e-4 && tol >= 0.999e-8) {
        sx_t.add(R[3][ti].seconds / R[0][ti].seconds);
        sx_steps.add(R[3][ti].steps / R[0][ti].steps);
      }
      if (R[4][ti].ok && R[3][ti].ok && tol <= 1.001e-4 && tol >= 0.999e-8)
        s_over_x.add(R[4][ti].seconds / R[3][ti].seconds);
      if (R[4][ti].ok && cases[ci].s_reference && tol <= 1.001e-4 && tol >= 0.999e-8)
        equal_precision.add(fsa_time_at(ci, R[4][ti].precision) / R[4][ti].seconds);
    }
  }
  std::printf("\n## Goals (geometric means, rtol 1e-4 ... 1e-8)\n\n");
  std::printf("| goal | measured | met |\n|---|---|---|\n");
  auto goal = [](const char* g, double v, bool met) {
    std::printf("| %s | %.2f | %s |\n", g, v, met ? "yes" : "no");
  };
  goal("cvodes_fsa/odesd time >= 2", t48.geomean(), t48.geomean() >= 2);
  goal("cvodes_fsa/odesd time at 1e-6 >= 3", t6.geomean(), t6.geomean() >= 3);
  goal("cvodes_fsa/odesd time at equal precision >= 2", equal_precision.geomean(),
       equal_precision.geomean() >= 2);
  goal("odesd/cvodes_fsa steps <= 0.5", steps48.geomean(), steps48.geomean() <= 0.5);
  goal("states only: odesd_x/cvodes time <= 1", sx_t.geomean(), sx_t.geomean() <= 1);
  goal("states only: odesd_x/cvodes steps <= 0.5", sx_steps.geomean(), sx_steps.geomean() <= 0.5);
  goal("odesd/odesd_x time <= 3", s_over_x.geomean(), s_over_x.geomean() <= 3);
  if (!large_fsa.v.empty())
    goal("n >= 1000: cvodes_fsa/odesd time >= 2", large_fsa.geomean(), large_fsa.geomean() >= 2);
  return 0;
}
