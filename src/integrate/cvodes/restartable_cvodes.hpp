// The CVODES state integration (a CvodesStepper) as a restartable solution
// for integrate::EventedSolution, in the mode where the inner solver
// locates the roots itself (CVodeRootInit): a step ends on the roots
// CVODES found or at a pending execution time (CVodeSetStopTime), and a
// restart is CVodeReInit from the state after the instant.
//
// The solution vector is x (nx), then S (nx x ns, column-major) when a
// SensitivityColumns carries S beside the state: CVODES' own forward
// sensitivities (cvodes_fsa) or a propagator that follows the steps (pbs).
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "integrate/cvodes/cvodes_stepper.hpp"
#include "integrate/output_grid.hpp"

namespace odesens::cvodes {

// What a CVODES solution carries beside the state.
class SensitivityColumns {
 public:
  virtual ~SensitivityColumns() = default;
  virtual std::size_t columns() const = 0;
  // S (nx x columns()) at t in the last step (t = its end included), x = x(t).
  virtual void at(double t, const double* x, double* S) = 0;
  // The state integration was restarted at t from x: S starts again from S.
  virtual void restart(double t, const double* x, const double* S) = 0;
};

class RestartableCvodes final : public integrate::RestartableSolution {
 public:
  // n_roots: the root functions CVODES locates (0: none; then only stop
  // times end steps early). final_stop: a time no step may pass (+inf: none).
  RestartableCvodes(Session& session, CvodesStepper& stepper, std::size_t n_roots,
                    SensitivityColumns* sensitivities = nullptr,
                    double final_stop = std::numeric_limits<double>::infinity());

  std::size_t size() const override { return nx_ * (1 + ns_); }
  double t() const override { return stepper_.t(); }
  const double* x() const override;
  void step(double t_limit) override;
  void interpolate(double t, double* out) override;
  void begin_output_interval() override { stepper_.begin_output(); }
  void restart(double t, const double* y) override;

  bool locates_roots() const override { return true; }
  const int* located_roots() const override { return roots_found_ ? found_.data() : nullptr; }
  void set_stop_time(double t) override { next_stop_ = t; }
  double root_tolerance() const override;
  bool state_tolerances(const double* x, double* tol) const override;
  double last_step() const override;

 private:
  // The roots and stop times CVODES reports end the step (CvodesStepper's handler).
  class Handler final : public InstantHandler {
   public:
    explicit Handler(RestartableCvodes& owner) : owner_(owner) {}
    void at_instant(double t, const int* found) override;

   private:
    RestartableCvodes& owner_;
  };
  // CVodeSetStopTime at the earlier of the pending execution and the final stop.
  void apply_stop_time();
  void reinit(double t, const double* y);

  Session& session_;
  CvodesStepper& stepper_;
  SensitivityColumns* sensitivities_;
  std::size_t nx_, ns_;
  double final_stop_;
  double next_stop_ = std::numeric_limits<double>::infinity();
  double stop_set_ = std::numeric_limits<double>::quiet_NaN();  // what CVODES was given
  Handler handler_;
  std::vector<int> found_;
  bool roots_found_ = false;
  bool at_stop_ = false;  // the last step ended on its stop time (CVODES keeps it: reinit)
  mutable std::vector<double> full_;  // x() with S
};

}  // namespace odesens::cvodes
