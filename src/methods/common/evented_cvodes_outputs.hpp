// The outputs of a forward method on CVODES (cvodes_fsa, pbsr, exp) for a
// model with events or switches of f, through the shared event loop
// (integrate/events/evented_solution.hpp): CVODES locates the roots and
// stops at pending executions (integrate/cvodes/restartable_cvodes.hpp),
// no step passes the last output time, and at each instant the event
// runner carries S (the columns the method keeps beside the state) across.
#pragma once

#include "integrate/cvodes/cvodes_session.hpp"
#include "integrate/cvodes/cvodes_stepper.hpp"
#include "integrate/cvodes/restartable_cvodes.hpp"
#include "integrate/events/event_runner.hpp"
#include "methods/common/result_builder.hpp"

namespace odesens::methods {

// x (and S, when sensitivities is given) at every output time into out,
// then the runner's warnings and events_executed.
void reach_outputs_with_events(const Problem& problem, cvodes::Session& session,
                               cvodes::CvodesStepper& stepper, integrate::EventRunner& events,
                               cvodes::SensitivityColumns* sensitivities, ResultBuilder& out);

}  // namespace odesens::methods
