#include "integrate/events/event_context.hpp"

#include <algorithm>

#include "odesens/status.hpp"

namespace odesens::integrate {

EventContext::EventContext(const Model& m, const double* params, std::size_t columns,
                           Workspace* workspace, const double* directions)
    : model(m),
      system(m.event_system()),
      p(params),
      param_directions(directions),
      nx(m.nx()),
      np(m.np()),
      ns(columns),
      ws(workspace) {
  if (!system) return;
  if (ns != 0 && ns != np && !param_directions)
    throw Error(Status::internal_error, "EventRunner: S must have 0 or np columns");
  n_roots = system->roots().size();
  for (const auto& e : system->events()) max_targets = std::max(max_targets, e.targets.size());
}

double EventContext::along(const double* grad_p, std::size_t stride, std::size_t j) const {
  if (!param_directions) return grad_p[j * stride];
  const double* r = param_directions + j * np;
  double v = 0.0;
  for (std::size_t k = 0; k < np; ++k)
    if (r[k] != 0.0) v += grad_p[k * stride] * r[k];
  return v;
}

void EventWarnings::warn(const std::string& message) {
  if (std::find(list_.begin(), list_.end(), message) == list_.end()) list_.push_back(message);
}

}  // namespace odesens::integrate
