#include "methods/erk_adjoint/checkpoint_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "odesens/status.hpp"

namespace odesens::erk_adjoint {
namespace {

constexpr double kSaturation = 4.6e18;  // about 2^62

// beta(s, r) = C(s + r, s) as a double, saturated.
double beta(long long s, long long r) {
  if (r < 0) return 0.0;
  double v = 1.0;
  for (long long i = 1; i <= std::min(s, r); ++i) {
    v = v * static_cast<double>(s + r - std::min(s, r) + i) / static_cast<double>(i);
    if (v > kSaturation) return kSaturation;
  }
  return v;
}

double advances(long long l, long long c) {
  if (l <= 1) return 0.0;
  long long r = 0;
  while (beta(c + 1, r) < static_cast<double>(l)) ++r;
  return static_cast<double>(r) * static_cast<double>(l) - beta(c + 2, r - 1);
}

// The j in [1, l - 1] where j + T(l - j, c - 1) + T(j, c) is least (c >= 1).
long long split(long long l, long long c) {
  auto cost = [&](long long j) { return static_cast<double>(j) + advances(l - j, c - 1) + advances(j, c); };
  long long lo = 1, hi = l - 1;  // the least j with cost(j + 1) >= cost(j)
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (cost(mid + 1) >= cost(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

class Schedule {
 public:
  Schedule(const ForwardTrajectory& trajectory, StepAdjoint& adjoint, double* lambda, double* mu,
           const Jump& jump, const InstantJump& instant_jump)
      : tr_(trajectory), adjoint_(adjoint), lambda_(lambda), mu_(mu), jump_(jump),
        instant_jump_(instant_jump),
        next_output_(trajectory.steps_before.size()),
        next_instant_(trajectory.instants.size()) {}

  // The jumps of the outputs whose state is x_n and back across the
  // instants just before x_n, latest first. An output on an instant comes
  // after it; one a few ulps before an instant (no step between them)
  // before it: its jump taken after the instant's put dJ/dx(t_k) through
  // the instant's jump of S (dG/dT off by its term).
  void jumps_at(std::size_t n) {
    for (;;) {
      const bool output = next_output_ > 0 && tr_.steps_before[next_output_ - 1] == n;
      const bool instant =
          next_instant_ > 0 && tr_.instants[next_instant_ - 1].steps_before == n;
      if (output && (!instant || next_instant_ - 1 < tr_.instants_before[next_output_ - 1])) {
        --next_output_;
        jump_(next_output_, lambda_);
      } else if (instant) {
        --next_instant_;
        instant_jump_(tr_.instants[next_instant_], lambda_, mu_);
      } else {
        return;
      }
    }
  }

  void back_from_state(std::size_t n, const double* x_n) {
    adjoint_.hold_branches(tr_.truth_after(next_instant_));
    adjoint_.recompute_stages(tr_.t[n], tr_.h[n], x_n);
    adjoint_.step_back(tr_.t[n], tr_.h[n], adjoint_.stages(), lambda_, mu_);
    jumps_at(n);
  }

  void states() {
    for (std::size_t n = tr_.steps(); n-- > 0;) back_from_state(n, tr_.x.data() + n * tr_.nx);
  }

  void stages() {
    const std::size_t block = static_cast<std::size_t>(tr_.live_stages) * tr_.nx;
    for (std::size_t n = tr_.steps(); n-- > 0;) {
      adjoint_.hold_branches(tr_.truth_after(next_instant_));
      adjoint_.step_back(tr_.t[n], tr_.h[n], tr_.y.data() + n * block, lambda_, mu_);
      jumps_at(n);
    }
  }

  void revolve(std::size_t checkpoints) {
    slots_.assign(checkpoints * tr_.nx, 0.0);
    work_a_.assign(tr_.nx, 0.0);
    work_b_.assign(tr_.nx, 0.0);
    reverse_segment(0, tr_.steps(), tr_.x0.data(), checkpoints);
  }

 private:
  // x_out = x_to from x_from (to >= from), through the work buffers.
  void advance(std::size_t from, std::size_t to, const double* x_from, double* x_out) {
    const double* x = x_from;
    for (std::size_t n = from; n < to; ++n) {
      double* next = (n + 1 == to) ? x_out : (x == work_a_.data() ? work_b_.data() : work_a_.data());
      adjoint_.advance(tr_.t[n], tr_.h[n], x, next);
      x = next;
    }
    if (from == to) std::copy(x_from, x_from + tr_.nx, x_out);
  }

  // Steps [a, b) backwards from x_a with c free checkpoint slots (slots
  // 0 .. c-1 free; deeper segments use lower ones).
  void reverse_segment(std::size_t a, std::size_t b, const double* x_a, std::size_t c) {
    while (b - a > 1 && c > 0) {
      const std::size_t m = a + static_cast<std::size_t>(
                                    split(static_cast<long long>(b - a), static_cast<long long>(c)));
      double* slot = slots_.data() + (c - 1) * tr_.nx;
      advance(a, m, x_a, slot);
      reverse_segment(m, b, slot, c - 1);
      b = m;
    }
    if (b - a == 1) {
      back_from_state(a, x_a);
      return;
    }
    // No free slot: every step from x_a again (l (l - 1) / 2 advances).
    std::vector<double>& x_n = last_;
    x_n.resize(tr_.nx);
    for (std::size_t n = b; n-- > a;) {
      advance(a, n, x_a, x_n.data());
      back_from_state(n, x_n.data());
    }
  }

  const ForwardTrajectory& tr_;
  StepAdjoint& adjoint_;
  double* lambda_;
  double* mu_;
  const Jump& jump_;
  const InstantJump& instant_jump_;
  std::size_t next_output_, next_instant_;
  std::vector<double> slots_, work_a_, work_b_, last_;
};

}  // namespace

long long revolve_advances(long long l, long long c) {
  return static_cast<long long>(advances(l, c));
}

void run_reverse(const ForwardTrajectory& trajectory, StepAdjoint& adjoint, double* lambda,
                 double* mu, const Jump& jump, std::size_t checkpoints,
                 const InstantJump& instant_jump) {
  if (!trajectory.instants.empty() && !instant_jump)
    throw Error(Status::internal_error, "a trajectory with instants needs their adjoint jump");
  Schedule schedule(trajectory, adjoint, lambda, mu, jump, instant_jump);
  schedule.jumps_at(trajectory.steps());
  switch (trajectory.mode) {
    case Checkpointing::states: schedule.states(); break;
    case Checkpointing::stages: schedule.stages(); break;
    case Checkpointing::revolve: schedule.revolve(checkpoints); break;
  }
}

}  // namespace odesens::erk_adjoint
