// Resolving a model by name: "builtin:NAME[:ARG]" for the compiled
// built-ins (see builtin_models.hpp).
#pragma once

#include <memory>
#include <string>

#include "odesens/model.hpp"

namespace odesens {

// Throws Error(unknown_model) with a message naming what was not found.
std::shared_ptr<Model> load_model(const std::string& spec);

}  // namespace odesens
