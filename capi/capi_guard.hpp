// The exception barrier of the C ABI. Every exported function runs its body
// inside guarded(): an odesens::Error becomes its status code, a failed
// allocation ODESENS_ERR_OUT_OF_MEMORY, anything else ODESENS_ERR_INTERNAL, and the message is recorded on the handle and
// as the calling thread's last error. No exception crosses into C.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "capi_handles.hpp"
#include "odesens/status.hpp"

namespace odesens::capi {

// Stores "function: message" on the handle (if any) and as this thread's
// last error; returns the status as an int. Never throws.
int record_failure(const HandleHeader* header, const char* function, Status status,
                   const char* message) noexcept;

// The calling thread's last error message.
const char* thread_last_error() noexcept;

template <class Body>
int guarded(const void* handle, const char* function, Body&& body) noexcept {
  const HandleHeader* header = header_of(handle);
  try {
    body();
    return static_cast<int>(Status::ok);
  } catch (const Error& e) {
    return record_failure(header, function, e.status(), e.what());
  } catch (const std::bad_alloc&) {
    return record_failure(header, function, Status::out_of_memory,
                          "out of memory (an allocation failed; fewer output times, states or "
                          "parameters need less)");
  } catch (const std::exception& e) {
    return record_failure(header, function, Status::internal_error, e.what());
  } catch (...) {
    return record_failure(header, function, Status::internal_error, "unknown exception");
  }
}

// The most states, and the most parameters, of a callback model: beyond
// them the names and vectors a model holds alone need gigabytes, and
// products of sizes could no longer be formed.
constexpr std::int64_t max_model_dimension = 100'000'000;
// The most worker threads a caller may ask for (ensembles, PEtab
// evaluations, fits).
constexpr std::int64_t max_threads = 4096;

// Argument checks shared by the ABI functions; each throws Error naming the
// argument. Sizes are checked before anything is read or allocated.
// A count in [min, max]: Error(invalid_argument) naming it and the range.
std::size_t require_count(std::int64_t n, std::int64_t min, std::int64_t max, const char* name);
void require_pointer(const void* p, const char* name);
// A caller's array: non-NULL unless len is 0, len >= 0.
void require_array(const void* p, std::int64_t len, const char* name);
// len must equal `expected`.
void require_length(std::int64_t len, std::size_t expected, const char* name);
// All entries finite.
void require_finite(const double* v, std::int64_t len, const char* name);
// An index in [0, n).
std::size_t require_index(std::int64_t index, std::size_t n, const char* name);
std::string require_string(const char* s, const char* name);

// Copies `data` into the caller's buffer of `len` values (doubles or
// int64_t), refusing a shorter one with Error(buffer_too_small) before
// writing anything.
template <class T>
void copy_to_buffer(const std::vector<T>& data, T* out, std::int64_t len, const char* name) {
  require_array(out, len, name);
  if (len < static_cast<std::int64_t>(data.size()))
    throw Error(Status::buffer_too_small, std::string(name) + " has room for " +
                                              std::to_string(len) + " values, " +
                                              std::to_string(data.size()) + " needed");
  std::copy(data.begin(), data.end(), out);
}

}  // namespace odesens::capi
