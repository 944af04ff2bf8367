// odesens: parameter sensitivities of ODE systems. Umbrella header of the
// C++ API (link with libodesens.a).
#pragma once

#include "odesens/builtin_models.hpp"
#include "odesens/callback_model.hpp"
#include "odesens/ensemble.hpp"
#include "odesens/expr_model.hpp"
#include "odesens/integrand.hpp"
#include "odesens/method_choice.hpp"
#include "odesens/methods.hpp"
#include "odesens/model.hpp"
#include "odesens/model_loader.hpp"
#include "odesens/observables.hpp"
#include "odesens/options.hpp"
#include "odesens/problem.hpp"
#include "odesens/record.hpp"
#include "odesens/result.hpp"
#include "odesens/sbml_model.hpp"
#include "odesens/session.hpp"
#include "odesens/sparsity.hpp"
#include "odesens/status.hpp"
#include "odesens/steady_state.hpp"
#include "odesens/version.hpp"
