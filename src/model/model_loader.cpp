#include "odesens/model_loader.hpp"

#include "odesens/builtin_models.hpp"
#include "odesens/status.hpp"

namespace odesens {

std::shared_ptr<Model> load_model(const std::string& spec) {
  const std::string prefix = "builtin:";
  if (spec.compare(0, prefix.size(), prefix) == 0)
    return make_builtin_model(spec.substr(prefix.size()));
  throw Error(Status::unknown_model,
              "cannot load model '" + spec + "': expected builtin:NAME[:ARG]");
}

}  // namespace odesens
