// The forward pass of erk_adjoint: an ERK solve that lands on every output
// time and keeps what the reverse sweep needs to recompute each accepted
// step (the paper's §3.4 "states" checkpointing: t_n, h_n and x_n per
// step; the stages are recomputed in reverse). The trajectory grows with
// the step count; it is the method's memory, (nx + 2) doubles per step.
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_system.hpp"
#include "odesens/model.hpp"

namespace odesens::erk_adjoint {

struct ForwardTrajectory {
  std::size_t nx = 0;
  std::vector<double> t, h;  // t_n and h_n of accepted step n
  std::vector<double> x;     // x_n, nx values per step
  // Accepted steps before output time k: x(t_k) is x_n with n = steps_before[k]
  // (x_N, the final state, when n = N).
  std::vector<std::size_t> steps_before;
  std::vector<double> x_final;
  integrate::erk::ErkStats stats;

  std::size_t steps() const { return t.size(); }
  double bytes() const {
    return 8.0 * static_cast<double>(t.capacity() + h.capacity() + x.capacity());
  }
};

// f(t, x, p) of a model for the ERK engine (one lane).
class ModelRhs final : public integrate::erk::ErkSystem {
 public:
  ModelRhs(const Model& model, const double* p, Workspace* ws) : model_(model), p_(p), ws_(ws) {}
  void rhs(double t, const double* X, double* F) override { model_.rhs(t, X, p_, F, ws_); }

 private:
  const Model& model_;
  const double* p_;
  Workspace* ws_;
};

// Solves x' = f(t, x, p) from (t0, x0) through the output times (sorted,
// >= t0), writing x(t_k) into x_out (nx per time).
ForwardTrajectory run_forward(const Model& model, const double* p, Workspace* ws, double t0,
                              const double* x0, const std::vector<double>& times,
                              const integrate::erk::Tableau& tableau,
                              const integrate::erk::ErkSettings& settings, double* x_out);

}  // namespace odesens::erk_adjoint
