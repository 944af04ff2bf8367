// odesens_result_*: sizes, copies into caller buffers, zero-copy views and
// statistics of one solve.
#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "odesens.h"
#include "odesens/result_arrays.hpp"

namespace {

using namespace odesens;
using namespace odesens::capi;

// The enclosures of a set-valued method, or Error(unsupported) naming
// `what` was asked for.
const BoundsResult& bounds_of(const Result& r, const std::string& what) {
  if (r.bounds.n_monomials == 0)
    throw Error(Status::unsupported, "method '" + r.method + "' computed no " + what +
                                         " (bounds_fsa does, given a parameter box)");
  return r.bounds;
}

// Array `which` (an odesens_result_array, an index of result_array_specs())
// of a result. An array the method did not compute is an error rather than
// an empty copy that would go unnoticed.
const std::vector<double>& result_array_data(const Result& r, int64_t which) {
  const std::size_t count = result_array_specs().size();
  if (which < 0 || static_cast<std::size_t>(which) >= count)
    throw Error(Status::invalid_argument, "unknown result array " + std::to_string(which) +
                                              " (see odesens_result_array; there are " +
                                              std::to_string(count) + ")");
  const ResultArrayView view = result_array(r, static_cast<std::size_t>(which));
  const ResultArraySpec& spec = *view.spec;
  if (view.empty() && *spec.who != '\0')
    throw Error(Status::unsupported, "method '" + r.method + "' computed no result array '" +
                                         spec.name + "' (" + spec.doc + "): " + spec.who);
  return *view.data;
}

int copy_array(const odesens_result* result, const char* function, int64_t which, double* out,
               int64_t len) {
  return guarded(result, function, [&] {
    copy_to_buffer(result_array_data(result_state(result).result, which), out, len, "out");
  });
}

// The odesens_stat indices are positions in Stats::fixed_names().
std::vector<double> fixed_stats(const Stats& s) {
  static_assert(ODESENS_STAT_STEPS == 0 && ODESENS_STAT_RHS_EVALS == 1 &&
                    ODESENS_STAT_JAC_EVALS == 2 && ODESENS_STAT_LINEAR_SETUPS == 3 &&
                    ODESENS_STAT_ERROR_TEST_FAILURES == 4 && ODESENS_STAT_WALL_SECONDS == 5 &&
                    ODESENS_STAT_COUNT == 6,
                "odesens_stat must follow Stats::fixed_names()");
  return s.fixed_values();
}

}  // namespace

extern "C" {

void odesens_result_free(odesens_result* result) { free_handle(result, HandleKind::result); }

int odesens_result_sizes(const odesens_result* result, int64_t* n_times, int64_t* nx, int64_t* np,
                         int64_t* n_s_times, int64_t* n_gradient) {
  return guarded(result, __func__, [&] {
    const Result& r = result_state(result).result;
    if (n_times) *n_times = static_cast<int64_t>(r.times.size());
    if (nx) *nx = static_cast<int64_t>(r.nx);
    if (np) *np = static_cast<int64_t>(r.np);
    if (n_s_times) *n_s_times = static_cast<int64_t>(r.s_times.size());
    if (n_gradient) *n_gradient = static_cast<int64_t>(r.gradient.size());
  });
}

int odesens_result_method(const odesens_result* result, const char** method) {
  return guarded(result, __func__, [&] {
    const Result& r = result_state(result).result;
    require_pointer(method, "method");
    *method = r.method.c_str();
  });
}

int odesens_result_method_choice(const odesens_result* result, const char** reason) {
  return guarded(result, __func__, [&] {
    const Result& r = result_state(result).result;
    require_pointer(reason, "reason");
    *reason = r.method_choice.c_str();
  });
}

int odesens_result_n_objectives(const odesens_result* result, int64_t* m) {
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    require_pointer(m, "m");
    *m = static_cast<int64_t>(r.n_objectives);
  });
}

int odesens_result_times(const odesens_result* result, double* out, int64_t len) {
  return copy_array(result, __func__, ODESENS_ARRAY_TIMES, out, len);
}

int odesens_result_x(const odesens_result* result, double* out, int64_t len) {
  return copy_array(result, __func__, ODESENS_ARRAY_X, out, len);
}

int odesens_result_s_times(const odesens_result* result, double* out, int64_t len) {
  return copy_array(result, __func__, ODESENS_ARRAY_S_TIMES, out, len);
}

int odesens_result_s(const odesens_result* result, double* out, int64_t len) {
  return copy_array(result, __func__, ODESENS_ARRAY_S, out, len);
}

int odesens_result_gradient(const odesens_result* result, double* out, int64_t len) {
  return copy_array(result, __func__, ODESENS_ARRAY_GRADIENT, out, len);
}

int odesens_result_gradient_x0(const odesens_result* result, double* out, int64_t len) {
  return copy_array(result, __func__, ODESENS_ARRAY_GRADIENT_X0, out, len);
}

int odesens_result_objectives(const odesens_result* result, double* out, int64_t len) {
  return copy_array(result, __func__, ODESENS_ARRAY_OBJECTIVES, out, len);
}

int odesens_result_n_directions(const odesens_result* result, int64_t* n) {
  return guarded(result, __func__, [&] {
    const Result& r = result_state(result).result;
    require_pointer(n, "n");
    *n = static_cast<int64_t>(r.ns);
  });
}

