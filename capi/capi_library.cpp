// Library-wide functions: versions, status texts, error messages.
#include "capi_guard.hpp"
#include "capi_handles.hpp"
#include "odesens.h"

// odesens.h must be self-contained C, so it repeats the version numbers of
// version.hpp; keep its values, then compare them with the C++ ones.
namespace {
constexpr int header_major = ODESENS_VERSION_MAJOR;
constexpr int header_minor = ODESENS_VERSION_MINOR;
constexpr int header_patch = ODESENS_VERSION_PATCH;
}  // namespace
#undef ODESENS_VERSION_MAJOR
#undef ODESENS_VERSION_MINOR
#undef ODESENS_VERSION_PATCH
#include "odesens/status.hpp"
#include "odesens/version.hpp"

static_assert(header_major == ODESENS_VERSION_MAJOR && header_minor == ODESENS_VERSION_MINOR &&
                  header_patch == ODESENS_VERSION_PATCH,
              "odesens.h and odesens/version.hpp disagree on the version");

// The C status codes are the C++ ones, number for number.
namespace {
using odesens::Status;
constexpr bool same(odesens_status c, Status s) { return static_cast<int>(c) == static_cast<int>(s); }
}  // namespace
static_assert(same(ODESENS_OK, Status::ok) &&
              same(ODESENS_ERR_INVALID_ARGUMENT, Status::invalid_argument) &&
              same(ODESENS_ERR_UNKNOWN_METHOD, Status::unknown_method) &&
              same(ODESENS_ERR_UNKNOWN_OPTION, Status::unknown_option) &&
              same(ODESENS_ERR_OPTION_TYPE, Status::option_type) &&
              same(ODESENS_ERR_CALLBACK_FAILED, Status::callback_failed) &&
              same(ODESENS_ERR_TOO_MUCH_WORK, Status::too_much_work) &&
              same(ODESENS_ERR_SOLVER_FAILED, Status::solver_failed) &&
              same(ODESENS_ERR_NOT_FINITE, Status::not_finite) &&
              same(ODESENS_ERR_UNKNOWN_MODEL, Status::unknown_model) &&
              same(ODESENS_ERR_PARSE, Status::parse_error) &&
              same(ODESENS_ERR_UNSUPPORTED, Status::unsupported) &&
              same(ODESENS_ERR_BUFFER_TOO_SMALL, Status::buffer_too_small) &&
              same(ODESENS_ERR_NULL_HANDLE, Status::null_handle) &&
              same(ODESENS_ERR_IO, Status::io_error) &&
              same(ODESENS_ERR_OUT_OF_MEMORY, Status::out_of_memory) &&
              same(ODESENS_ERR_UNBOUNDED, Status::unbounded) &&
              same(ODESENS_ERR_STIFF, Status::stiff) &&
              same(ODESENS_ERR_INTERRUPTED, Status::interrupted) &&
              same(ODESENS_ERR_INTERNAL, Status::internal_error),
              "odesens.h status codes must equal odesens::Status");

extern "C" {

const char* odesens_version(void) { return ODESENS_VERSION_STRING; }

int odesens_abi_version(void) { return ODESENS_ABI_VERSION; }

const char* odesens_status_string(int code) {
  return odesens::status_string(static_cast<Status>(code));
}

const char* odesens_errmsg(const void* handle) {
  if (!handle) return odesens::capi::thread_last_error();
  const odesens::capi::HandleHeader* header = odesens::capi::header_of(handle);
  return header ? header->message.c_str() : "not an odesens handle (freed or invalid)";
}

}  // extern "C"
