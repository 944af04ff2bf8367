#include "capi_guard.hpp"

#include <algorithm>
#include <cmath>

namespace odesens::capi {
namespace {

// Per thread, so that odesens_errmsg(NULL) after a failed create reports
// this thread's failure even while other threads fail concurrently.
thread_local std::string last_error;

}  // namespace

int record_failure(const HandleHeader* header, const char* function, Status status,
                   const char* message) noexcept {
  try {
    std::string text = std::string(function) + ": " + message;
    if (header) header->message = text;
    last_error = std::move(text);
  } catch (...) {
    // Out of memory while reporting: the status still says what happened.
  }
  return static_cast<int>(status);
}

const char* thread_last_error() noexcept { return last_error.c_str(); }

void require_pointer(const void* p, const char* name) {
  if (!p) throw Error(Status::null_handle, std::string(name) + " is NULL");
}

void require_array(const void* p, std::int64_t len, const char* name) {
  if (len < 0)
    throw Error(Status::invalid_argument,
                "length of " + std::string(name) + " is negative (" + std::to_string(len) + ")");
  if (len > 0 && !p) throw Error(Status::null_handle, std::string(name) + " is NULL");
}

std::size_t require_count(std::int64_t n, std::int64_t min, std::int64_t max, const char* name) {
  if (n < min || n > max)
    throw Error(Status::invalid_argument, std::string(name) + " must be from " +
                                              std::to_string(min) + " to " + std::to_string(max) +
                                              " (got " + std::to_string(n) + ")");
  return static_cast<std::size_t>(n);
}

void require_length(std::int64_t len, std::size_t expected, const char* name) {
  if (len != static_cast<std::int64_t>(expected))
    throw Error(Status::invalid_argument, std::string(name) + " has " + std::to_string(len) +
                                              " entries, expected " + std::to_string(expected));
}

void require_finite(const double* v, std::int64_t len, const char* name) {
  for (std::int64_t i = 0; i < len; ++i)
    if (!std::isfinite(v[i]))
      throw Error(Status::not_finite,
                  std::string(name) + "[" + std::to_string(i) + "] is NaN or Inf");
}

std::size_t require_index(std::int64_t index, std::size_t n, const char* name) {
  if (index < 0 || index >= static_cast<std::int64_t>(n))
    throw Error(Status::invalid_argument, std::string(name) + " " + std::to_string(index) +
                                              " is out of range [0, " + std::to_string(n) + ")");
  return static_cast<std::size_t>(index);
}

std::string require_string(const char* s, const char* name) {
  require_pointer(s, name);
  return s;
}

}  // namespace odesens::capi
