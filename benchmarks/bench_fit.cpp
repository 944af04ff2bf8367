// Multi-start fits of PEtab problems of the benchmark collection
// (../shared/petab/benchmark), the optimizers side by side on the same
// starts: how often each finds the best value, and what a found optimum
// costs in CPU time (converged starts per CPU minute, the measure used to
// compare optimizers in the field).
//
// usage: bench_fit [--starts N] [--problems A,B,...] [--optimizers a,b]
//                  [--threads T] [--seed S] [--max-seconds X] [--max-steps N]
//                  [--method ID] [--hops R] [--hop-starts K] [--hop-sigma S]
//                  [--resample-failed N] [--details]
// --max-steps, --method: the evaluations' limit of steps per solve and
// their method (defaults: PetabOptions'). An optimizer written
// ID+hierarchical runs a hierarchical fit (docs/fit.md), so that
// --optimizers ceres_lm_lbfgs,ceres_lm_lbfgs+hierarchical compares the two
// on the same starts. ID+hops runs the fit with R rounds of K hops
// (docs/fit.md, "Hops"; --hops, default 4 x 8, sigma 0.5) from a
// hypercube of N - R*K starts drawn with the same seed: as many starts in
// all as ID alone runs from its N, so that ID,ID+hops compares the two
// ways of spending them (N must exceed R*K). ID+hops+local draws every
// parameter of a hop around the round's center, also those without effect
// there (FitOptions::hop_flat_from_box false), so that ID+hops,ID+hops+local
// compares the two from the same starts; ID+hops+noblocks redraws no block
// alone (FitOptions::hop_blocks false; both: ID+hops+local+noblocks). The
// suffixes combine (ID+hierarchical+hops).
// Problems also from BENCH_FIT_PROBLEMS (comma-separated) when --problems
// is not given. Each start runs on one thread; T starts at once (default 0:
// one per core). The values compared are of nlpost, what the optimizers
// minimize (nllh plus the priors' terms; nllh where the problem has no
// priors, as on most of the collection). A start "converged" when its
// final nlpost is within 0.1 of the best value any optimizer found on that
// problem. The reference is nlpost at the problem's nominal parameters (the
// published nllh there plus the priors' terms), evaluated here with the
// fit's own simulation settings. --details lists every start (final nllh
// and nlpost, iterations, time, exit reason) on standard error.
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "odesens/fit.hpp"
#include "odesens/odesens.hpp"
#include "odesens/petab.hpp"
#include "bench_flags.hpp"

