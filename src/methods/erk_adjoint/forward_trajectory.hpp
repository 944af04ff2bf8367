// The forward pass of erk_adjoint: an ERK solve that lands on every output
// time and keeps what the reverse sweep needs, by checkpointing mode:
//   states  (the paper's §3.4): t_n, h_n and x_n per accepted step; the
//           stages are recomputed in reverse. (nx + 2) doubles per step.
//   stages  (FATODE-like): t_n, h_n and the stage values Y_i the adjoint
//           reads (s live stages); nothing is recomputed. (s nx + 2) per step.
//   revolve t_n and h_n only (the step sequence); states come back from at
//           most C checkpoints by the binomial schedule (checkpoint_schedule.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_system.hpp"
#include "integrate/events/event_runner.hpp"
#include "odesens/integrand.hpp"
#include "odesens/model.hpp"

namespace odesens::erk_adjoint {

enum class Checkpointing { states, stages, revolve };

// An instant of the model's events or switches of f that changed the state
// or f (integrate/events/): it lies between accepted steps steps_before - 1
// and steps_before, and the reverse sweep carries the adjoints across it by
// EventRunner::adjoint_jump.
struct RecordedInstant {
  std::size_t steps_before = 0;
  integrate::EventRunner::Instant instant;
};

struct ForwardTrajectory {
  Checkpointing mode = Checkpointing::states;
  std::size_t nx = 0;
  int live_stages = 0;       // stage values kept per step (stages mode)
  std::vector<double> t, h;  // t_n and h_n of accepted step n
  std::vector<double> x;     // states mode: x_n, nx values per step
  std::vector<double> y;     // stages mode: Y_0..Y_{live-1} of each step
  std::vector<double> x0;    // the initial state
  // Accepted steps before output time k: x(t_k) is x_n with n = steps_before[k]
  // (x_N, the final state, when n = N).
  std::vector<std::size_t> steps_before;
  // Instants that took place before output time k, in the forward order: an
  // output a few ulps before an instant shares its steps_before (no step
  // between them) and comes before it, one on the instant after it.
  std::vector<std::size_t> instants_before;
  std::vector<RecordedInstant> instants;  // in forward order
  // The switches of f held through each step (ModelRhs::hold_branches):
  // n_branches truth values per stretch between instants, stretch k after
  // the first k recorded instants (0 values: f is taken as it is).
  std::size_t n_branches = 0;
  std::vector<double> branch_truth;
  const double* truth_after(std::size_t instants_done) const {
    return n_branches ? branch_truth.data() + instants_done * n_branches : nullptr;
  }
  integrate::erk::ErkStats stats;

  std::size_t steps() const { return t.size(); }
  // What the trajectory holds (x0 only in revolve mode: the others keep it
  // as their first x_n or Y_0 anyway).
  double bytes() const {
    return 8.0 * static_cast<double>(t.capacity() + h.capacity() + x.capacity() + y.capacity() +
                                     branch_truth.capacity() +
                                     (mode == Checkpointing::revolve ? x0.capacity() : 0));
  }
};

// f(t, x, p) of a model for the ERK engine (one lane). A model with
// RetainedValues evaluates f through them, in the forward pass too, so that
// forward and replayed stages are the same arithmetic to the bit; with
// numbered slots (the replay of a step) evaluation k since restart_slots()
// keeps its values in slot k, which the engine's stage order makes slot i
// for stage i.
//
// A model whose f switches with t or x (EventSystem::branch_roots) is
// evaluated on held branches instead: every stage of a step on the
// branches the solution holds between the located switches, whatever side
// of a switch a stage falls on. A stage next to a switch lies within
// rounding of it, on either side; evaluated as it is, it would carry the
// other branch's f and J with its weight b_i h, and the discrete adjoint,
// which differentiates each stage, would be off far beyond the tolerances
// where f has a kink. The step that ends on a switch is the one before it.
class ModelRhs final : public integrate::erk::ErkSystem {
 public:
  ModelRhs(const Model& model, const double* p, Workspace* ws, bool numbered_slots = false)
      : model_(model), retained_(model.retained_values()), p_(p), ws_(ws),
        numbered_slots_(numbered_slots) {}
  // f on the branches `truth` gives (n_branches values, kept by the
  // caller; null: f as it is), with the model's retained values set aside.
  void hold_branches(const EventSystem* system, const double* truth) {
    system_ = truth ? system : nullptr;
    truth_ = truth;
  }
  bool holds_branches() const { return system_ != nullptr; }
  void rhs(double t, const double* X, double* F) override {
    if (system_) {
      system_->rhs_points_on_branches(1, &t, X, p_, truth_, F, ws_);
      return;
    }
    if (!retained_) {
      model_.rhs(t, X, p_, F, ws_);
      return;
    }
    last_slot_ = numbered_slots_ ? next_slot_++ : 0;
    retained_->rhs_retained(last_slot_, t, X, p_, F, ws_);
  }
  void restart_slots() { next_slot_ = 0; }
  std::size_t last_slot() const { return last_slot_; }
  bool retains() const { return retained_ != nullptr && !system_; }
  const RetainedValues* retained() const { return retained_; }

 private:
  const Model& model_;
  const RetainedValues* retained_;
  const double* p_;
  Workspace* ws_;
  bool numbered_slots_;
  std::size_t next_slot_ = 0, last_slot_ = 0;
  const EventSystem* system_ = nullptr;
  const double* truth_ = nullptr;
};

// Running costs integrated along the forward pass (Eq. 41-42): q (M) +=
// h sum_i b_i R(t_n + c_i h, Y_i, p) over the accepted steps.
struct ForwardQuadrature {
  const Integrand* integrand = nullptr;  // none: nothing integrated
  double* q = nullptr;                   // M values, accumulated
};

// Solves x' = f(t, x, p) from (t0, x0) through the output times (sorted,
// >= t0), writing x(t_k) into x_out (nx per time). live_stages: how many
// leading stages the adjoint reads (kept in stages mode).
//
// events (null or inactive: none; it must record instants, without S):
// the model's events and switches of f run on the engine by EventedSolution.
// A step in which an instant falls is taken again to end on it (its record
// replaced), so that the trajectory is made of whole steps; the engine
// restarts after every instant that changed the state or f, which is then
// recorded. x(t_k) on an instant is the state after it. Not with revolve
// (its replays would have to cross the instants).
ForwardTrajectory run_forward(const Model& model, const double* p, Workspace* ws, double t0,
                              const double* x0, const std::vector<double>& times,
                              const integrate::erk::Tableau& tableau,
                              const integrate::erk::ErkSettings& settings, double* x_out,
                              Checkpointing mode = Checkpointing::states, int live_stages = 0,
                              ForwardQuadrature quadrature = {},
                              integrate::EventRunner* events = nullptr);

}  // namespace odesens::erk_adjoint
