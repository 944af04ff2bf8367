// cvodes_fsa on a model with events or switches of f, through the shared
// event loop (integrate/events/evented_solution.hpp) in the mode where
// CVODES locates the roots of the model's root functions (CVodeRootInit)
// and stops at every pending execution time (CVodeSetStopTime); at each
// instant the EventRunner fires and executes the events and carries S
// across, and CVODES restarts from the new state and sensitivities
// (CVodeReInit, CVodeSensReInit), so that no step spans a discontinuity.
#pragma once

#include <cstddef>

#include "integrate/events/event_runner.hpp"
#include "methods/common/result_builder.hpp"
#include "integrate/cvodes/cvodes_session.hpp"

namespace odesens::cvodes {

// Integrates to every output time of the problem, writing x (and S when
// ns > 0) into out; ys: CVODES' sensitivity vectors (ns of them) after
// CVodeSensInit, corrector: the ism of CVodeSensReInit.
void integrate_with_events(Session& session, const Problem& problem,
                           integrate::EventRunner& events, N_Vector* ys, std::size_t ns,
                           int corrector, methods::ResultBuilder& out);

}  // namespace odesens::cvodes
