#include "odesens/status.hpp"

#include <string>

namespace odesens {
namespace {

// Back to the start of the UTF-8 character at `at` (at most 3 bytes: text
// that is not UTF-8 is cut where it is).
std::size_t character_start(const std::string& text, std::size_t at) {
  for (int k = 0; k < 3 && at > 0 && at < text.size() &&
                  (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80;
       ++k)
    --at;
  return at;
}

}  // namespace

std::string bounded_error_message(const std::string& message) {
  if (message.size() <= kMostErrorMessageChars) return message;
  const std::size_t head = character_start(message, kMostErrorMessageChars * 3 / 4);
  const std::size_t tail = character_start(message, message.size() - kMostErrorMessageChars / 8);
  return message.substr(0, head) + " ... [" + std::to_string(tail - head) +
         " bytes left out] ... " + message.substr(tail);
}

const char* status_string(Status s) noexcept {
  switch (s) {
    case Status::ok: return "ok";
    case Status::invalid_argument: return "invalid argument";
    case Status::unknown_method: return "unknown method";
    case Status::unknown_option: return "unknown option";
    case Status::option_type: return "option has the wrong type or value";
    case Status::callback_failed: return "a user callback failed";
    case Status::too_much_work: return "too much work: maximum number of steps reached";
    case Status::solver_failed: return "the integrator failed";
    case Status::not_finite: return "NaN or Inf encountered";
    case Status::unknown_model: return "unknown model";
    case Status::parse_error: return "malformed model";
    case Status::unsupported: return "unsupported";
    case Status::buffer_too_small: return "output buffer too small";
    case Status::null_handle: return "NULL handle or pointer";
    case Status::io_error: return "input/output error";
    case Status::out_of_memory: return "out of memory";
    case Status::unbounded: return "cannot be bounded";
    case Status::stiff: return "the problem is stiff for an explicit method";
    case Status::interrupted: return "interrupted before it finished";
    case Status::internal_error: return "internal error";
  }
  return "unknown status";
}

}  // namespace odesens
