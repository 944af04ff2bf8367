// The reverse sweep of erk_adjoint (Algorithm 1; partials as in the paper's
// Appendix A.5-A.18, whose Eqs. 49-51 carry index typos): M adjoint vectors
// of x_{n+1} at once, stage by stage from the last, for every accepted step
// from the last. For a step from x_n with stages Y_i, k_i = f(t_n + c_i h, Y_i):
//
//   theta_i = h (b_i lambda + sum_{j>i} a_ji nu_j)      (= dpsi/dk_i)
//   nu_i    = J_x(Y_i)^T theta_i                         (Eq. 47)
//   mu     += J_p(Y_i)^T theta_i                         (Eq. 48)
//   lambda += sum_i nu_i                                 (dpsi/dx_n)
//
// and lambda jumps by the objective's weight w_k where x_n is x(t_k).
// A stage is skipped only where theta_i vanishes structurally (b_i = 0 and
// a_ji = 0 for every later stage j: the FSAL stage), never on b_i = 0 alone
// (dopri5's stage 1, cash_karp's 1 and 4, dop853's 1-4 feed later stages).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "integrate/erk/erk_engine.hpp"
#include "integrate/erk/erk_workspace.hpp"
#include "integrate/erk/tableau.hpp"
#include "methods/erk_adjoint/forward_trajectory.hpp"
#include "odesens/model.hpp"

namespace odesens::erk_adjoint {

struct ReverseCounts {
  long rhs_evals = 0;     // stage recomputations
  long vjp_products = 0;  // calls of vjp_x (and as many of vjp_p), each for all M vectors
};

// lambda (nx x M) holds the adjoint of x_N on entry and of x_0 on exit;
// mu (np x M) accumulates dpsi/dp. jump(k, lambda) is called where x_n is
// the state of output time k (steps_before[k] == n), before step n-1.
class ReverseSweep {
 public:
  ReverseSweep(const Model& model, const double* p, Workspace* ws,
               const integrate::erk::Tableau& tableau, std::size_t m);

  template <class Jump>
  void run(const ForwardTrajectory& trajectory, double* lambda, double* mu, Jump jump);

  const ReverseCounts& counts() const { return counts_; }

 private:
  // Recomputes the stages of step n and takes lambda and mu back over it.
  void step_back(const ForwardTrajectory& trajectory, std::size_t n, double* lambda, double* mu);
  bool stage_is_dead(int i) const;

  // Copies the stage values Y_i the engine reports.
  class StageCapture final : public integrate::erk::ErkObserver {
   public:
    StageCapture(std::vector<double>& y, std::size_t nx) : y_(y), nx_(nx) {}
    void on_stage(int i, double, const double* y, const double*) override {
      if (static_cast<std::size_t>(i + 1) * nx_ <= y_.size())
        std::copy(y, y + nx_, y_.begin() + static_cast<std::ptrdiff_t>(i) * nx_);
    }

   private:
    std::vector<double>& y_;
    std::size_t nx_;
  };

  const Model& model_;
  const double* p_;
  Workspace* ws_;
  const integrate::erk::Tableau& tableau_;
  std::size_t nx_, np_, m_;
  int live_stages_;                      // stages before the trailing dead ones
  std::vector<double> y_;                // stage values Y_i, nx each
  std::vector<double> theta_, nu_, pi_;  // nx x M; nu for every stage; np x M
  // The stages are recomputed by the same engine and kernels as the forward
  // pass (a replay of step n), so they are the forward's to the bit.
  ModelRhs rhs_;
  StageCapture capture_;
  integrate::erk::ErkWorkspace replay_workspace_;
  integrate::erk::ErkEngine replay_;
  ReverseCounts counts_;
};

template <class Jump>
void ReverseSweep::run(const ForwardTrajectory& trajectory, double* lambda, double* mu, Jump jump) {
  const std::size_t outputs = trajectory.steps_before.size();
  std::size_t next_output = outputs;  // outputs at or after the current step end are done
  auto jumps_at = [&](std::size_t n) {
    while (next_output > 0 && trajectory.steps_before[next_output - 1] == n) {
      --next_output;
      jump(next_output, lambda);
    }
  };
  jumps_at(trajectory.steps());
  for (std::size_t n = trajectory.steps(); n-- > 0;) {
    step_back(trajectory, n, lambda, mu);
    jumps_at(n);
  }
}

}  // namespace odesens::erk_adjoint
