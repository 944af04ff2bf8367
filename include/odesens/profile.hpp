// Profile likelihoods of PEtab problems: for each chosen parameter, the
// lowest nlpost with that parameter held at a value and every other
// estimated parameter re-optimized (fit.hpp's optimize with one parameter
// fixed), traced from the best point towards both bounds until the
// likelihood-ratio threshold of the confidence level is crossed.
//
//   auto problem = odesens::PetabProblem::load("Boehm_JProteomeRes2014.yaml");
//   std::vector<double> best = odesens::read_petab_parameter_values(*problem, "best.tsv");
//   odesens::ProfileOptions options;  // every parameter, 95 %
//   std::vector<odesens::Profile> p = odesens::profile(*problem, best, options);
//   // p[i].lower, p[i].upper: the confidence interval of parameter i
//
// The threshold is the (1 - alpha) quantile of chi^2 with one degree of
// freedom, halved (nlpost is half of -2 log L): 1.92 at 95 %. A side whose
// profile stays below it up to the parameter's bound is open: its end of the
// interval is the bound, marked open. The interval's ends are where the
// profile crosses the threshold, by linear interpolation between the two
// points around the crossing (on the parameter's scale).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "odesens/fit.hpp"
#include "odesens/petab.hpp"

namespace odesens {

struct ProfileOptions {
  // Indices into PetabProblem::parameter_ids(); empty: every estimated one.
  std::vector<std::size_t> parameters;
  double confidence = 0.95;  // in (0, 1)
  // Steps along the parameter (on its scale) adapt to how fast nlpost
  // rises: a step that raises it by less than a fifth of the threshold is
  // doubled, one that raises it by more than half is halved and retaken.
  // first_step 0: a hundredth of the parameter's range.
  double first_step = 0.0;
  double min_step = 1e-4;   // on the scale: steps are not halved below it
  double max_step = 0.0;    // 0: a tenth of the range
  std::size_t max_points = 50;  // per side; reaching it leaves the side open
  OptimizerOptions optimizer;   // the re-optimizations of the other parameters
  unsigned threads = 1;         // sides traced at once; 0: one per core
};

// The checks of options: Error(invalid_argument) naming the field.
void check_profile_options(const ProfileOptions& options, const PetabProblem& problem);

struct ProfilePoint {
  double value = 0.0;   // of the profiled parameter, on its scale
  double nlpost = 0.0;  // with the others re-optimized
  std::vector<double> x;  // the whole point (scaled)
  std::string exit_reason;  // the re-optimization's
};

// How a side of the profile ended.
enum class ProfileEnd {
  crossed,      // nlpost crossed the threshold: the interval ends there
  bound,        // the parameter's bound was reached below the threshold: open
  max_points,   // max_points reached below the threshold: open
  failed,       // a re-optimization failed even at min_step: open
  stopped       // the stop flag
};
const char* profile_end_name(ProfileEnd e);

struct Profile {
  std::size_t parameter = 0;  // index into parameter_ids()
  std::string id;
  double threshold = 0.0;     // nlpost rise of the confidence level
  double start = 0.0;         // the parameter's value at the starting point
  double best_nlpost = 0.0;   // at the starting point
  // Sorted by value; the starting point is among them.
  std::vector<ProfilePoint> points;
  // The confidence interval on the parameter's scale; an open side is the
  // last value reached (the bound when ended by it).
  double lower = 0.0, upper = 0.0;
  ProfileEnd lower_end = ProfileEnd::crossed, upper_end = ProfileEnd::crossed;
  // A side ended `failed`: the value tried and why re-optimizing the others
  // there failed (a simulation that could not be run, ...); "" otherwise.
  std::string lower_failure, upper_failure;
  bool lower_open() const { return lower_end != ProfileEnd::crossed; }
  bool upper_open() const { return upper_end != ProfileEnd::crossed; }
  // A point of the profile below best_nlpost by more than the optimizer's
  // noise: the start was not a local optimum (the intervals are then
  // relative to a point that is not the best).
  bool found_better = false;
};

// Called after each side ends: sides done, sides planned.
using ProfileProgress = std::function<void(std::size_t done, std::size_t total)>;

// Profiles from `best` (scaled, inside the box; normally a fit's best
// point). Each side of each parameter is one task of the worker pool.
// Error(invalid_argument) for bad options or a point of the wrong size or
// outside the box; Error as evaluate() when `best` itself cannot be
// simulated.
std::vector<Profile> profile(const PetabProblem& problem, const std::vector<double>& best,
                             const ProfileOptions& options, const ProfileProgress& progress = {},
                             const std::atomic<bool>* stop = nullptr);

// The nlpost rise of a confidence level: the chi^2(1) quantile / 2.
double profile_threshold(double confidence);

}  // namespace odesens
