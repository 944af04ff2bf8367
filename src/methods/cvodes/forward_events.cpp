#include "methods/cvodes/forward_events.hpp"

#include <cvodes/cvodes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::cvodes {
namespace {

// Instants at one time beyond which the root finder is taken to be stuck.
constexpr int kMaxInstantsAtOneTime = 1000;


}  // namespace

void integrate_with_events(Session& session, const Problem& problem,
                           integrate::EventRunner& events, N_Vector* ys, std::size_t ns,
                           int corrector, methods::ResultBuilder& out) {
  void* mem = session.mem();
  const std::size_t n = session.nx();
  session.set_event_runner(&events);
  double* x = N_VGetArrayPointer(session.state());
  std::vector<double> S(n * ns);
  std::vector<int> found(std::max<std::size_t>(events.n_roots(), 1));
  if (ns > 0) std::copy(session.initial_sensitivity().begin(),
                        session.initial_sensitivity().end(), S.begin());

  auto restart = [&](double t) {
    session.reinit(t);
    if (ns > 0) {
      scatter_columns(S.data(), ns, n, ys);
      session.check(CVodeSensReInit(mem, corrector, ys), "CVodeSensReInit");
    }
  };

  double t = problem.t0;
  if (events.start(t, x, ns > 0 ? S.data() : nullptr).restart()) restart(t);
  if (events.n_roots() > 0) {
    session.check(CVodeRootInit(mem, static_cast<int>(events.n_roots()), &Session::event_roots),
                  "CVodeRootInit");
    session.check(CVodeSetNoInactiveRootWarn(mem), "CVodeSetNoInactiveRootWarn");
  }

  int instants_here = 0;
  double last_instant = problem.t0;
  const auto& times = problem.output_times;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const double t_out = times[k];
    // An output within rounding of the current time (a restart just before
    // it) is the current state: CVODES refuses an output time that close.
    if (t < t_out && t_out - t <= 4.0 * std::numeric_limits<double>::epsilon() *
                                     std::max(std::fabs(t_out), 1.0))
      t = t_out;
    while (t < t_out) {
      // CVODES never steps past a pending execution, even toward a later
      // output time (it could not be stopped there afterwards).
      const double next = events.next_execution();
      if (std::isfinite(next)) session.check(CVodeSetStopTime(mem, next), "CVodeSetStopTime");
      sunrealtype t_ret = t;
      const int flag = CVode(mem, t_out, session.state(), &t_ret, CV_NORMAL);
      session.check(flag, "CVode");
      if (!(t_ret > t) && flag != CV_ROOT_RETURN)
        throw Error(Status::solver_failed,
                    "CVode could not advance past t = " + number_text(t) +
                        " (the step size fell below the resolution of t)");
      t = t_ret;
      if (t == last_instant) {
        if (++instants_here > kMaxInstantsAtOneTime)
          throw Error(Status::solver_failed,
                      "the root finder keeps stopping at t = " + number_text(t) +
                          " (a root function that stays at zero?)");
      } else {
        instants_here = 0;
        last_instant = t;
      }
      const int* roots = nullptr;
      if (flag == CV_ROOT_RETURN) {
        session.check(CVodeGetRootInfo(mem, found.data()), "CVodeGetRootInfo");
        roots = found.data();
      }
      if (ns > 0) {
        session.check(CVodeGetSens(mem, &t_ret, ys), "CVodeGetSens");
        gather_columns(ys, ns, n, S.data());
      }
      const auto outcome = events.at(t, x, ns > 0 ? S.data() : nullptr, roots);
      // A stop time once reached is restarted from too, so that it is cleared.
      if (outcome.restart() || flag == CV_TSTOP_RETURN) restart(t);
    }
    std::copy(x, x + n, out.x(k));
    if (ns > 0) out.set_s(k, S.data());
  }
  session.set_event_runner(nullptr);
  for (const auto& w : events.warnings()) out.warn(w);
  out.stats().extra["events_executed"] = static_cast<double>(events.events_executed());
}

}  // namespace odesens::cvodes
