// What the parts of the event runner (event_runner.hpp) share: the model
// and its event system, the parameters of the solve, the columns of S
// carried, and the warnings they give.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::integrate {

// Fixed for a solve; each part keeps a copy. From the arguments of
// EventRunner's constructor, which says what they are.
struct EventContext {
  EventContext(const Model& m, const double* params, std::size_t columns, Workspace* workspace,
               const double* directions);

  // The derivative along column j's parameter direction of a function whose
  // parameter gradient is grad_p[k * stride], k < np.
  double along(const double* grad_p, std::size_t stride, std::size_t j) const;

  const Model& model;
  const EventSystem* system;       // null: the model has no events or switches
  const double* p;                 // the parameters of the solve
  const double* param_directions;  // np x ns, or null: the unit vectors
  std::size_t nx, np, ns;          // ns: columns of S carried (0: none)
  std::size_t n_roots = 0;
  std::size_t max_targets = 0;     // the most states one event assigns
  Workspace* ws;
};

// Why some sensitivities across an event are not to be trusted: each
// message once, in the order first given.
class EventWarnings {
 public:
  void warn(const std::string& message);
  const std::vector<std::string>& list() const { return list_; }

 private:
  std::vector<std::string> list_;
};

}  // namespace odesens::integrate
