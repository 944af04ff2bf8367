#include "integrate/cvodes/replay_guard.hpp"

#include "core/number_text.hpp"

namespace odesens::cvodes {

ReplayOverflow::ReplayOverflow(double reached, double wanted)
    : std::runtime_error("CVODES' recomputation of the forward solution from a checkpoint "
                         "took the forward pass's steps and asked for one more (to t = " +
                         number_text(reached) + ") short of the interval's end " +
                         number_text(wanted)),
      t_reached(reached),
      t_wanted(wanted) {}

void ReplayGuard::arm(void* cvode_mem, int count, long steps) {
  intervals_.clear();
  previous_steps_ = -1;
  steps_ = steps;
  if (cvode_mem == nullptr || count < 0 || steps <= 0) return;
  // One record more than CVODES writes (count + 1): a margin, not a need.
  records_.assign(static_cast<std::size_t>(count) + 2, CVadjCheckPointRec{});
  if (CVodeGetAdjCheckPointsInfo(cvode_mem, records_.data()) != CV_SUCCESS) return;
  for (std::size_t i = 0; i <= static_cast<std::size_t>(count); ++i)
    intervals_.push_back({records_[i].nstep, records_[i].t1});
}

void ReplayGuard::check(void* cvode_mem) {
  if (intervals_.empty()) return;
  long steps = 0;
  if (CVodeGetNumSteps(cvode_mem, &steps) != CV_SUCCESS) return;
  const long before = previous_steps_;
  previous_steps_ = steps;
  // The step about to be taken is the recomputation's (steps_ + 1)-th of
  // an interval when the count stands at its end and got there from inside
  // it: a recomputation that reached the interval's end asks for no step
  // more, and one starting at the next checkpoint comes from a later
  // interval (CVodeB recomputes them backwards in time). CVODES' time then
  // is that of the step being attempted, not the end of the last one, so it
  // cannot tell the two apart.
  if (steps == before) return;
  for (const Interval& interval : intervals_) {
    if (interval.first_step + steps_ != steps) continue;
    if (before >= interval.first_step && before < steps) {
      sunrealtype t = 0.0;
      CVodeGetCurrentTime(cvode_mem, &t);
      throw ReplayOverflow(t, interval.t_end);
    }
  }
}

}  // namespace odesens::cvodes
