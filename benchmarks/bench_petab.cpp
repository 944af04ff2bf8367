// PEtab problems of the benchmark collection (../shared/petab/benchmark):
// the cost of the log-likelihood with its gradient (forward sensitivities
// by cvodes_fsa and by odesd, the adjoint) and with the Fisher information
// (cvodes_fsa, odesd), as ratios to the cost of the simulation alone
// (cvodes_fsa without S), and what auto runs for the gradient and the FIM
// against the fastest, all at the default tolerances (rtol 1e-8, atol
// 1e-10) on one thread.
//
// With --sessions: the cost of an evaluation in a PetabSession (the
// method's set-up kept across evaluations, as a fit's evaluations run)
// against a fresh PetabProblem::evaluate, for the simulation and the
// forward gradient.
//
// usage: bench_petab [--repeats N] [--problems A,B,...] [--sessions]
// Each time is the median of N evaluations (default 3) after one warm-up.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "odesens/odesens.hpp"
#include "odesens/petab.hpp"
#include "bench_flags.hpp"

namespace {

std::string shared_dir() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return env && *env ? env : ODESENS_DEFAULT_SHARED_DIR;
}

// The problems of ../shared/petab/benchmark (each directory), but
// Lang_PLOSComputBiol2024, whose gradient alone takes 12-28 s here by the
// adjoint and 598 s forward (its simulation 0.3 s): its five
// timings would be most of the run.
std::vector<std::string> collection() {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(shared_dir() + "/petab/benchmark", ec), end;
       !ec && it != end; it.increment(ec))
    if (it->is_directory(ec) && it->path().filename() != "Lang_PLOSComputBiol2024")
      names.push_back(it->path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The median wall time of EVALUATOR.evaluate(x, o) over REPEATS runs, after
// one warm-up run (which builds the tapes made on first use and, for a
// session, prepares it). EVALUATOR: a PetabProblem or a PetabSession.
template <class Evaluator>
double median_seconds(Evaluator& evaluator, const std::vector<double>& x,
                      const odesens::PetabOptions& o, int repeats) {
  evaluator.evaluate(x, o);
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    evaluator.evaluate(x, o);
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// One row of the --sessions table.
void session_row(const std::string& name, const std::string& yaml, int repeats) {
  auto p = odesens::PetabProblem::load(yaml);
  odesens::PetabSession session(p);
  const std::vector<double> x = p->nominal_scaled();
  odesens::PetabOptions sim, fwd;
  sim.method = "cvodes_fsa";
  fwd.gradient = true;
  fwd.method = "cvodes_fsa";
  const double ts = median_seconds(*p, x, sim, repeats);
  const double ss = median_seconds(session, x, sim, repeats);
  const double tf = median_seconds(*p, x, fwd, repeats);
  const double sf = median_seconds(session, x, fwd, repeats);
  std::printf("| %s | %zu | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", name.c_str(),
              p->n_experiments(), ts * 1e3, ss * 1e3, ss / ts, tf * 1e3, sf * 1e3, sf / tf);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(argc, argv,
                              {{"--repeats", true}, {"--problems", true}, {"--sessions", false}},
                              "[--repeats N] [--problems A,B,...] [--sessions]");
  int repeats = 3;
  bool sessions = false;
  std::vector<std::string> problems = collection();
  if (problems.empty())
    std::fprintf(stderr, "bench_petab: no problem directories in %s/petab/benchmark "
                 "(ODESENS_SHARED_DIR)\n", shared_dir().c_str());
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc)
      repeats = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--problems") && i + 1 < argc) problems = split(argv[++i]);
    else if (!std::strcmp(argv[i], "--sessions")) sessions = true;
  }
  if (sessions) {
    std::printf("| problem | experiments | simulation, fresh (ms) | in a session (ms) | ratio | "
                "forward gradient, fresh (ms) | in a session (ms) | ratio |\n");
    std::printf("|---|---|---|---|---|---|---|---|\n");
    for (const std::string& name : problems) {
      const std::string yaml = shared_dir() + "/petab/benchmark/" + name;  // names its file
      try {
        session_row(name, yaml, repeats);
      } catch (const odesens::Error& e) {
        std::printf("| %s | failed: %s | | | | | | |\n", name.c_str(), e.what());
      }
      std::fflush(stdout);
    }
    return 0;
  }
  std::vector<std::string> failures;
  std::printf("| problem | parameters (estimated / model) | experiments | simulation (ms) | "
              "gradient: cvodes_fsa | odesd | cvodes_asa | FIM: cvodes_fsa | odesd | "
              "fastest gradient | auto | auto / fastest | auto's FIM / fastest |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& name : problems) {
    const std::string yaml = shared_dir() + "/petab/benchmark/" + name;  // names its file
    struct stat st;
    if (::stat(yaml.c_str(), &st) != 0) {
      std::printf("| %s | not found | | | | | | | | | | | |\n", name.c_str());
      continue;
    }
    try {
      auto p = odesens::PetabProblem::load(yaml);
      const std::vector<double> x = p->nominal_scaled();
      odesens::PetabOptions sim;
      sim.method = "cvodes_fsa";
      const double ts = median_seconds(*p, x, sim, repeats);
      // A method that fails on a problem (the adjoint's backward problems
      // can run out of steps) leaves its cell saying so; the row goes on.
      auto timed = [&](const char* method, bool fim) {
        odesens::PetabOptions o;
        o.method = method;
        (fim ? o.fim : o.gradient) = true;
        try {
          return median_seconds(*p, x, o, repeats);
        } catch (const odesens::Error& e) {
          failures.push_back(name + " (" + method + (fim ? ", FIM" : "") + "): " + e.what());
          return std::numeric_limits<double>::infinity();
        }
      };
      const char* kGradientMethods[] = {"cvodes_fsa", "odesd", "cvodes_asa"};
      double tg[3], tfim[2];
      for (int k = 0; k < 3; ++k) tg[k] = timed(kGradientMethods[k], false);
      for (int k = 0; k < 2; ++k) tfim[k] = timed(kGradientMethods[k], true);
      const double ta = timed("auto", false), taf = timed("auto", true);
      odesens::PetabOptions automatic;
      automatic.gradient = true;
      const std::string chosen = p->evaluate(x, automatic).method;
      const int fastest = static_cast<int>(std::min_element(tg, tg + 3) - tg);
      auto ratio = [&](double t) {
        if (!std::isfinite(t)) return std::string("failed");
        char text[32];
        std::snprintf(text, sizeof text, "%.1f×", t / ts);
        return std::string(text);
      };
      std::printf("| %s | %zu / %zu | %zu | %.2f | %s | %s | %s | %s | %s | %s | %s | %.2f | %.2f |\n",
                  name.c_str(), p->parameter_ids().size(), p->model()->np(), p->n_experiments(),
                  ts * 1e3, ratio(tg[0]).c_str(), ratio(tg[1]).c_str(), ratio(tg[2]).c_str(),
                  ratio(tfim[0]).c_str(), ratio(tfim[1]).c_str(), kGradientMethods[fastest],
                  chosen.c_str(), ta / tg[fastest], taf / std::min(tfim[0], tfim[1]));
    } catch (const odesens::Error& e) {
      std::printf("| %s | failed: %s | | | | | | | | | | | |\n", name.c_str(), e.what());
    }
    std::fflush(stdout);
  }
  for (const std::string& f : failures) std::printf("\nfailed: %s\n", f.c_str());
  return 0;
}
