#include "integrate/events/instant_record.hpp"

namespace odesens::integrate {

void InstantRecord::begin(double t, const double* x, std::size_t cause) {
  executed_here_ = 0;
  if (!on_) return;
  instant_.t = t;
  instant_.x_minus.assign(x, x + nx_);
  instant_.cause = cause;
  instant_.f_minus.assign(nx_, 0.0);
  instant_.f_plus.assign(nx_, 0.0);
  instant_.steps.clear();
  instant_.fired.clear();
  instant_.timed_by_firing = false;
  instant_.parted_dT.clear();
  instant_.parted_dS.clear();
  ++instants_;
}

double* InstantRecord::parted_dT() {
  instant_.parted_dT.assign(nx_ * np_, 0.0);
  return instant_.parted_dT.data();
}

double* InstantRecord::parted_dS() {
  instant_.parted_dS.assign(nx_ * np_, 0.0);
  return instant_.parted_dS.data();
}

void InstantRecord::timed_by(std::size_t order, std::size_t fired_at) {
  if (!on_ || fired_at == instants_) return;
  instant_.timed_by_firing = true;
  instant_.timed_by = order;
}

void InstantRecord::fire(std::size_t k, std::size_t order, bool later, const double* x,
                         FiringPoint& point) {
  if (!on_) return;
  point.x_fired.assign(x, x + nx_);
  point.source = executed_here_;
  point.instant = instants_;
  if (later) instant_.fired.push_back({k, order, executed_here_, point.x_fired});
}

void InstantRecord::execute(std::size_t k, std::size_t order, const FiringPoint& point,
                            bool values_fired, const double* x) {
  if (on_)
    instant_.steps.push_back({k,
                              values_fired ? point.x_fired : std::vector<double>(x, x + nx_),
                              values_fired ? point.source : executed_here_, order,
                              point.instant != instants_, values_fired});
  ++executed_here_;
}

}  // namespace odesens::integrate
