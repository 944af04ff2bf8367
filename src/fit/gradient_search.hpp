// What the two quasi-Newton optimizers on nlpost (nlopt_lbfgs, lbfgsb)
// keep alike: each evaluation checked for finite values, the best point
// evaluated (the one a start returns, wherever the optimizer stopped),
// failed simulations counted, and the start's report built from them.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "fit/start_objective.hpp"

namespace odesens::fitting {

class GradientSearch {
 public:
  GradientSearch(StartObjective& objective, const OptimizerOptions& options);

  enum class Outcome {
    new_best,     // a finite value (and gradient), the lowest so far
    value,        // a finite value (and gradient) above the best
    failed,       // the simulation failed or gave a non-finite value; g is 0
    interrupted,  // stopped or out of time; stop_reason() says so
  };
  // nlpost at the free values x, and its gradient into g where g is not
  // null. After 10 failed evaluations in a row stop_reason() is set: the
  // line search has backed off as far as it will.
  Outcome evaluate(const double* x, double* g, double& value);

  // The value at the start x, kept as a point found (the best, where it
  // is) but counted as no improvement; a failure there is forgotten
  // (nlopt_lbfgs: where NLopt's first point is not the start).
  void note_start(const double* x);

  // The projected gradient at x is within the gradient tolerance.
  bool gradient_tolerance_met(const double* x, const double* g) const;
  std::string gradient_tolerance_text() const;

  // The run's report: `free` set to the best point evaluated, its value,
  // the improvements as iterations and `exit_reason`; where no evaluation
  // gave a finite value (and not for a stop or the time), the start failed
  // with the last failure as its reason.
  LocalRun finish(std::vector<double>& free, std::string exit_reason) const;

  const std::vector<double>& lower() const { return lower_; }
  const std::vector<double>& upper() const { return upper_; }
  double best() const { return best_; }
  const std::string& stop_reason() const { return stop_reason_; }
  void stop(std::string reason) { stop_reason_ = std::move(reason); }
  const std::string& last_failure() const { return last_failure_; }

 private:
  StartObjective& objective_;
  const OptimizerOptions& options_;
  std::vector<double> lower_, upper_;
  double best_ = HUGE_VAL;
  std::vector<double> best_x_;  // where best_ was found
  std::int64_t improvements_ = 0;
  int failures_in_a_row_ = 0;
  std::string last_failure_;
  std::string stop_reason_;  // why the search must end; empty: it may go on
};

}  // namespace odesens::fitting
