#include "methods/common/evented_cvodes_outputs.hpp"

#include <algorithm>
#include <vector>

#include "integrate/events/evented_solution.hpp"

namespace odesens::methods {

void reach_outputs_with_events(const Problem& problem, cvodes::Session& session,
                               cvodes::CvodesStepper& stepper, integrate::EventRunner& events,
                               cvodes::SensitivityColumns* sensitivities, ResultBuilder& out) {
  const std::size_t nx = session.nx(), ns = sensitivities ? sensitivities->columns() : 0;
  const auto& times = problem.output_times;
  session.set_event_runner(&events);
  // No step passes the last output time: nothing after it happens.
  cvodes::RestartableCvodes solution(session, stepper, events.n_roots(), sensitivities,
                                     times.empty() ? problem.t0 : times.back());
  integrate::EventedSolution evented(solution, events, nx, ns);
  evented.set_output_times(times.data(), times.size());
  std::vector<double> y(solution.size());
  for (std::size_t k = 0; k < times.size(); ++k) {
    integrate::reach_outputs(evented, &times[k], 1, {false, +1}, y.data());
    std::copy(y.begin(), y.begin() + nx, out.x(k));
    if (ns > 0) out.set_s(k, y.data() + nx);
  }
  session.set_event_runner(nullptr);
  for (const auto& w : events.warnings()) out.warn(w);
  out.stats().extra["events_executed"] = static_cast<double>(events.events_executed());
}

}  // namespace odesens::methods
