// Built-in models, compiled C++ with analytic Jacobians and second
// derivatives, named "NAME[:ARG]": chua, vanderpol, glv:N, linear:N,
// heat2d:Np (../shared/design/BUILTIN_MODELS.md). Used by tests, benchmarks
// and the command-line tool ("builtin:NAME[:ARG]").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "odesens/model.hpp"

namespace odesens {

// Throws Error(unknown_model) for an unknown name or a bad argument.
std::shared_ptr<Model> make_builtin_model(const std::string& spec);
std::vector<std::string> builtin_model_names();

}  // namespace odesens
