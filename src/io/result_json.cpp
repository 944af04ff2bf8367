#include "io/result_json.hpp"

#include "core/number_text.hpp"
#include "core/usable_memory.hpp"
#include "io/bounds_json.hpp"
#include "io/json_values.hpp"
#include "odesens/result_arrays.hpp"
#include "odesens/status.hpp"

namespace odesens::io {
namespace {

// The document is built in memory before it is written (about 70 bytes a
// number, measured: 6.2 GB for 9e7 numbers); nlohmann's tree then ended
// the process on a failed allocation instead of throwing. A document
// beyond half the memory at hand is refused first.
void check_document_fits(const Result& r, const RunDescription& run) {
  constexpr double kBytesPerNumber = 70.0;
  double numbers = 0.0;
  for (const ResultArrayView& view : result_arrays(r)) numbers += view.data->size();
  for (const auto& values : run.observable_values) numbers += values.size();
  require_fits_in_memory(kBytesPerNumber * numbers,
                         "building the JSON document of " + rounded_number_text(numbers) +
                             " numbers",
                         "write HDF5 (--format h5), which is streamed, or CSV");
}

}  // namespace

void write_json(std::ostream& out, const Model& model, const Result& r,
                const RunDescription& run) {
  check_document_fits(r, run);
  Json doc = {{"method", text(r.method)},
              {"model", text(run.model_spec)},
              {"nx", r.nx},
              {"np", r.np},
              {"states", texts(model.state_names())},
              {"parameters", texts(model.param_names())}};
  if (!r.method_choice.empty()) doc["method_choice"] = text(r.method_choice);
  if (r.ns > 0) doc["ns"] = r.ns;
  // Every array of the result's table that it has (and those every
  // document has); the gradient of a method that gives one, or of any
  // objective, even for no parameters (cvodes_asa wrote [], cvodes_fsa
  // nothing).
  const bool has_gradient = run.gradient_method || !r.objective_values.empty();
  for (const ResultArrayView& view : result_arrays(r)) {
    const ResultArraySpec& spec = *view.spec;
    const bool gradient = has_gradient && std::string(spec.name) == "gradient";
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
