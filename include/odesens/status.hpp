// Status codes and the single exception type of the C++ API.
//
// Every failure inside odesens is reported as an odesens::Error carrying a
// Status and a message that says what is wrong in the caller's terms. The C
// ABI turns the same codes into return values, so the numbers are part of the
// ABI and never change meaning.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace odesens {

enum class Status : int {
  ok = 0,
  invalid_argument = -1,   // a size, value or name given by the caller is wrong
  unknown_method = -2,     // no method with that id is registered
  unknown_option = -3,     // an option key the method does not define
  option_type = -4,        // an option given with the wrong type or value
  callback_failed = -5,    // a user function returned non-zero
  too_much_work = -6,      // max_steps reached before an output time
  solver_failed = -7,      // the integrator could not continue (step size, convergence)
  not_finite = -8,         // NaN or Inf in input or produced during the solve
  unknown_model = -9,      // a model name or file that cannot be resolved
  parse_error = -10,       // malformed model text
  unsupported = -11,       // valid input the method or model source cannot handle
  buffer_too_small = -12,  // a caller's output buffer is shorter than needed
  null_handle = -13,       // a NULL handle or pointer where one is required
  io_error = -14,          // a file could not be read or written
  out_of_memory = -15,     // an allocation failed: the problem needs more memory than there is
  unbounded = -16,         // a set-valued method cannot enclose an operation over the box
  stiff = -17,             // an explicit method found the problem stiff: an implicit one suits it
  interrupted = -18,       // stopped by its caller before it finished (a stop request, a limit)
  internal_error = -99     // a bug: please report it with the message
};

// Short fixed name of a status ("invalid argument", ...).
const char* status_string(Status s) noexcept;

// `message` kept whole up to kMostErrorMessageChars bytes; a longer one
// keeps its start and end around a note of how much was left out (an id of
// megabytes from a file made a message of megabytes). Cuts fall between
// UTF-8 characters.
inline constexpr std::size_t kMostErrorMessageChars = 4096;
std::string bounded_error_message(const std::string& message);

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string& message)
      : std::runtime_error(message.size() > kMostErrorMessageChars
                               ? bounded_error_message(message)
                               : message),
        status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

}  // namespace odesens
