// Watching the switches of f for a solution that slides along one: where f
// points into the switch from both sides (x' = piecewise(k1, x < theta, 0)
// - k2 x^2 with k1 > k2 theta^2), the solution can only stay on it, and a
// solver follows it by crossing it back and forth at every step, until its
// step limit ends the solve with a message that said nothing of the switch.
// The watch names the switch once the same one, of the states, has turned
// kCrossings times in a row, each time back to the side it left, within
// kMostSpan of |t| (a limit cycle crosses its switches back and forth too,
// but a period apart: an oscillator of period 6e-6 near t = 0 is no slide).
#pragma once

#include <cstddef>
#include <string>

namespace odesens::integrate {

class SlidingWatch {
 public:
  // An instant at t caused by root `cause` of a switch of f, now on `side`
  // (+1 / -1), `text` naming it; true when it shows the sliding for the
  // first time (message() then says it).
  bool switched(double t, std::size_t cause, int side, const std::string& text);
  // Any other instant: the run of crossings ends.
  void other_instant() { count_ = 0; }
  bool detected() const { return !message_.empty(); }
  const std::string& message() const { return message_; }

  static constexpr std::size_t kCrossings = 200;
  static constexpr double kMostSpan = 1e-3;

 private:
  std::size_t cause_ = 0, count_ = 0;
  int side_ = 0;
  double first_t_ = 0.0;
  std::string message_;
};

}  // namespace odesens::integrate