int odesens_result_sr(const odesens_result* result, double* out, int64_t len) {
  return copy_array(result, __func__, ODESENS_ARRAY_SR, out, len);
}

int odesens_result_bounds_info(const odesens_result* result, int64_t* order,
                               int64_t* n_monomials, const char** basis, const char** remainder) {
  return guarded(result, __func__, [&] {
    const BoundsResult& b = bounds_of(result_state(result).result, "bounds");
    if (order) *order = b.order;
    if (n_monomials) *n_monomials = static_cast<int64_t>(b.n_monomials);
    if (basis) *basis = b.basis.c_str();
    if (remainder) *remainder = b.remainder.c_str();
  });
}

int odesens_result_bounds_exponents(const odesens_result* result, int64_t* out, int64_t n) {
  return guarded(result, __func__, [&] {
    copy_to_buffer(bounds_of(result_state(result).result, "bounds").exponents, out, n, "out");
  });
}

int odesens_result_stats(const odesens_result* result, double* out, int64_t len) {
  return guarded(result, __func__, [&] {
    copy_to_buffer(fixed_stats(result_state(result).result.stats), out, len, "out");
  });
}

int odesens_result_stat_count(const odesens_result* result, int64_t* count) {
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    require_pointer(count, "count");
    *count = static_cast<int64_t>(r.stat_names.size());
  });
}

int odesens_result_stat_name(const odesens_result* result, int64_t index, const char** name) {
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    require_pointer(name, "name");
    *name = r.stat_names[require_index(index, r.stat_names.size(), "statistic index")].c_str();
  });
}

int odesens_result_stat(const odesens_result* result, const char* name, double* value) {
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    const std::string key = require_string(name, "name");
    require_pointer(value, "value");
    const std::vector<double> fixed = fixed_stats(r.result.stats);
    for (std::size_t i = 0; i < fixed.size(); ++i)
      if (r.stat_names[i] == key) {
        *value = fixed[i];
        return;
      }
    const auto it = r.result.stats.extra.find(key);
    if (it == r.result.stats.extra.end()) {
      std::string known;
      for (const auto& n : r.stat_names) known += (known.empty() ? "" : ", ") + n;
      throw Error(Status::invalid_argument,
                  "no statistic '" + key + "' in this result (statistics: " + known + ")");
    }
    *value = it->second;
  });
}

int odesens_result_warning_count(const odesens_result* result, int64_t* count) {
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    require_pointer(count, "count");
    *count = static_cast<int64_t>(r.result.warnings.size());
  });
}

int odesens_result_warning(const odesens_result* result, int64_t index, const char** text) {
  return guarded(result, __func__, [&] {
    const ResultState& r = result_state(result);
    require_pointer(text, "text");
    const auto& w = r.result.warnings;
    *text = w[require_index(index, w.size(), "warning index")].c_str();
  });
}

int odesens_result_data(const odesens_result* result, int64_t array, const double** data,
                        int64_t* len) {
  return guarded(result, __func__, [&] {
    const std::vector<double>& v = result_array_data(result_state(result).result, array);
    require_pointer(data, "data");
    require_pointer(len, "len");
    *data = v.data();
    *len = static_cast<int64_t>(v.size());
  });
}

// The table of arrays (odesens/result_arrays.hpp).

int odesens_result_array_count(const odesens_result* result, int64_t* count) {
  return guarded(result, __func__, [&] {
    result_state(result);
    require_pointer(count, "count");
    *count = static_cast<int64_t>(result_array_specs().size());
  });
}

int odesens_result_array_index(const odesens_result* result, const char* name, int64_t* index) {
  return guarded(result, __func__, [&] {
    result_state(result);
    const std::string key = require_string(name, "name");
    require_pointer(index, "index");
    *index = static_cast<int64_t>(result_array_index(key));
  });
}

int odesens_result_array_name(const odesens_result* result, int64_t array, const char** name,
                              const char** doc) {
  return guarded(result, __func__, [&] {
    result_state(result);
    const auto& specs = result_array_specs();
    const ResultArraySpec& spec = specs[require_index(array, specs.size(), "array index")];
    if (name) *name = spec.name;
    if (doc) *doc = spec.doc;
  });
}

int odesens_result_array_dims(const odesens_result* result, int64_t array, int64_t* ndim,
                              int64_t* extents, int64_t len) {
  return guarded(result, __func__, [&] {
    const Result& r = result_state(result).result;
    const auto& specs = result_array_specs();
    const ResultArrayView view = result_array(r, require_index(array, specs.size(), "array index"));
    require_pointer(ndim, "ndim");
    *ndim = static_cast<int64_t>(view.extents.size());
    if (!extents) return;
    std::vector<int64_t> out(view.extents.begin(), view.extents.end());
    copy_to_buffer(out, extents, len, "extents");
  });
}

int odesens_result_array_axis(const odesens_result* result, int64_t array, int64_t axis,
                              const char** name) {
  return guarded(result, __func__, [&] {
    result_state(result);
    const auto& specs = result_array_specs();
    const ResultArraySpec& spec = specs[require_index(array, specs.size(), "array index")];
    require_pointer(name, "name");
    *name = axis_name(spec.axes[require_index(axis, spec.axes.size(), "axis")]);
  });
}

}  // extern "C"
