// Profile likelihoods (profile.hpp): both sides of every chosen parameter
// as tasks of the worker pool, joined into profiles with their intervals.
#include "odesens/profile.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "ensemble/worker_pool.hpp"
#include "fit/profile_side.hpp"
#include "io/format_double.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace {

[[noreturn]] void refuse_profile(const std::string& what) {
  throw Error(Status::invalid_argument, "profile: " + what);
}

// How far below the starting value a profile point must be to say the start
// was not a local optimum: well above the optimizers' stopping tolerances.
constexpr double kBetterMargin = 1e-3;

std::vector<std::size_t> chosen(const ProfileOptions& o, std::size_t n) {
  if (!o.parameters.empty()) return o.parameters;
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i) all[i] = i;
  return all;
}

void check_best(const PetabProblem& problem, const std::vector<double>& best) {
  const std::size_t n = problem.parameter_ids().size();
  if (best.size() != n)
    refuse_profile("a point of " + std::to_string(best.size()) +
                   " values, the problem estimates " + std::to_string(n));
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& id = problem.parameter_ids()[i];
    if (!std::isfinite(best[i]))
      refuse_profile("the value of '" + id + "' is " + io::format_double(best[i]) +
                     " on its scale, not a finite number (a nominalValue missing from the "
                     "parameter table, or 0 on a log scale?)");
    if (!(best[i] >= problem.lower_scaled()[i] && best[i] <= problem.upper_scaled()[i]))
      refuse_profile("the value of '" + id + "', " + io::format_double(best[i]) +
                     ", lies outside its bounds [" + io::format_double(problem.lower_scaled()[i]) +
                     ", " + io::format_double(problem.upper_scaled()[i]) + "] (on its scale)");
  }
}

// nlpost at the starting point, and the point evaluated (a hierarchical
// evaluation sets the inner parameters), with parameter `held` kept at its
// value where given. Every point of a profile is compared with it: without
// it there is no threshold to cross.
struct StartValue {
  double nlpost = 0.0;
  std::vector<double> point;
};

StartValue start_value(const PetabProblem& problem, const std::vector<double>& best,
                       const ProfileOptions& options, std::optional<std::size_t> held) {
  PetabOptions at_best = options.optimizer.evaluation;
  at_best.threads = 1;
  if (held) {
    at_best.hold.assign(best.size(), false);
    at_best.hold[*held] = true;
  }
  const PetabResult r = problem.evaluate(best, at_best);
  if (!std::isfinite(r.nlpost))
    throw Error(Status::invalid_argument,
                "profile: nlpost at the starting point is " + io::format_double(r.nlpost) +
                    ", not finite: nothing to profile from" +
                    (r.warnings.empty() ? std::string() : " (" + r.warnings.front() + ")"));
  return {r.nlpost, r.point.empty() ? best : r.point};
}

// A hierarchical profile of an inner parameter holds it at each value, the
// start's too: the start's nlpost with it set to its optimum instead would
// lie below every point near it (a start away from that optimum gave an
// interval of width 5e-5 around it, "crossed" both sides).
bool held_apart(const PetabProblem& problem, const ProfileOptions& options, std::size_t i) {
  const auto& inner = problem.inner_parameters();
  return options.optimizer.evaluation.hierarchical &&
         std::find(inner.begin(), inner.end(), i) != inner.end();
}

// Both sides and the start joined, sorted by value.
Profile join(const PetabProblem& problem, std::size_t i, const std::vector<double>& best,
             const StartValue& start, double threshold, fitting::SideTrace& down,
             fitting::SideTrace& up) {
  const double best_nlpost = start.nlpost;
  Profile p;
  p.parameter = i;
  p.id = problem.parameter_ids()[i];
  p.threshold = threshold;
  p.start = best[i];
  p.best_nlpost = best_nlpost;
  for (auto it = down.points.rbegin(); it != down.points.rend(); ++it) p.points.push_back(*it);
  p.points.push_back({best[i], best_nlpost, start.point, "the starting point"});
  for (ProfilePoint& q : up.points) p.points.push_back(std::move(q));
  p.lower = down.limit;
  p.upper = up.limit;
  p.lower_end = down.end;
  p.upper_end = up.end;
  p.lower_failure = std::move(down.failure);
  p.upper_failure = std::move(up.failure);
  for (const ProfilePoint& q : p.points) p.found_better |= q.nlpost < best_nlpost - kBetterMargin;
  return p;
}

}  // namespace

