#include "integrate/events/sliding_watch.hpp"

#include <algorithm>
#include <cmath>

#include "core/number_text.hpp"

namespace odesens::integrate {

bool SlidingWatch::switched(double t, std::size_t cause, int side, const std::string& text) {
  if (detected()) return false;
  const bool back_again = count_ > 0 && cause == cause_ && side == -side_;
  if (!back_again) {
    count_ = 0;
    first_t_ = t;
    cause_ = cause;
  }
  side_ = side;
  if (++count_ < kCrossings) return false;
  // A limit cycle crosses its switches back and forth too, once or twice a
  // period: a slide is that many crossings in a moment of the span.
  if (t - first_t_ > kMostSpan * std::fabs(t)) {
    count_ = 1;
    first_t_ = t;
    return false;
  }
  message_ = "the solution crossed the " + text + " back and forth " + std::to_string(count_) +
             " times from t = " + number_text(first_t_) + " to t = " + number_text(t) +
             ": f points into the switch from both sides, so the solution slides along it, and "
             "a solver can only follow it by crossing it at every step (results past t = " +
             number_text(first_t_) + " are not to be trusted). Make the switch smooth (a steep "
             "Hill function or tanh) or model the motion along it";
  return true;
}

}  // namespace odesens::integrate
