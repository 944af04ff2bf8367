#include "odesens/model_loader.hpp"

#include "sources/model_file.hpp"
#include "core/text_encoding.hpp"
#include "odesens/builtin_models.hpp"
#include "odesens/expr_model.hpp"
#include "odesens/sbml_model.hpp"
#include "odesens/status.hpp"

namespace odesens {

std::shared_ptr<Model> load_model(const std::string& spec) { return load_model(spec, {}); }

std::shared_ptr<Model> load_model(const std::string& spec, const LoadOptions& options) {
  const std::string prefix = "builtin:";
  if (spec.compare(0, prefix.size(), prefix) == 0) {
    if (options.sbml_sensitivity_params)
      throw Error(Status::invalid_argument,
                  "sensitivity parameters by SBML id apply to SBML models, not to '" + spec + "'");
    return make_builtin_model(spec.substr(prefix.size()));
  }
  try {
    return load_model_file(spec, options);
  } catch (const Error& e) {
    if (e.status() != Status::unknown_model) throw;
    throw Error(Status::unknown_model,
                std::string(e.what()) +
                    " (a model is builtin:NAME[:ARG], an SBML file or an .ode file)");
  }
}

std::shared_ptr<Model> load_model_file(const std::string& path, const LoadOptions& options) {
  const std::string text = read_model_file(path, model_file_size_limit(options.max_file_bytes));
  // UTF-16 or UTF-32 text is neither XML nor .ode to looks_like_xml: say why here.
  model_text_as_utf8(text, path);
  if (looks_like_xml(text)) {
    SbmlOptions sbml;
    sbml.sensitivity_params = options.sbml_sensitivity_params;
    return load_sbml_text(text, path, sbml);
  }
  if (options.sbml_sensitivity_params)
    throw Error(Status::invalid_argument,
                "sensitivity parameters by SBML id apply to SBML models; '" + path +
                    "' is .ode text");
  return load_ode_text(text, path);
}

}  // namespace odesens
