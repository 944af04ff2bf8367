// odesens_result_write: a result as one of the tool's documents (src/io/).
#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "io/result_file.hpp"
#include "odesens.h"

extern "C" {

int odesens_result_write(const odesens_result* result, const char* path, const char* format) {
  using namespace odesens;
  using namespace odesens::capi;
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    const std::string file = require_string(path, "path");
    const io::ResultFormat kind = io::result_format(format ? format : "", file);
    io::RunDescription run;
    run.model_spec = r.model->name();
    run.gradient_method = r.n_objectives > 0;
    run.n_objectives = r.n_objectives;
    run.observable_names = r.observable_names;
    run.observable_values = r.observable_values;
    io::write_result_file(file, kind, *r.model, r.result, run, r.params);
  });
}

}  // extern "C"
