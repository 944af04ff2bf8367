// One start's objective over its free parameters (start_objective.hpp).
#include "fit/start_objective.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "fit/inner_projection.hpp"
#include "io/format_double.hpp"

namespace odesens::fitting {

StartObjective::StartObjective(const PetabProblem& problem, const std::vector<double>& x0,
                               const std::vector<bool>& fixed, const OptimizerOptions& options,
                               const std::atomic<bool>* stop)
    : problem_(problem),
      session_(problem.shared_from_this()),
      x0_(x0),
      evaluation_(options.evaluation),
      caller_interrupt_(options.evaluation.interrupt),
      max_seconds_(options.max_seconds),
      stop_(stop) {
  // A parameter whose bounds meet (lowerBound = upperBound) has nothing to
  // optimize, and Ceres refuses such a bound as infeasible: it is held. In
  // a hierarchical fit the evaluations set the inner parameters, except
  // those held.
  const std::vector<std::size_t>& inner = problem.inner_parameters();
  for (std::size_t i = 0; i < x0.size(); ++i) {
    const bool is_fixed = !fixed.empty() && fixed[i];
    const bool is_inner = evaluation_.hierarchical &&
                          std::find(inner.begin(), inner.end(), i) != inner.end();
    if (!is_fixed && !is_inner && problem.lower_scaled()[i] < problem.upper_scaled()[i])
      free_.push_back(i);
  }
  if (evaluation_.hierarchical) evaluation_.hold = fixed;
  // The starts run in parallel; each start's experiments one after another.
  evaluation_.threads = 1;
  evaluation_.fim = false;
  evaluation_.interrupt = nullptr;  // evaluate() sets it
}

std::vector<double> StartObjective::free_start() const {
  std::vector<double> v;
  for (std::size_t i : free_) v.push_back(x0_[i]);
  return v;
}

std::vector<double> StartObjective::free_lower() const {
  std::vector<double> v;
  for (std::size_t i : free_) v.push_back(problem_.lower_scaled()[i]);
  return v;
}

std::vector<double> StartObjective::free_upper() const {
  std::vector<double> v;
  for (std::size_t i : free_) v.push_back(problem_.upper_scaled()[i]);
  return v;
}

std::vector<double> StartObjective::full_point(const double* free) const {
  std::vector<double> x = x0_;
  for (std::size_t k = 0; k < free_.size(); ++k) x[free_[k]] = free[k];
  return x;
}

void StartObjective::free_entries(const std::vector<double>& all, std::size_t rows,
                                  double* out) const {
  const std::size_t n = x0_.size(), m = free_.size();
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = 0; k < m; ++k) out[r * m + k] = all[r * n + free_[k]];
}

PetabResult StartObjective::evaluate(const double* free, bool least_squares, bool jacobian,
                                     bool gradient, bool interruptible) {
  // Not begun, not counted (Ceres' line search onto the box tries up to
  // 20 points when they fail).
  if (interruptible && interrupted()) throw Error(Status::interrupted, interruption_reason());
  ++evaluations_;
  PetabOptions o = evaluation_;
  o.least_squares = least_squares;
  o.residual_jacobian = jacobian;
  o.gradient = gradient;
  if (interruptible) o.interrupt = [this] { return interrupted(); };
  PetabResult r;
  try {
    r = session_.evaluate(full_point(free), o);
  } catch (const Error& e) {
    if (e.status() != Status::interrupted) ++completed_;
    throw;
  }
  if (o.hierarchical && jacobian) project_inner(r);
  ++completed_;
  if (gradient) {
    known_free_.assign(free, free + free_.size());
    known_.point = r.point;
    known_.nllh = r.nllh;
    known_.nlpost = r.nlpost;
    known_.gradient = r.gradient;
    known_.warnings = r.warnings;
  }
  return r;
}

const PetabResult* StartObjective::known_with_gradient(const double* free) const {
  const bool known = !known_free_.empty() && std::equal(known_free_.begin(), known_free_.end(), free);
  return known ? &known_ : nullptr;
}

void StartObjective::project_inner(PetabResult& r) const {
  // The inner parameters the evaluation set inside their bounds; one held,
  // or at a bound, stays where it is as the outer ones move.
  std::vector<std::size_t> moving;
  for (std::size_t i : problem_.inner_parameters())
    if ((evaluation_.hold.empty() || !evaluation_.hold[i]) &&
        r.point[i] > problem_.lower_scaled()[i] && r.point[i] < problem_.upper_scaled()[i])
      moving.push_back(i);
  const std::size_t n = x0_.size();
  if (n > 0) project_out_columns(r.residual_jacobian, r.residual_jacobian.size() / n, n, moving);
}

bool StartObjective::stop_requested() const {
  return stop_ && stop_->load(std::memory_order_relaxed);
}

double StartObjective::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

bool StartObjective::out_of_time() const { return max_seconds_ > 0 && seconds() >= max_seconds_; }

bool StartObjective::interrupted() const {
  return stop_requested() || out_of_time() || (caller_interrupt_ && caller_interrupt_());
}

std::string StartObjective::interruption_reason() const {
  if (stop_requested()) return "stopped by request";
  if (!out_of_time()) return "stopped by the evaluations' interrupt function";
  return "Maximum solver time reached: the start's " + io::format_double(max_seconds_) +
         " s are used up";
}

double projected_gradient_norm(const std::vector<double>& g, const std::vector<double>& x,
                               const std::vector<double>& lower,
                               const std::vector<double>& upper) {
  // |x - P(x - g)| with P the projection onto the box: the components
  // that point out of it at an active bound count only as far as the
  // bound is away.
  double norm = 0.0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (!std::isfinite(g[i])) return std::numeric_limits<double>::quiet_NaN();
    norm = std::max(norm, std::abs(x[i] - std::clamp(x[i] - g[i], lower[i], upper[i])));
  }
  return norm;
}

}  // namespace odesens::fitting
