// odesens_model_*: creating models from callbacks or built-ins, completing
// callback models, and reading their sizes and names.
#include <type_traits>

#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "odesens.h"
#include "odesens/builtin_models.hpp"
#include "odesens/callback_model.hpp"
#include "odesens/expr_model.hpp"
#include "odesens/model_loader.hpp"
#include "odesens/sbml_model.hpp"

// The C typedefs are the C++ callback types: a C function pointer goes into
// the CallbackModelSpec unchanged.
static_assert(std::is_same_v<odesens_rhs_fn, odesens::RhsCallback> &&
              std::is_same_v<odesens_dense_jac_fn, odesens::DenseJacCallback> &&
              std::is_same_v<odesens_sparse_jac_fn, odesens::SparseJacCallback> &&
              std::is_same_v<odesens_jvp_fn, odesens::JvpCallback> &&
              std::is_same_v<odesens_vjp_fn, odesens::VjpCallback> &&
              std::is_same_v<odesens_x0_fn, odesens::InitialStateCallback> &&
              std::is_same_v<odesens_dx0dp_fn, odesens::InitialSensitivityCallback>,
              "odesens.h callback typedefs must match odesens/callback_model.hpp");

namespace {

using namespace odesens;
using namespace odesens::capi;

odesens_model* new_model_handle(std::unique_ptr<ModelState> state) {
  return new odesens_model{HandleHeader{HandleKind::model, {}}, std::move(state)};
}

std::vector<std::string> numbered_names(const char* prefix, std::size_t n) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < n; ++i) names.push_back(prefix + std::to_string(i + 1));
  return names;
}

// Runs `change` on the spec of a callback model; the model is rebuilt at
// the next solver creation.
template <class Change>
int change_spec(odesens_model* model, const char* function, const char* what, Change&& change) {
  return guarded(model, function, [&] { change(model_state(model).spec_to_change(what)); });
}

// A state's or parameter's name: not empty, no control characters (a line
// break or a tab breaks every table the results are written to). Others,
// commas and quotes among them, are quoted where a format needs it.
std::string require_name(const char* name) {
  std::string text = odesens::capi::require_string(name, "name");
  if (text.empty())
    throw odesens::Error(odesens::Status::invalid_argument, "name must not be empty");
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw odesens::Error(odesens::Status::invalid_argument,
                           "name must not contain control characters (a line break, a tab)");
  return text;
}

}  // namespace

