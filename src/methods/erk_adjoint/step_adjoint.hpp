// The adjoint of one ERK step (Algorithm 1; partials as in the paper's
// Appendix A.5-A.18, whose Eqs. 49-51 carry index typos), for M adjoint
// vectors of x_{n+1} at once. For a step from x_n with stage values Y_i,
// k_i = f(t_n + c_i h, Y_i), from the last stage to the first:
//
//   theta_i = h (b_i lambda + sum_{j>i} a_ji nu_j)      (= dpsi/dk_i)
//   nu_i    = J_x(Y_i)^T theta_i + h b_i dR/dx(Y_i)      (Eq. 47)
//   mu     += J_p(Y_i)^T theta_i + h b_i dR/dp(Y_i)      (Eq. 48)
//   lambda += sum_i nu_i                                 (dpsi/dx_n)
//
// The running-cost terms (R, integrand.hpp) belong to the objectives' own
// vectors only, not to the rows of S(T). A StepAdjoint may hold a block of
// the adjoint vectors (threads split them): vectors first .. first + m - 1
// of the solve's, objectives being the solve's first n_objectives.
//
// A stage is skipped only where theta_i vanishes structurally (b_i = 0 and
// a_ji = 0 for every later stage j: the FSAL stage), never on b_i = 0 alone
// (dopri5's stage 1, cash_karp's 1 and 4, dop853's 1-4 feed later stages).
// The stage values are recomputed by replaying the step on the shared
// engine, so they equal the forward pass's to the bit; the same replay
// advances a state for the revolve schedule. Where the forward pass held
// the branches of f (ModelRhs), the replay and the products hold them too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_workspace.hpp"
#include "integrate/erk/tableau.hpp"
#include "methods/erk_adjoint/forward_trajectory.hpp"
#include "odesens/integrand.hpp"
#include "odesens/model.hpp"

namespace odesens::erk_adjoint {

struct ReverseCounts {
  long rhs_evals = 0;         // f evaluations of recomputed steps
  long recomputed_steps = 0;  // steps replayed (stage recomputation or advancing)
  long vjp_products = 0;      // stage products J_x^T, J_p^T for all M vectors
  std::vector<std::string> warnings;  // from carrying the adjoints across instants
};

// Stages whose values the adjoint reads: all but the trailing ones with
// b_i = 0 that no later stage reads (the FSAL stage).
int live_stage_count(const integrate::erk::Tableau& tableau);

class StepAdjoint {
 public:
  // The block of vectors [first, first + m) of a solve whose first
  // n_objectives vectors are objectives with running costs `integrand`
  // (null: none).
  struct Block {
    std::size_t first = 0;
    std::size_t m = 1;
    const Integrand* integrand = nullptr;
  };
  StepAdjoint(const Model& model, const double* p, Workspace* ws,
              const integrate::erk::Tableau& tableau, Block block);

  // The branches of f the forward pass held through the steps to come
  // (ForwardTrajectory::truth_after; null: f as it is): the replays and the
  // products are taken on them.
  void hold_branches(const double* truth) {
    truth_ = truth;
    rhs_.hold_branches(model_.event_system(), truth);
  }

  // Stages whose values the adjoint reads (the trailing dead ones dropped).
  int live_stages() const { return live_stages_; }
  // The live stage values of the step (t, h) from x into stages().
  void recompute_stages(double t, double h, const double* x);
  const double* stages() const { return y_.data(); }
  // x_out = x_{n+1} of the step (t, h) from x (x_out may not alias x).
  void advance(double t, double h, const double* x, double* x_out);
  // lambda (nx x M) from the adjoint of x_{n+1} to that of x_n; mu (np x M)
  // accumulates. y: the live stage values of the step.
  void step_back(double t, double h, const double* y, double* lambda, double* mu);

  const ReverseCounts& counts() const { return counts_; }

 private:
  // nu_i += h b_i dR/dx and mu += h b_i dR/dp for this block's objectives.
  void add_running_cost(double t_i, const double* y, double hb, double* nu_i, double* mu);

  // Copies the stage values Y_i the engine reports, and checks that stage
  // i's values were retained in slot i.
  class StageCapture final : public integrate::erk::ErkObserver {
   public:
    StageCapture(std::vector<double>& y, std::size_t nx, const ModelRhs& rhs)
        : y_(y), nx_(nx), rhs_(rhs) {}
    void on_stage(int i, double, const double* y, const double*) override;

   private:
    std::vector<double>& y_;
    std::size_t nx_;
    const ModelRhs& rhs_;
  };

  const Model& model_;
  const double* p_;
  Workspace* ws_;
  const integrate::erk::Tableau& tableau_;
  std::size_t nx_, np_, m_;
  Block block_;
  // This block's columns [cost_begin_, cost_end_) are objectives with
  // running costs (objective index = first + column).
  std::size_t cost_begin_ = 0, cost_end_ = 0;
  std::vector<double> r_x_, r_p_;  // dR/dx, dR/dp of every objective
  int live_stages_;
  std::vector<double> y_;                // live stage values, nx each
  bool batched_;  // Model::batches_parameter_products
  // theta: nx x M (for every stage when batched_); nu: nx x M per stage.
  std::vector<double> theta_, nu_;
  std::vector<double> stage_times_;
  ModelRhs rhs_;
  const double* truth_ = nullptr;  // hold_branches
  StageCapture capture_;
  integrate::erk::ErkWorkspace replay_workspace_;
  integrate::erk::ErkEngine replay_;
  ReverseCounts counts_;
};

}  // namespace odesens::erk_adjoint
