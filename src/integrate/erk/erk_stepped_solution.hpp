// The ERK engine as a SteppedSolution, for reach_outputs (output_grid.hpp).
#pragma once

#include "integrate/erk/erk_engine.hpp"
#include "integrate/output_grid.hpp"

namespace odesens::integrate::erk {

class ErkSteppedSolution final : public SteppedSolution {
 public:
  explicit ErkSteppedSolution(ErkEngine& engine) : engine_(engine) {}
  std::size_t size() const override { return engine_.size(); }
  double t() const override { return engine_.t(); }
  const double* x() const override { return engine_.x(); }
  void step(double t_limit) override { engine_.step(t_limit); }
  void interpolate(double t, double* out) override { engine_.interpolate(t, out); }
  void begin_output_interval() override { engine_.begin_step_budget(); }

 private:
  ErkEngine& engine_;
};

}  // namespace odesens::integrate::erk
