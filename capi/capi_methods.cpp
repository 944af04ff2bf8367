// Discovery of methods and their options, so that bindings can list them
// instead of hard-coding ids and keys.
#include <limits>

#include "capi_guard.hpp"
#include "odesens.h"
#include "odesens/methods.hpp"

namespace {

using namespace odesens;
using namespace odesens::capi;

std::int64_t option_type_code(OptionType type) {
  switch (type) {
    case OptionType::real: return ODESENS_OPTION_DOUBLE;
    case OptionType::integer: return ODESENS_OPTION_INT;
    case OptionType::text: return ODESENS_OPTION_STRING;
  }
  throw Error(Status::internal_error, "option of unknown type");
}

}  // namespace

extern "C" {

int odesens_method_count(int64_t* count) {
  return guarded(nullptr, __func__, [&] {
    require_pointer(count, "count");
    *count = static_cast<int64_t>(method_infos().size());
  });
}

int odesens_method_id(int64_t index, const char** id) {
  return guarded(nullptr, __func__, [&] {
    require_pointer(id, "id");
    const auto& infos = method_infos();
    *id = infos[require_index(index, infos.size(), "method index")].id.c_str();
  });
}

int odesens_method_option_count(const char* method, int64_t* count) {
  return guarded(nullptr, __func__, [&] {
    const MethodInfo& info = method_info(require_string(method, "method"));
    require_pointer(count, "count");
    *count = static_cast<int64_t>(info.options.size());
  });
}

int odesens_method_option(const char* method, int64_t index, const char** key, int64_t* type,
                          const char** doc) {
  return guarded(nullptr, __func__, [&] {
    const MethodInfo& info = method_info(require_string(method, "method"));
    const OptionSpec& spec =
        info.options[require_index(index, info.options.size(), "option index")];
    const std::int64_t code = option_type_code(spec.type);
    if (key) *key = spec.key.c_str();
    if (type) *type = code;
    if (doc) *doc = spec.doc.c_str();
  });
}

int odesens_method_option_bounds(const char* method, int64_t index, double* min, double* max) {
  return guarded(nullptr, __func__, [&] {
    const MethodInfo& info = method_info(require_string(method, "method"));
    const OptionSpec& spec =
        info.options[require_index(index, info.options.size(), "option index")];
    const bool numeric = spec.type != OptionType::text;
    if (min) *min = numeric ? spec.min : std::numeric_limits<double>::quiet_NaN();
    if (max) *max = numeric ? spec.max : std::numeric_limits<double>::quiet_NaN();
  });
}

}  // extern "C"
