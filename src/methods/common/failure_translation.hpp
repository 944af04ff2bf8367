// Every failure inside a method reaches the caller as an Error: a failed
// allocation anywhere (set-up, steps, events, the result) as out_of_memory,
// any other exception that is not an Error as internal_error, both naming
// the method.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "odesens/status.hpp"

namespace odesens::methods {

template <typename Body>
auto translating_failures(const std::string& method_id, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw Error(Status::out_of_memory, "out of memory in method '" + method_id +
                                           "' (an allocation failed; fewer output times, "
                                           "states or parameters need less)");
  } catch (const std::exception& e) {
    throw Error(Status::internal_error, "method '" + method_id + "': " + e.what());
  }
}

}  // namespace odesens::methods
