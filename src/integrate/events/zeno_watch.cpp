#include "integrate/events/zeno_watch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {
namespace {

// Estimates, to the digits that mean something.
std::string estimate_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

}  // namespace

void ZenoWatch::after_detection(double t) {
  const double interval = t - last_t_;
  last_t_ = std::max(last_t_, t);
  const double scale = std::max(std::fabs(t), 1.0);
  if (interval > kMinInterval * scale) {
    accumulating_ = 0;  // the instants came apart again: the accumulation ended
    return;
  }
  if (++accumulating_ <= kMaxAccumulating) return;
  throw Error(Status::solver_failed,
              message_ + "; they went on accumulating for " + std::to_string(kMaxAccumulating) +
                  " more instants, the last " + estimate_text(interval) + " apart at t = " +
                  number_text(t) + ": the solve ends there");
}

bool ZenoWatch::instant(double t) {
  if (detected()) {
    after_detection(t);
    return false;
  }
  if (!have_t_) {
    have_t_ = true;
    last_t_ = t;
    return false;
  }
  const double interval = t - last_t_;
  if (interval == 0.0) return false;  // another instant at the same time: a cascade
  if (!(interval > 0.0)) {            // a pass run again from an earlier time
    *this = ZenoWatch();
    return instant(t);
  }
  last_t_ = t;
  if (have_interval_ && interval <= kMaxRatio * last_interval_) {
    worst_ratio_ = shrinking_ == 0 ? interval / last_interval_
                                   : std::max(worst_ratio_, interval / last_interval_);
    ++shrinking_;
  } else {
    shrinking_ = 0;
  }
  last_interval_ = interval;
  have_interval_ = true;
  if (shrinking_ < kWindow || interval > kMinInterval * std::max(std::fabs(t), 1.0)) return false;
  // The rest of the series: at most interval * r / (1 - r) for ratios up to r.
  const double r = worst_ratio_;
  const double t_star = t + interval * r / (1.0 - r);
  message_ = "events accumulate at t = " + estimate_text(t_star) + " (Zeno behaviour): " +
             std::to_string(shrinking_ + 1) +
             " instants in a row that changed the state came at intervals shrinking by a "
             "factor of " + estimate_text(r) + " or less, down to " + estimate_text(interval) +
             " at t = " + number_text(t) +
             "; past that point a trigger that stays true does not fire again, and S and "
             "gradients at later times are not to be trusted (end the solve before it, or give "
             "the model a way to come to rest, such as a speed below which the event stops it)";
  return true;
}

}  // namespace odesens::integrate
