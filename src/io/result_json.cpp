#include "io/result_json.hpp"

#include "io/bounds_json.hpp"
#include "io/json_values.hpp"

namespace odesens::io {

void write_json(std::ostream& out, const Model& model, const Result& r,
                const RunDescription& run) {
  Json doc = {{"method", text(r.method)},
              {"model", text(run.model_spec)},
              {"nx", r.nx},
              {"np", r.np},
              {"states", texts(model.state_names())},
              {"parameters", texts(model.param_names())}};
  if (!r.method_choice.empty()) doc["method_choice"] = text(r.method_choice);
  if (r.ns > 0) doc["ns"] = r.ns;
  // Every array of the result's table that it has (and those every
  // document has); a gradient method's gradient even for no parameters.
  for (const ResultArrayView& view : result_arrays(r)) {
    const ResultArraySpec& spec = *view.spec;
    const bool gradient = run.gradient_method && std::string(spec.name) == "gradient";
    if (*spec.group == '\0' && (spec.always || !view.empty() || gradient))
      doc[spec.name] = array_json(view);
  }
  doc["stats"] = {{"steps", r.stats.steps},
                  {"rhs_evals", r.stats.rhs_evals},
                  {"jac_evals", r.stats.jac_evals},
                  {"wall_seconds", number(r.stats.wall_seconds)}};
  if (r.bounds.n_monomials > 0) doc["bounds"] = bounds_json(r);
  if (!r.warnings.empty()) doc["warnings"] = texts(r.warnings);
  // The memory the solve held (an estimate from the integrators' own counts).
  const auto bytes = r.stats.extra.find("workspace_bytes");
  if (bytes != r.stats.extra.end()) doc["stats"]["workspace_bytes"] = number(bytes->second);
  if (!run.observable_names.empty()) {
    Json& observables = doc["observables"] = Json::object();
    for (std::size_t n = 0; n < run.observable_names.size(); ++n)
      observables[text(run.observable_names[n]).get<std::string>()] =
          numbers(run.observable_values[n]);
  }
  out << doc << '\n';  // streamed: the document is not copied into a string
}

}  // namespace odesens::io