const char* profile_end_name(ProfileEnd e) {
  switch (e) {
    case ProfileEnd::crossed: return "crossed";
    case ProfileEnd::bound: return "bound";
    case ProfileEnd::max_points: return "max_points";
    case ProfileEnd::failed: return "failed";
    case ProfileEnd::stopped: return "stopped";
  }
  return "crossed";
}

double profile_threshold(double confidence) {
  return boost::math::quantile(boost::math::chi_squared(1.0), confidence) / 2.0;
}

void check_profile_options(const ProfileOptions& o, const PetabProblem& problem) {
  check_optimizer_options(o.optimizer);
  require_optimizer_suits(problem, o.optimizer.optimizer, "profile");
  if (!(o.confidence > 0.0 && o.confidence < 1.0))
    refuse_profile("confidence must lie strictly between 0 and 1");
  // A threshold that rounds to 0 (confidence 1e-320) or beyond the doubles
  // would walk max_points points a side for nothing.
  const double threshold = profile_threshold(o.confidence);
  if (!(threshold > 0.0) || !std::isfinite(threshold))
    refuse_profile("confidence " + io::format_double(o.confidence) +
                   " gives a likelihood-ratio threshold of " + io::format_double(threshold) +
                   ": take a confidence level such as 0.95");
  for (std::size_t i : o.parameters)
    if (i >= problem.parameter_ids().size())
      refuse_profile("parameter index " + std::to_string(i) +
                     " is not that of an estimated parameter");
  if (!(o.first_step >= 0) || !(o.min_step > 0) || !(o.max_step >= 0) ||
      !std::isfinite(o.first_step) || !std::isfinite(o.min_step) || !std::isfinite(o.max_step))
    refuse_profile("first_step and max_step must be finite and >= 0, min_step finite and > 0");
  if (o.max_points < 1) refuse_profile("max_points must be at least 1");
  if (problem.parameter_ids().size() < 1) refuse_profile("the problem estimates no parameter");
}

std::vector<Profile> profile(const PetabProblem& problem, const std::vector<double>& best,
                             const ProfileOptions& options, const ProfileProgress& progress,
                             const std::atomic<bool>* stop) {
  check_profile_options(options, problem);
  check_best(problem, best);
  const std::vector<std::size_t> params = chosen(options, best.size());
  const double threshold = profile_threshold(options.confidence);
  const StartValue shared = start_value(problem, best, options, std::nullopt);
  std::vector<StartValue> starts(params.size(), shared);
  for (std::size_t k = 0; k < params.size(); ++k)
    if (held_apart(problem, options, params[k]))
      starts[k] = start_value(problem, best, options, params[k]);

  // Task 2k traces parameter params[k] downwards, 2k + 1 upwards.
  // Sides the stop flag keeps from starting end where they begin.
  std::vector<fitting::SideTrace> sides(2 * params.size());
  for (std::size_t t = 0; t < sides.size(); ++t) {
    sides[t].end = ProfileEnd::stopped;
    sides[t].limit = best[params[t / 2]];
  }
  std::mutex mutex;
  std::exception_ptr failure;
  std::size_t done = 0;
  std::atomic<bool> never{false};
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  ensemble::run_tasks(sides.size(), options.threads == 0 ? cores : options.threads,
                      stop ? *stop : never, [&](std::size_t t, std::size_t) {
                        try {
                          sides[t] = fitting::trace_side(problem, best, starts[t / 2].nlpost,
                                                         params[t / 2], t % 2 ? 1 : -1, options,
                                                         threshold, stop);
                        } catch (...) {
                          std::lock_guard<std::mutex> lock(mutex);
                          if (!failure) failure = std::current_exception();
                        }
                        std::lock_guard<std::mutex> lock(mutex);
                        ++done;
                        if (progress) progress(done, sides.size());
                      });
  if (failure) std::rethrow_exception(failure);
  std::vector<Profile> out;
  for (std::size_t k = 0; k < params.size(); ++k)
    out.push_back(join(problem, params[k], best, starts[k], threshold, sides[2 * k],
                       sides[2 * k + 1]));
  return out;
}

}  // namespace odesens
