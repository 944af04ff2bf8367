#include "integrate/output_grid.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens::integrate {

namespace {
void check_times(double t0, const double* times, std::size_t count, double direction) {
  double previous = t0;
  for (std::size_t k = 0; k < count; ++k) {
    if (!std::isfinite(times[k]))
      throw Error(Status::invalid_argument, "output time " + std::to_string(k) + " is not finite");
    if (direction * (times[k] - previous) < 0)
      throw Error(Status::invalid_argument,
                  "output times must be monotone from t0 in the direction of integration "
                  "(time " + std::to_string(k) + ")");
    previous = times[k];
  }
}
}  // namespace

namespace {

// The grid's loop: x(times[k]) is written to slot(k), and filled(k) is
// told once it is there.
template <class Slot, class Filled>
void reach_each(SteppedSolution& solver, const double* times, std::size_t count,
                const OutputGridSettings& settings, Slot slot, Filled filled) {
  if (count == 0) return;
  const double t_last = times[count - 1];
  const double direction = settings.direction != 0 ? (settings.direction > 0 ? 1.0 : -1.0)
                           : t_last >= solver.t()   ? 1.0
                                                    : -1.0;
  check_times(settings.direction != 0 ? times[0] : solver.t(), times, count, direction);
  const std::size_t n = solver.size();
  int steps = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const double t_out = times[k];
    const double t_limit = settings.stop_at_outputs ? t_out : t_last;
    if (direction * (solver.t() - t_out) < 0) solver.begin_output_interval();
    while (direction * (solver.t() - t_out) < 0) {
      solver.step(t_limit);
      if (settings.interrupt && ++steps % kInterruptSteps == 0 && (*settings.interrupt)())
        throw Error(Status::interrupted, "the solve was interrupted at t = " +
                                             number_text(solver.t()) + " (the caller's interrupt)");
    }
    double* out = slot(k);
    if (solver.t() == t_out) {
      std::copy(solver.x(), solver.x() + n, out);
    } else {
      // Only in dense mode: the step that covers t_out ended beyond it.
      solver.interpolate(t_out, out);
    }
    filled(k);
  }
}

}  // namespace

void reach_outputs(SteppedSolution& solver, const double* times, std::size_t count,
                   const OutputGridSettings& settings, double* X_out) {
  const std::size_t n = solver.size();
  reach_each(
      solver, times, count, settings, [&](std::size_t k) { return X_out + k * n; },
      [](std::size_t) {});
}

void reach_outputs(SteppedSolution& solver, const double* times, std::size_t count,
                   const OutputGridSettings& settings, const OutputSink& sink) {
  std::vector<double> x(solver.size());
  reach_each(
      solver, times, count, settings, [&](std::size_t) { return x.data(); },
      [&](std::size_t k) { sink(k, x.data()); });
}

}  // namespace odesens::integrate
