// Resolving a model by name: "builtin:NAME[:ARG]" for the compiled
// built-ins (see builtin_models.hpp), otherwise a model file: SBML when its
// content is XML (sbml_model.hpp), .ode text otherwise (expr_model.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens {

struct LoadOptions {
  // SBML models only (see SbmlOptions): the ids of the sensitivity
  // parameters; unset means the default set. Set for any other model, it is
  // Error(invalid_argument).
  std::optional<std::vector<std::string>> sbml_sensitivity_params;
};

// Throws Error(unknown_model) with a message naming what was not found.
std::shared_ptr<Model> load_model(const std::string& spec);
std::shared_ptr<Model> load_model(const std::string& spec, const LoadOptions& options);

// A model file, whatever its name: SBML when the content is XML, .ode text
// otherwise.
std::shared_ptr<Model> load_model_file(const std::string& path, const LoadOptions& options = {});

}  // namespace odesens