namespace {

std::string shared_dir() {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return env && *env ? env : ODESENS_DEFAULT_SHARED_DIR;
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

// User and system time of the whole process: the starts run on worker
// threads, so wall time would hide how many cores they kept busy, and on
// a shared machine it would also count other programs' time.
double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * t.tv_usec; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// A count of hops: a whole number up to a million (the library checks the
// rest); anything else ends the benchmark.
std::size_t count(const char* text) {
  char* end = nullptr;
  const long long n = std::strtoll(text, &end, 10);
  if (*text == '\0' || *end != '\0' || n < 0 || n > 1'000'000) {
    std::fprintf(stderr, "bench_fit: a count from 0 to 1e6 is needed, got '%s'\n", text);
    std::exit(2);
  }
  return static_cast<std::size_t>(n);
}

// Takes `suffix` off the end of `id`: whether it was there.
bool take_suffix(std::string& id, const std::string& suffix) {
  if (id.size() <= suffix.size() || id.compare(id.size() - suffix.size(), suffix.size(), suffix))
    return false;
  id.resize(id.size() - suffix.size());
  return true;
}

struct Run {
  std::string optimizer;
  bool hierarchical = false, hops = false, local = false, noblocks = false;
  odesens::FitResult fit;
  double cpu = 0.0;  // seconds of the process while this fit ran
  std::string error;  // the fit threw (e.g. an optimizer the problem cannot use)
};

// The run's settings from the command line.
struct Settings {
  std::size_t starts = 10;
  unsigned threads = 0;
  std::uint64_t seed = 1;
  double max_seconds = 0.0;
  std::int64_t max_steps = odesens::PetabOptions{}.max_steps;
  std::string method = odesens::PetabOptions{}.method;
  std::size_t hop_rounds = 4, hop_starts = 8;
  double hop_sigma = 0.5;
  std::size_t resample_failed = 0;
};

// The fit options of run.optimizer (ID, ID+hierarchical, ID+hops[+local][+noblocks]) from
// `points`; false, with run.error, where they cannot be made.
bool fit_options_for(const Settings& set, const odesens::PetabProblem& problem,
                     const std::vector<std::vector<double>>& points, Run& run,
                     odesens::FitOptions& o) {
  // ID+hierarchical: the optimizer on the outer parameters, the
  // evaluations setting the inner ones (docs/fit.md). ID+hops: fewer
  // starts, and hops (above).
  std::string id = run.optimizer;
  run.noblocks = take_suffix(id, "+noblocks");
  run.local = take_suffix(id, "+local");
  run.hops = take_suffix(id, "+hops");
  if ((run.local || run.noblocks) && !run.hops) {
    run.error = "+local and +noblocks shape the hops: write ID+hops+local, ID+hops+noblocks "
                "or ID+hops+local+noblocks";
    return false;
  }
  run.hierarchical = take_suffix(id, "+hierarchical");
  o.optimizer.optimizer = id;
  o.optimizer.evaluation.hierarchical = run.hierarchical;
  o.optimizer.max_seconds = set.max_seconds;
  o.optimizer.evaluation.max_steps = set.max_steps;
  o.optimizer.evaluation.method = set.method;
  o.start_points = points;
  if (run.hops) {
    if (set.starts <= set.hop_rounds * set.hop_starts) {
      run.error = "--starts must exceed --hops x --hop-starts for +hops";
      return false;
    }
    o.start_points = odesens::latin_hypercube(problem.lower_scaled(), problem.upper_scaled(),
                                              set.starts - set.hop_rounds * set.hop_starts,
                                              set.seed);
    o.hop_rounds = set.hop_rounds;
    o.hop_starts = set.hop_starts;
    o.hop_sigma = set.hop_sigma;
    o.hop_flat_from_box = !run.local;
    o.hop_blocks = !run.noblocks;
  }
  o.seed = set.seed;
  o.threads = set.threads;
  o.resample_failed = set.resample_failed;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  odesens::bench::check_flags(
      argc, argv,
      {{"--starts", true},
       {"--problems", true},
       {"--optimizers", true},
       {"--threads", true},
       {"--seed", true},
       {"--max-seconds", true},
       {"--max-steps", true},
       {"--method", true},
       {"--hops", true},
       {"--hop-starts", true},
       {"--hop-sigma", true},
       {"--resample-failed", true},
       {"--details", false}},
      "[--starts N] [--problems A,B,...] [--optimizers ID,...] [--threads T] [--seed S] "
      "[--max-seconds S] [--max-steps N] [--method ID] [--hops R] [--hop-starts K] "
      "[--hop-sigma S] [--resample-failed N] [--details]");
  Settings set;
  bool details = false;
  std::vector<std::string> problems = {"Boehm_JProteomeRes2014", "Bruno_JExpBot2016",
                                       "Crauste_CellSystems2017"};
  if (const char* env = std::getenv("BENCH_FIT_PROBLEMS"); env && *env) problems = split(env);
  std::vector<std::string> optimizers = {"ceres_lm", "ceres_lm_lbfgs", "nlopt_lbfgs"};
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--starts") && has_value)
      set.starts = std::strtoul(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--problems") && has_value) problems = split(argv[++i]);
    else if (!std::strcmp(argv[i], "--optimizers") && has_value) optimizers = split(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads") && has_value) set.threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--seed") && has_value)
      set.seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--max-seconds") && has_value)
      set.max_seconds = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--max-steps") && has_value)
      set.max_steps = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--method") && has_value) set.method = argv[++i];
    else if (!std::strcmp(argv[i], "--hops") && has_value) set.hop_rounds = count(argv[++i]);
    else if (!std::strcmp(argv[i], "--hop-starts") && has_value) set.hop_starts = count(argv[++i]);
    else if (!std::strcmp(argv[i], "--hop-sigma") && has_value)
      set.hop_sigma = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--resample-failed") && has_value)
      set.resample_failed = count(argv[++i]);
    else if (!std::strcmp(argv[i], "--details")) details = true;
    else {
      std::fprintf(stderr, "bench_fit: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  std::printf("| problem | optimizer | starts | failed | converged | fraction | "
              "converged / CPU min | best nlpost | reference | reached | median s / start | "
              "CPU s |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  for (const std::string& name : problems) {
    // The problem's directory: it names its problem file (PetabProblem::load).
    const std::string yaml = shared_dir() + "/petab/benchmark/" + name;
    struct stat st;
    if (::stat(yaml.c_str(), &st) != 0) {
      std::printf("| %s | not found | | | | | | | | | | |\n", name.c_str());
      std::fflush(stdout);
      continue;
    }
    std::shared_ptr<const odesens::PetabProblem> problem;
    double reference = std::numeric_limits<double>::quiet_NaN();
    try {
      problem = odesens::PetabProblem::load(yaml);
      const odesens::PetabOptions settings = odesens::OptimizerOptions{}.evaluation;
      reference = problem->evaluate(problem->nominal_scaled(), settings).nlpost;
    } catch (const odesens::Error& e) {
      if (!problem) {
        std::printf("| %s | failed: %s | | | | | | | | | | |\n", name.c_str(), e.what());
        std::fflush(stdout);
        continue;
      }
      // Without a reference the fits still say what they found.
    }
    // Every optimizer starts from the same points: the comparison is of
    // the optimizers, not of their luck with the starts.
    const std::vector<std::vector<double>> points =
        odesens::latin_hypercube(problem->lower_scaled(), problem->upper_scaled(), set.starts,
                                 set.seed);
    std::vector<Run> runs;
    for (const std::string& optimizer : optimizers) {
      Run run;
      run.optimizer = optimizer;
      odesens::FitOptions o;
      if (!fit_options_for(set, *problem, points, run, o)) {
        runs.push_back(std::move(run));
        continue;
      }
      const double before = cpu_seconds();
      try {
        run.fit = odesens::fit(*problem, o);
      } catch (const odesens::Error& e) {
        run.error = e.what();
      }
      run.cpu = cpu_seconds() - before;
      if (details)
        for (const odesens::StartResult& s : run.fit.starts)
          std::fprintf(stderr, "%s %s start %zu (round %zu): nllh %.6g, nlpost %.6g, "
                       "%lld iterations, %lld evaluations, %.2f s, %s\n", name.c_str(),
                       optimizer.c_str(),
                       s.index, s.round, s.nllh, s.nlpost,
                       static_cast<long long>(s.iterations), static_cast<long long>(s.evaluations),
                       s.seconds, s.exit_reason.c_str());
      runs.push_back(std::move(run));
    }
    // The best value any optimizer found: the target both are counted against.
    double best = std::numeric_limits<double>::infinity();
    for (const Run& r : runs)
      for (const odesens::StartResult& s : r.fit.starts)
        if (odesens::start_succeeded(s)) best = std::min(best, s.nlpost);
    for (const Run& r : runs) {
      if (!r.error.empty()) {
        std::printf("| %s | %s | failed: %s | | | | | | | | | |\n", name.c_str(),
                    r.optimizer.c_str(), r.error.c_str());
        continue;
      }
      std::size_t failed = 0, converged = 0;
      double own_best = std::numeric_limits<double>::infinity();
      std::vector<double> seconds;
      for (const odesens::StartResult& s : r.fit.starts) {
        seconds.push_back(s.seconds);
        if (!odesens::start_succeeded(s)) {
          ++failed;
          continue;
        }
        own_best = std::min(own_best, s.nlpost);
        if (s.nlpost <= best + 0.1) ++converged;
      }
      const std::size_t n = r.fit.starts.size();
      // The reference counts as reached within the tests' tolerance
      // (tests/fit/test_fit_benchmark.cpp).
      const bool reached = own_best <= reference + 1e-3 * (1.0 + std::abs(reference));
      std::printf("| %s | %s | %zu | %zu | %zu | %.2f | %.2f | %.3f | %.3f | %s | %.1f | %.1f |\n",
                  name.c_str(),
                  (r.fit.optimizer + (r.hierarchical ? "+hierarchical" : "") +
                   (r.hops ? "+hops" : "") + (r.local ? "+local" : "") +
                   (r.noblocks ? "+noblocks" : ""))
                      .c_str(),
                  n, failed, converged,
                  n ? static_cast<double>(converged) / static_cast<double>(n) : 0.0,
                  r.cpu > 0 ? static_cast<double>(converged) / (r.cpu / 60.0) : 0.0, own_best,
                  reference, std::isnan(reference) ? "?" : reached ? "yes" : "no",
                  median(seconds), r.cpu);
      std::fflush(stdout);
    }
  }
  return 0;
}
