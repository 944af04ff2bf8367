#include "methods/cvodes/forward_events.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <vector>

#include "integrate/cvodes/cvodes_stepper.hpp"
#include "integrate/cvodes/restartable_cvodes.hpp"
#include "methods/common/evented_cvodes_outputs.hpp"

namespace odesens::cvodes {
namespace {

// CVODES' own forward sensitivities as the columns beside the state.
class CvodesSensitivities final : public SensitivityColumns {
 public:
  CvodesSensitivities(Session& session, N_Vector* ys, std::size_t ns, int corrector,
                      const CvodesStepper& stepper, double t0)
      : session_(session),
        ys_(ys),
        ns_(ns),
        corrector_(corrector),
        stepper_(stepper),
        restart_t_(t0),
        s_restart_(session.initial_sensitivity()) {}

  std::size_t columns() const override { return ns_; }

  void at(double t, const double*, double* S) override {
    if (t == restart_t_ && stepper_.t() == restart_t_) {
      // No step since the restart: CVODES has no interpolant yet.
      std::copy(s_restart_.begin(), s_restart_.end(), S);
      return;
    }
    sunrealtype t_ret = t;
    if (t == stepper_.t())
      session_.check(CVodeGetSens(session_.mem(), &t_ret, ys_), "CVodeGetSens");
    else
      session_.check(CVodeGetSensDky(session_.mem(), t, 0, ys_), "CVodeGetSensDky");
    gather_columns(ys_, ns_, session_.nx(), S);
  }

  void restart(double t, const double*, const double* S) override {
    restart_t_ = t;
    std::copy(S, S + s_restart_.size(), s_restart_.begin());
    scatter_columns(S, ns_, session_.nx(), ys_);
    session_.check(CVodeSensReInit(session_.mem(), corrector_, ys_), "CVodeSensReInit");
  }

 private:
  Session& session_;
  N_Vector* ys_;
  std::size_t ns_;
  int corrector_;
  const CvodesStepper& stepper_;
  double restart_t_;
  std::vector<double> s_restart_;  // S where the integration (re)started
};

}  // namespace

void integrate_with_events(Session& session, const Problem& problem,
                           integrate::EventRunner& events, N_Vector* ys, std::size_t ns,
                           int corrector, methods::ResultBuilder& out) {
  CvodesStepper stepper(session, problem.t0, problem.max_steps, /*stop_at_outputs=*/false);
  // CVODES' first step after each restart is sized toward the end of the
  // solve, not toward the next output time.
  const auto& times = problem.output_times;
  if (!times.empty() && times.back() > problem.t0) stepper.set_horizon(times.back());
  CvodesSensitivities sensitivities(session, ys, ns, corrector, stepper, problem.t0);
  methods::reach_outputs_with_events(problem, session, stepper, events,
                                     ns > 0 ? &sensitivities : nullptr, out);
}

}  // namespace odesens::cvodes
