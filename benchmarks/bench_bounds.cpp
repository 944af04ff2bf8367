// bounds_fsa and bounds_asa on the set-valued sensitivity paper's case
// studies (Peric, Villanueva & Chachuat 2017): its Tables 3 (anaerobic
// digester) and 4 (batch reactor; the simultaneous-corrector FSA columns
// and the ASA columns, state and adjoint passes apart) cell by cell beside
// the paper's numbers, and the widths of the dF/dp enclosures on the cubic
// oscillator (section 5.1) and the digester (section 5.2).
//
//   bench_bounds [--quick]   (--quick: only the cells under a few seconds)
//
// Prints Markdown. The paper's times are for an i7-3770 (3.4 GHz, gcc 4.8
// -O2); its RHS counts are CVODES' (state + sensitivity right-hand sides).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "odesens/expr_model.hpp"
#include "odesens/odesens.hpp"
#include "support/bounds_case_studies.hpp"
#include "bench_flags.hpp"

using namespace odesens;

namespace {

using odesens::testing::batch_reactor;
using odesens::testing::bounds_problem;
using odesens::testing::cubic_oscillator;
using odesens::testing::digester;

struct Run {
  bool ok = false;
  std::string error;
  double seconds = 0;
  std::int64_t steps = 0, rhs = 0;
  Result result;
};

// One solve of `method`; RHS counts state plus sensitivity (or adjoint and
// quadrature) right-hand sides.
Run run(const odesens::testing::CaseStudy& c, const char* method, int order,
        const char* remainder) {
  const Problem pr = bounds_problem(c, order, remainder);
  Run r;
  const auto start = std::chrono::steady_clock::now();
  try {
    r.result = solve(pr, method);
    r.ok = true;
  } catch (const Error& e) {
    r.error = e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.ok) {
    auto& extra = r.result.stats.extra;
    r.steps = r.result.stats.steps;
    r.rhs = r.result.stats.rhs_evals + static_cast<std::int64_t>(extra["sens_rhs_evals"]) +
            static_cast<std::int64_t>(extra["backward_rhs_evals"]);
  }
  return r;
}

// The cubic oscillator over [0, 100] with F = q(100) only.
odesens::testing::CaseStudy cubic_case() {
  odesens::testing::CaseStudy c = cubic_oscillator();
  c.tout = {100.0};
  c.weights = {0, 0, 1};
  return c;
}

std::string cell(const Run& r, double paper_seconds, std::int64_t paper_steps,
                 std::int64_t paper_rhs) {
  char b[200];
  if (!r.ok) return "failed (" + r.error.substr(0, 60) + ")";
  std::snprintf(b, sizeof b, "%.2f s (paper %.2f; %.1fx) | %lld (%lld) | %lld (%lld)", r.seconds,
                paper_seconds, paper_seconds / r.seconds, static_cast<long long>(r.steps),
                static_cast<long long>(paper_steps), static_cast<long long>(r.rhs),
                static_cast<long long>(paper_rhs));
  return b;
}

std::string hull_text(const Result& r) {
  std::string s;
  char b[80];
  for (std::size_t j = 0; j < r.np; ++j) {
    std::snprintf(b, sizeof b, "%s[%.3f, %.3f]", j ? " x " : "", r.bounds.gradient_hull[2 * j],
                  r.bounds.gradient_hull[2 * j + 1]);
    s += b;
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv, {{"--quick", false}}, "[--quick]");
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;

  std::printf("### Table 3: anaerobic digester, FSA (state + sensitivity)\n\n");
  std::printf("| q | remainder | time (paper; paper/ours) | steps (paper) | RHS (paper) |\n");
  std::printf("|---|---|---|---|---|\n");
  const struct {
    int q;
    double t_ir, t_er;
    std::int64_t steps_ir, steps_er, rhs_ir, rhs_er;
  } table3[] = {{2, 3.3, 5.5, 1136, 1865, 2781, 4450},
                {3, 7.1, 8.9, 1143, 2156, 2728, 5379},
                {5, 44.8, 52.7, 1059, 2785, 2644, 7449}};
  std::map<std::string, double> fsa_seconds;  // "case q rem" -> seconds
  auto key = [](const char* name, int q, int n, const char* rem) {
    return std::string(name) + " " + std::to_string(q) + " " + std::to_string(n) + " " + rem;
  };
  for (const auto& row : table3) {
    if (quick && row.q > 3) continue;
    for (const char* rem : {"interval", "ellipsoid"}) {
      const bool ir = std::strcmp(rem, "interval") == 0;
      const Run r = run(digester(), "bounds_fsa", row.q, rem);
      if (r.ok) fsa_seconds[key("digester", row.q, 0, rem)] = r.seconds;
      std::printf("| %d | %s | %s |\n", row.q, rem,
                  cell(r, ir ? row.t_ir : row.t_er, ir ? row.steps_ir : row.steps_er,
                       ir ? row.rhs_ir : row.rhs_er)
                      .c_str());
      if (r.ok) std::printf("|   |   | dF/dp in %s | | |\n", hull_text(r.result).c_str());
    }
  }
  std::printf("\nSampled range of dF/dp (paper): [-7.051, 5.956] x [-35.25, 26.15] x "
              "[-0.958, 0.887].\n\n");

  std::printf("### Table 4: batch reactor, FSA with the simultaneous corrector\n\n");
  std::printf("| q, N | remainder | time (paper; paper/ours) | steps (paper) | RHS (paper) |\n");
  std::printf("|---|---|---|---|---|\n");
  const struct {
    int q, n;
    double t_ir, t_er;
    std::int64_t steps_ir, steps_er, rhs_ir, rhs_er;
  } table4[] = {{2, 2, 0.91, 0.84, 927, 1035, 2422, 2701},
                {2, 8, 32.8, 25.9, 1865, 1926, 4804, 4795},
                {3, 2, 1.90, 1.54, 2268, 1361, 4145, 3691},
                {3, 8, 312, 82.4, 1451, 1361, 3882, 3619}};
  for (const auto& row : table4) {
    if (quick && row.n > 2) continue;
    for (const char* rem : {"interval", "ellipsoid"}) {
      const bool ir = std::strcmp(rem, "interval") == 0;
      const Run r = run(batch_reactor(row.n), "bounds_fsa", row.q, rem);
      if (r.ok) fsa_seconds[key("reactor", row.q, row.n, rem)] = r.seconds;
      std::printf("| %d, %d | %s | %s |\n", row.q, row.n, rem,
                  cell(r, ir ? row.t_ir : row.t_er, ir ? row.steps_ir : row.steps_er,
                       ir ? row.rhs_ir : row.rhs_er)
                      .c_str());
    }
  }

  // The ASA columns: the state pass (CVodeF) and the adjoint pass (CVodeB
  // with the gradient's quadratures) apart, and bounds_fsa's time of the
  // same cell above over ours.
  auto asa_cell = [&](const Run& r, double paper_state, double paper_adjoint, double fsa) {
    char b[300];
    if (!r.ok) return "failed (" + r.error.substr(0, 60) + ") | | | |";
    const auto& extra = r.result.stats.extra;
    const double st = extra.at("state_pass_seconds"), ad = extra.at("adjoint_pass_seconds");
    std::snprintf(b, sizeof b,
                  "%.2f s (paper %.2f; %.1fx) | %.2f s (paper %.2f; %.1fx) | %.2f s | %s | %lld, %lld",
                  st, paper_state, paper_state / st, ad, paper_adjoint, paper_adjoint / ad,
                  r.seconds, fsa > 0 ? (std::to_string(fsa / r.seconds).substr(0, 4) + "x").c_str() : "-",
                  static_cast<long long>(r.steps),
                  static_cast<long long>(extra.at("backward_steps")));
    return std::string(b);
  };
  const char* asa_header =
      "| state pass (paper; paper/ours) | adjoint pass (paper; paper/ours) | total | "
      "bounds_fsa / bounds_asa | steps (state, adjoint) |\n";
  std::printf("\n### Table 3: anaerobic digester, ASA (state pass + adjoint pass)\n\n");
  std::printf("| q | remainder %s", asa_header);
  std::printf("|---|---|---|---|---|---|---|\n");
  const struct {
    int q;
    double state_ir, state_er, adjoint_ir, adjoint_er;
  } table3_asa[] = {{2, 0.4, 0.7, 2.0, 2.7}, {3, 0.9, 1.0, 4.0, 4.1}, {5, 3.6, 5.5, 15.6, 27.6}};
  for (const auto& row : table3_asa) {
    if (quick && row.q > 3) continue;
    for (const char* rem : {"interval", "ellipsoid"}) {
      const bool ir = std::strcmp(rem, "interval") == 0;
      const Run r = run(digester(), "bounds_asa", row.q, rem);
      std::printf("| %d | %s | %s |\n", row.q, rem,
                  asa_cell(r, ir ? row.state_ir : row.state_er,
                           ir ? row.adjoint_ir : row.adjoint_er,
                           fsa_seconds[key("digester", row.q, 0, rem)])
                      .c_str());
      if (r.ok) std::printf("|   |   | dF/dp in %s | | | | |\n", hull_text(r.result).c_str());
    }
  }

  std::printf("\n### Table 4: batch reactor, ASA (state pass + adjoint pass)\n\n");
  std::printf("| q, N | remainder %s", asa_header);
  std::printf("|---|---|---|---|---|---|---|\n");
  const struct {
    int q, n;
    double state_ir, state_er, adjoint_ir, adjoint_er;
  } table4_asa[] = {{2, 2, 0.11, 0.10, 0.07, 0.09},
                    {2, 8, 1.23, 0.88, 1.10, 1.20},
                    {3, 2, 1.70, 0.18, 1.83, 0.17},
                    {3, 8, 19.3, 5.21, 11.0, 4.85}};
  for (const auto& row : table4_asa) {
    if (quick && row.n > 2) continue;
    for (const char* rem : {"interval", "ellipsoid"}) {
      const bool ir = std::strcmp(rem, "interval") == 0;
      const Run r = run(batch_reactor(row.n), "bounds_asa", row.q, rem);
      std::printf("| %d, %d | %s | %s |\n", row.q, row.n, rem,
                  asa_cell(r, ir ? row.state_ir : row.state_er,
                           ir ? row.adjoint_ir : row.adjoint_er,
                           fsa_seconds[key("reactor", row.q, row.n, rem)])
                      .c_str());
    }
  }

  std::printf("\n### Cubic oscillator: dF/dp enclosures (Chebyshev, ellipsoidal remainders)\n\n");
  std::printf("| q | method | enclosure | paper | width ratio (ours / paper) | time | steps |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  const struct {
    const char* method;
    int q;
    double lo1, hi1, lo2, hi2;
  } cubic[] = {{"bounds_fsa", 4, 1.454, 4.438, -1.553, 3.566},
               {"bounds_asa", 4, 0.945, 4.947, -2.829, 4.841},
               {"bounds_fsa", 5, 2.085, 3.806, -0.406, 2.417},
               {"bounds_asa", 5, 2.015, 3.876, -0.604, 2.617},
               {"bounds_fsa", 8, 2.252, 3.639, -0.111, 2.123},
               {"bounds_asa", 8, 2.252, 3.640, -0.113, 2.125}};
  for (const auto& row : cubic) {
    if (quick && row.q > 5) continue;
    const Run r = run(cubic_case(), row.method, row.q, "ellipsoid");
    if (!r.ok) {
      std::printf("| %d | %s | failed: %s | | | | |\n", row.q, row.method, r.error.c_str());
      continue;
    }
    const auto& h = r.result.bounds.gradient_hull;
    std::printf("| %d | %s | %s | [%.3f, %.3f] x [%.3f, %.3f] | %.3f, %.3f | %.2f s | %lld |\n",
                row.q, row.method, hull_text(r.result).c_str(), row.lo1, row.hi1, row.lo2,
                row.hi2, (h[1] - h[0]) / (row.hi1 - row.lo1),
                (h[3] - h[2]) / (row.hi2 - row.lo2), r.seconds,
                static_cast<long long>(r.steps));
  }
  std::printf("\nTrue range by dense sampling: [2.4606, 3.5918] x [-0.0485, 1.8938].\n");
  return 0;
}
