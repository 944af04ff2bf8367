// One start's objective: the PEtab problem over its free parameters (the
// estimated ones neither held fixed nor with lowerBound = upperBound), evaluated with or without derivatives,
// its evaluations counted, and the run's limits (wall time, stop flag).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "odesens/fit.hpp"

namespace odesens::fitting {

class StartObjective {
 public:
  StartObjective(const PetabProblem& problem, const std::vector<double>& x0,
                 const std::vector<bool>& fixed, const OptimizerOptions& options,
                 const std::atomic<bool>* stop);

  const PetabProblem& problem() const { return problem_; }
  std::size_t n_free() const { return free_.size(); }
  // The free parameters of x0, and their bounds.
  std::vector<double> free_start() const;
  std::vector<double> free_lower() const;
  std::vector<double> free_upper() const;
  // The whole point with the free parameters from `free`.
  std::vector<double> full_point(const double* free) const;
  // Of a whole-point vector (gradient) or matrix (n_r x n Jacobian rows),
  // the free parameters' entries.
  void free_entries(const std::vector<double>& all, std::size_t rows, double* out) const;

  // The problem at the free values (throws Error as PetabProblem::evaluate),
  // with the least-squares residuals (and their Jacobian) or nlpost's
  // gradient as asked. The optimizers' evaluations are interruptible: once
  // the stop flag is set or the start's wall time is up, they end before
  // their next experiment with Error(interrupted), so that neither waits
  // for a whole evaluation (one took 5 s on Beer_MolBioSystems2014, and a
  // 60 s start ran 155 s). The final evaluation at the end point is not.
  // In a hierarchical fit the residual Jacobian is projected
  // (inner_projection.hpp).
  PetabResult evaluate(const double* free, bool least_squares, bool jacobian, bool gradient,
                       bool interruptible = true);
  std::int64_t evaluations() const { return evaluations_; }
  // Evaluations that ended otherwise than by the interrupt: with a result,
  // or failed on their own (a simulation, a sigma out of the form).
  std::int64_t completed() const { return completed_; }
  // The last evaluation with nlpost's gradient, where it was at `free`
  // (its point, nllh, nlpost, gradient and warnings; null: none there), so
  // that the final evaluation at the end point need not simulate again.
  // Where a start's time ran out, that evaluation came after the limit: on
  // Chen_MSB2009 one evaluation took 25 s.
  const PetabResult* known_with_gradient(const double* free) const;

  // The stop flag is set, or the start has run out of wall time.
  bool stop_requested() const;
  bool out_of_time() const;
  // Either, or the caller's own interrupt (OptimizerOptions::evaluation)
  // says stop.
  bool interrupted() const;
  // Why an optimizer ended on interrupted(), in words.
  std::string interruption_reason() const;
  double seconds() const;

 private:
  void project_inner(PetabResult& r) const;

  const PetabProblem& problem_;
  PetabSession session_;  // the start's evaluations reuse its solver set-up
  std::vector<double> x0_;
  std::vector<std::size_t> free_;  // indices into x0
  PetabOptions evaluation_;
  std::function<bool()> caller_interrupt_;  // options.evaluation.interrupt
  double max_seconds_;
  const std::atomic<bool>* stop_;
  std::int64_t evaluations_ = 0;
  std::int64_t completed_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::vector<double> known_free_;  // empty: no evaluation with the gradient yet
  PetabResult known_;
};

// Error(invalid_argument) for a start of the wrong size or outside the box,
// or a fixed mask of the wrong size.
void check_start(const PetabProblem& problem, const std::vector<double>& x0,
                 const std::vector<bool>& fixed);

// What a local optimizer reports beyond the point it leaves in `free`.
// The exit reason's end where a start's wall time ran out before any of
// its evaluations ended (local_optimize.cpp): it has no value, and a
// profile's shorter step would not give it one.
inline constexpr const char* kNoValueInTime =
    "no value: no evaluation ended within the start's time (one there takes longer)";
inline bool ended_without_value_in_time(const std::string& exit_reason) {
  const std::string end = kNoValueInTime;
  return exit_reason.size() >= end.size() &&
         exit_reason.compare(exit_reason.size() - end.size(), end.size(), end) == 0;
}

// How a point of a start failed, in words: a derivative the problem does
// not support (docs/petab.md) is no failed simulation.
inline const char* point_failure(Status status) {
  return status == Status::unsupported ? " could not be evaluated: " : " could not be simulated: ";
}

struct LocalRun {
  std::int64_t iterations = 0;
  std::string exit_reason;
  Status status = Status::ok;  // not ok: the optimizer could not run
  // Ended on the function or step tolerance: not at a stationary point by
  // the gradient rule, nor on a limit, a failure or an interrupt
  // (nlopt_lbfgs; ceres_lm_lbfgs runs another cycle from such an end).
  bool stopped_short = false;
  // nlopt_lbfgs: nlpost at the point it leaves in `free` (NaN where none
  // was evaluated).
  double value = std::numeric_limits<double>::quiet_NaN();
};

// start_iterations > 0 (both): the start's own limit of iterations, of
// which `options` holds what is left (ceres_lm_lbfgs), for the exit reason.
LocalRun run_ceres_lm(StartObjective& objective, const OptimizerOptions& options,
                      std::vector<double>& free, std::int64_t start_iterations = 0);
LocalRun run_nlopt_lbfgs(StartObjective& objective, const OptimizerOptions& options,
                         std::vector<double>& free, std::int64_t start_iterations = 0);
// L-BFGS-B on nlpost (lbfgsb.cpp says where it goes on where NLopt's stops).
LocalRun run_lbfgsb(StartObjective& objective, const OptimizerOptions& options,
                    std::vector<double>& free, std::int64_t start_iterations = 0);
// ceres_lm, then nlopt_lbfgs from its end point within what is left of the
// start's iterations and wall time, again while such a cycle lowers nlpost
// (ceres_lm_lbfgs.cpp says why).
LocalRun run_ceres_lm_lbfgs(StartObjective& objective, const OptimizerOptions& options,
                            std::vector<double>& free);

// The largest component of the projected gradient x - P(x - g) at x in the
// box [lower, upper] (P: the projection onto the box), g of the free
// parameters; Ceres' measure for its gradient tolerance.
double projected_gradient_norm(const std::vector<double>& g, const std::vector<double>& x,
                               const std::vector<double>& lower,
                               const std::vector<double>& upper);

}  // namespace odesens::fitting
