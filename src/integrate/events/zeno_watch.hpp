// Watching the instants of a solve for events that accumulate at a finite
// time (Zeno behaviour: a ball bouncing with restitution < 1 bounces
// infinitely often before t* = t_k + dt_k r / (1 - r)). The states past t*
// follow the triggers' semantics (a trigger that stays true does not fire
// again: SBML Test Suite cases 00374 and 00748 go on past such a point),
// but S and gradients carried across infinitely many jumps are not to be
// trusted, and an integrator may stop with a collapsed step before the
// accumulation ends. The watch says so once, with where and why.
//
// The rule: kWindow intervals in a row between instants that changed the
// state, each at most kMaxRatio times the one before (a geometric series),
// the last below kMinInterval of max(|t|, 1). A model whose instants only
// come closer for a while (a chirp) or stay apart passes.
#pragma once

#include <cstddef>
#include <string>

namespace odesens::integrate {

class ZenoWatch {
 public:
  // An instant at t that changed the state; true when it shows the
  // accumulation for the first time (message() then says it).
  bool instant(double t);
  bool detected() const { return !message_.empty(); }
  const std::string& message() const { return message_; }

  static constexpr std::size_t kWindow = 16;
  static constexpr double kMaxRatio = 0.95;
  static constexpr double kMinInterval = 1e-6;
  // After the warning: kMaxAccumulating instants that go on accumulating
  // (each within kMinInterval of the one before) end the solve with
  // Error(solver_failed); where they come apart again the count starts
  // over. Not a resolution in t: SBML 00374 accumulates down to 1e-13 and
  // then ends by itself, while a bouncing ball goes on at 1e-15 forever.
  static constexpr std::size_t kMaxAccumulating = 10000;

 private:
  double last_t_ = 0.0, last_interval_ = 0.0;
  bool have_t_ = false, have_interval_ = false;
  std::size_t shrinking_ = 0;  // intervals in a row that shrank by kMaxRatio at least
  double worst_ratio_ = 0.0;   // the largest ratio among them
  std::string message_;
  std::size_t accumulating_ = 0;  // instants since the warning, still accumulating
  void after_detection(double t);
};

}  // namespace odesens::integrate