extern "C" {

int odesens_model_create(int64_t nx, int64_t np, odesens_rhs_fn f, void* user,
                         odesens_model** out) {
  return guarded(nullptr, __func__, [&] {
    require_pointer(out, "out");
    *out = nullptr;
    CallbackModelSpec spec;
    spec.nx = require_count(nx, 1, max_model_dimension, "nx");
    spec.np = require_count(np, 0, max_model_dimension, "np");
    if (!f) throw Error(Status::null_handle, "the right-hand side f is NULL");
    // Explicit defaults, so that getters can return them before any build.
    spec.state_names = numbered_names("x", spec.nx);
    spec.param_names = numbered_names("p", spec.np);
    spec.nominal_params.assign(spec.np, 0.0);
    spec.x0.assign(spec.nx, 0.0);
    spec.f = f;
    spec.user = user;
    *out = new_model_handle(std::make_unique<ModelState>(std::move(spec)));
  });
}

int odesens_model_from_builtin(const char* name, odesens_model** out) {
  return guarded(nullptr, __func__, [&] {
    require_pointer(out, "out");
    *out = nullptr;
    std::string spec = require_string(name, "name");
    const std::string prefix = "builtin:";
    if (spec.compare(0, prefix.size(), prefix) == 0) spec.erase(0, prefix.size());
    *out = new_model_handle(std::make_unique<ModelState>(make_builtin_model(spec)));
  });
}

int odesens_model_from_text(const char* text, odesens_model** out) {
  return guarded(nullptr, __func__, [&] {
    require_pointer(out, "out");
    *out = nullptr;
    require_pointer(text, "text");
    const std::string content = text;
    std::shared_ptr<const Model> model;
    if (looks_like_xml(content))
      model = load_sbml_text(content, "<text>");
    else
      model = load_ode_text(content, "<text>");
    *out = new_model_handle(std::make_unique<ModelState>(std::move(model)));
  });
}

int odesens_model_from_file(const char* path, odesens_model** out) {
  return guarded(nullptr, __func__, [&] {
    require_pointer(out, "out");
    *out = nullptr;
    const std::string file = require_string(path, "path");
    *out = new_model_handle(std::make_unique<ModelState>(load_model_file(file)));
  });
}

int odesens_model_from_sbml_file(const char* path, const char* sens_params, odesens_model** out) {
  return guarded(nullptr, __func__, [&] {
    require_pointer(out, "out");
    *out = nullptr;
    const std::string file = require_string(path, "path");
    SbmlOptions options;
    if (sens_params) {  // "a,b,c"; "" for none
      options.sensitivity_params.emplace();
      const std::string list = sens_params;
      std::string::size_type start = 0;
      while (!list.empty()) {
        const auto comma = list.find(',', start);
        const std::string id = list.substr(start, comma - start);
        if (id.empty())
          throw Error(Status::invalid_argument, "sens_params: empty id in '" + list + "'");
        options.sensitivity_params->push_back(id);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
    *out = new_model_handle(std::make_unique<ModelState>(load_sbml_file(file, options)));
  });
}

void odesens_model_free(odesens_model* model) { free_handle(model, HandleKind::model); }

int odesens_model_set_jac_x(odesens_model* model, odesens_dense_jac_fn jac_x) {
  return change_spec(model, __func__, "jac_x", [&](CallbackModelSpec& s) { s.jac_x = jac_x; });
}

int odesens_model_set_sparsity(odesens_model* model, int64_t nnz, const int64_t* col_ptr,
                               const int64_t* row_idx) {
  return change_spec(model, __func__, "the sparsity pattern", [&](CallbackModelSpec& s) {
    if (!col_ptr) {
      s.pattern = SparsityPattern{};
      s.jac_x_sparse = nullptr;
      return;
    }
    // nnz is checked against the largest pattern and col_ptr[nx] before
    // row_idx is read: a wrong nnz must not read past the caller's array.
    const auto nx = static_cast<std::int64_t>(s.nx);
    require_count(nnz, 0, nx * nx, "nnz");
    require_array(row_idx, nnz, "row_idx");
    if (col_ptr[nx] != nnz)
      throw Error(Status::invalid_argument, "col_ptr[nx] = " + std::to_string(col_ptr[nx]) +
                                                " differs from nnz = " + std::to_string(nnz));
    SparsityPattern pattern;
    pattern.rows = pattern.cols = s.nx;
    pattern.col_ptr.assign(col_ptr, col_ptr + nx + 1);
    pattern.row_idx.assign(row_idx, row_idx + nnz);
    pattern.validate();
    s.pattern = std::move(pattern);
  });
}

int odesens_model_set_jac_x_sparse(odesens_model* model, odesens_sparse_jac_fn jac_x_values) {
  return change_spec(model, __func__, "jac_x_sparse", [&](CallbackModelSpec& s) {
    if (jac_x_values && s.pattern.rows == 0)
      throw Error(Status::invalid_argument,
                  "a sparse Jacobian needs the sparsity pattern: call odesens_model_set_sparsity "
                  "first");
    s.jac_x_sparse = jac_x_values;
  });
}

int odesens_model_set_jac_p(odesens_model* model, odesens_dense_jac_fn jac_p) {
  return change_spec(model, __func__, "jac_p", [&](CallbackModelSpec& s) { s.jac_p = jac_p; });
}

int odesens_model_set_jvp(odesens_model* model, odesens_jvp_fn jvp) {
  return change_spec(model, __func__, "jvp", [&](CallbackModelSpec& s) { s.jvp = jvp; });
}

int odesens_model_set_vjp(odesens_model* model, odesens_vjp_fn vjp) {
  return change_spec(model, __func__, "vjp", [&](CallbackModelSpec& s) { s.vjp = vjp; });
}

int odesens_model_set_x0_fn(odesens_model* model, odesens_x0_fn x0) {
  return change_spec(model, __func__, "the x0 callback",
                     [&](CallbackModelSpec& s) { s.initial_state = x0; });
}

int odesens_model_set_dx0dp_fn(odesens_model* model, odesens_dx0dp_fn dx0dp) {
  return change_spec(model, __func__, "the dx0/dp callback",
                     [&](CallbackModelSpec& s) { s.initial_sensitivity = dx0dp; });
}

int odesens_model_set_x0(odesens_model* model, const double* x0, int64_t len) {
  return change_spec(model, __func__, "x0", [&](CallbackModelSpec& s) {
    require_array(x0, len, "x0");
    require_length(len, s.nx, "x0");
    require_finite(x0, len, "x0");
    s.x0.assign(x0, x0 + len);
  });
}

int odesens_model_set_nominal_params(odesens_model* model, const double* p, int64_t len) {
  return change_spec(model, __func__, "the nominal parameters", [&](CallbackModelSpec& s) {
    require_array(p, len, "p");
    require_length(len, s.np, "nominal parameter vector");
    require_finite(p, len, "p");
    s.nominal_params.assign(p, p + len);
  });
}


int odesens_model_set_name(odesens_model* model, const char* name) {
  return change_spec(model, __func__, "the name",
                     [&](CallbackModelSpec& s) { s.name = require_string(name, "name"); });
}

int odesens_model_set_state_name(odesens_model* model, int64_t index, const char* name) {
  return change_spec(model, __func__, "state names", [&](CallbackModelSpec& s) {
    const std::size_t i = require_index(index, s.nx, "state index");
    s.state_names[i] = require_name(name);
  });
}

int odesens_model_set_param_name(odesens_model* model, int64_t index, const char* name) {
  return change_spec(model, __func__, "parameter names", [&](CallbackModelSpec& s) {
    const std::size_t j = require_index(index, s.np, "parameter index");
    s.param_names[j] = require_name(name);
  });
}

int odesens_model_sizes(const odesens_model* model, int64_t* nx, int64_t* np) {
  return guarded(model, __func__, [&] {
    const ModelState& m = model_state(model);
    if (nx) *nx = static_cast<int64_t>(m.nx());
    if (np) *np = static_cast<int64_t>(m.np());
  });
}

int odesens_model_nominal_params(const odesens_model* model, double* out, int64_t len) {
  return guarded(model, __func__, [&] {
    copy_to_buffer(model_state(model).nominal_params(), out, len, "out");
  });
}

int odesens_model_state_name(const odesens_model* model, int64_t index, const char** name) {
  return guarded(model, __func__, [&] {
    const ModelState& m = model_state(model);
    require_pointer(name, "name");
    *name = m.state_name(require_index(index, m.nx(), "state index")).c_str();
  });
}

int odesens_model_param_name(const odesens_model* model, int64_t index, const char** name) {
  return guarded(model, __func__, [&] {
    const ModelState& m = model_state(model);
    require_pointer(name, "name");
    *name = m.param_name(require_index(index, m.np(), "parameter index")).c_str();
  });
}

}  // extern "C"
