// What one run of an internal-difference solve steps: the BundleSolution of
// its integrator, under the model's events and switches of f when it has
// any (integrate/events/: the roots are located on the nominal trajectory,
// S·R jumps with the EventRunner, the bundle restarts after the instant).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "integrate/events/event_runner.hpp"
#include "integrate/events/evented_solution.hpp"
#include "methods/internal_diff/bundle_solution.hpp"

namespace odesens::internal_diff {

class RunSolution {
 public:
  // The bundle must have been started; output_times (the problem's, kept
  // by the caller) end at t_end. p: the parameters of the nominal;
  // param_directions: np x ns, the parameter parts of the directions
  // (empty without perturbations; kept). p outlives the run.
  // state_tolerances: the nominal's, which its crossings are judged by.
  RunSolution(BundleIntegrator& bundle, BundleRhs& rhs, Perturbations* perturbations,
              bool rescale, const std::vector<double>& output_times, const double* p,
              const std::vector<double>& param_directions,
              const integrate::Tolerances& state_tolerances);

  integrate::SteppedSolution& solution() {
    return evented_ ? static_cast<integrate::SteppedSolution&>(*evented_) : bundle_solution_;
  }
  bool dense() const { return bundle_solution_.dense(); }
  bool has_events() const { return evented_ != nullptr; }
  // The bundle is at the solution's t: no instant is waiting to restart it.
  bool bundle_current() { return bundle_solution_.bundle().t() == solution().t(); }
  // Counts of events executed (0 without events) and the run's warnings.
  std::size_t events_executed() const { return runner_ ? runner_->events_executed() : 0; }
  // An instant whose time moves with p, as text ("" where none happened).
  std::string moving_instant() const {
    return runner_ && runner_->moving_instants() > 0 ? runner_->first_moving_root() : "";
  }
  std::vector<std::string> warnings() const;

 private:
  BundleSolution bundle_solution_;
  std::vector<double> param_directions_;
  std::unique_ptr<integrate::EventRunner> runner_;
  std::unique_ptr<integrate::EventedSolution> evented_;
};

}  // namespace odesens::internal_diff
