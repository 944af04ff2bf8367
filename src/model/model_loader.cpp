#include "odesens/model_loader.hpp"

#include "odesens/builtin_models.hpp"
#include "odesens/expr_model.hpp"
#include "odesens/status.hpp"

namespace odesens {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::shared_ptr<Model> load_model(const std::string& spec) {
  const std::string prefix = "builtin:";
  if (spec.compare(0, prefix.size(), prefix) == 0)
    return make_builtin_model(spec.substr(prefix.size()));
  if (ends_with(spec, ".ode")) return load_ode_file(spec);
  throw Error(Status::unknown_model,
              "cannot load model '" + spec + "': expected builtin:NAME[:ARG] or a path to an .ode file");
}

}  // namespace odesens
