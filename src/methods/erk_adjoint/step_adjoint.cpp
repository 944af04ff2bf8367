#include "methods/erk_adjoint/step_adjoint.hpp"

#include <algorithm>
#include <string>

#include "odesens/status.hpp"

namespace odesens::erk_adjoint {

namespace {

// The replay engine takes the recorded h_n with take_step: a fixed step
// keeps reset() from guessing a first step (which would cost f evaluations).
integrate::erk::ErkSettings replay_settings() {
  integrate::erk::ErkSettings s;
  s.h_fixed = 1.0;
  s.max_steps = 1L << 62;
  return s;
}

}  // namespace

// theta_i vanishes for every lambda when b_i = 0 and no later stage reads
// k_i: the FSAL stage f(t_n + h, x_{n+1}), which belongs to the next step.
int live_stage_count(const integrate::erk::Tableau& tableau) {
  auto dead = [&](int i) {
    if (tableau.b[i] != 0.0) return false;
    for (int j = i + 1; j < tableau.stages; ++j)
      if (tableau.a_at(j, i) != 0.0) return false;
    return true;
  };
  int live = tableau.stages;
  while (live > 1 && dead(live - 1)) --live;
  return live;
}

StepAdjoint::StepAdjoint(const Model& model, const double* p, Workspace* ws,
                         const integrate::erk::Tableau& tableau, Block block)
    : model_(model),
      p_(p),
      ws_(ws),
      tableau_(tableau),
      nx_(model.nx()),
      np_(model.np()),
      m_(block.m),
      block_(block),
      live_stages_(live_stage_count(tableau)),
      y_(static_cast<std::size_t>(tableau.stages) * model.nx()),
      batched_(model.batches_parameter_products()),
      theta_(model.nx() * block.m *
             (model.batches_parameter_products() ? static_cast<std::size_t>(tableau.stages) : 1)),
      nu_(static_cast<std::size_t>(tableau.stages) * model.nx() * block.m),
      stage_times_(static_cast<std::size_t>(tableau.stages)),
      rhs_(model, p, ws, /*numbered_slots=*/true),
      capture_(y_, model.nx(), rhs_),
      replay_workspace_(tableau, model.nx(), 1),
      replay_(rhs_, replay_workspace_, replay_settings(), &capture_) {
  if (block.integrand) {
    const std::size_t costs = block.integrand->count();
    cost_begin_ = 0;
    cost_end_ = block.first < costs ? std::min(block.m, costs - block.first) : 0;
    if (cost_end_ > 0) {
      r_x_.resize(nx_ * costs);
      r_p_.resize(np_ * costs);
    }
  }
}

void StepAdjoint::add_running_cost(double t_i, const double* y, double hb, double* nu_i,
                                   double* mu) {
  block_.integrand->evaluate(t_i, y, p_, nullptr, r_x_.data(), np_ > 0 ? r_p_.data() : nullptr,
                             ws_);
  for (std::size_t c = cost_begin_; c < cost_end_; ++c) {
    const std::size_t objective = block_.first + c;
    const double* rx = r_x_.data() + objective * nx_;
    const double* rp = r_p_.data() + objective * np_;
    for (std::size_t i = 0; i < nx_; ++i) nu_i[i + c * nx_] += hb * rx[i];
    for (std::size_t j = 0; j < np_; ++j) mu[j + c * np_] += hb * rp[j];
  }
}


void StepAdjoint::StageCapture::on_stage(int i, double, const double* y, const double*) {
  if (static_cast<std::size_t>(i + 1) * nx_ <= y_.size())
    std::copy(y, y + nx_, y_.begin() + static_cast<std::ptrdiff_t>(i) * nx_);
  if (rhs_.retains() && rhs_.last_slot() != static_cast<std::size_t>(i))
    throw Error(Status::internal_error, "erk_adjoint: stage " + std::to_string(i) +
                                            " was evaluated out of order");
}

void StepAdjoint::recompute_stages(double t, double h, const double* x) {
  rhs_.restart_slots();
  replay_.reset(t, x, t + h);  // (reset clears the engine's counters)
  replay_.take_step(h);
  counts_.rhs_evals += replay_.stats().rhs_evaluations;
  ++counts_.recomputed_steps;
}

void StepAdjoint::advance(double t, double h, const double* x, double* x_out) {
  recompute_stages(t, h, x);
  std::copy(replay_.x(), replay_.x() + nx_, x_out);
}

void StepAdjoint::step_back(double t, double h, const double* y_stages, double* lambda,
                            double* mu) {
  const int last_live = live_stages_ - 1;
  // Stages backward (Algorithm 1). theta_i is kept per stage when the
  // model takes the parameter parts of the whole step at once.
  const std::size_t block = nx_ * m_;
  const bool batched = batched_ && np_ > 0 && !truth_;
  // Stage values of this object's own replay have their values retained.
  const bool replayed = rhs_.retains() && y_stages == y_.data();
  for (int i = last_live; i >= 0; --i) {
    double* nu_i = nu_.data() + static_cast<std::size_t>(i) * block;
    double* theta = batched ? theta_.data() + static_cast<std::size_t>(i) * block : theta_.data();
    const double b = tableau_.b[i];
    for (std::size_t q = 0; q < block; ++q) theta[q] = h * b * lambda[q];
    for (int j = i + 1; j <= last_live; ++j) {
      const double a = tableau_.a_at(j, i);
      if (a == 0.0) continue;
      const double* nu_j = nu_.data() + static_cast<std::size_t>(j) * block;
      for (std::size_t q = 0; q < block; ++q) theta[q] += h * a * nu_j[q];
    }
    const double t_i = t + tableau_.c[i] * h;
    stage_times_[static_cast<std::size_t>(i)] = t_i;
    const double* y = y_stages + static_cast<std::size_t>(i) * nx_;
    // nu_i = J_x^T theta_i and mu += J_p^T theta_i (Eqs. 47-48), the
    // parameter part here or for the whole step below.
    double* mu_here = batched || np_ == 0 ? nullptr : mu;
    if (truth_)
      model_.event_system()->vjp_on_branches(t_i, y, p_, truth_, m_, theta, nu_i, mu_here, ws_);
    else if (replayed)  // from the values the replay kept (RetainedValues)
      rhs_.retained()->vjp_accumulate_retained(static_cast<std::size_t>(i), m_, theta, nu_i,
                                               mu_here, ws_);
    else
      model_.vjp_accumulate(t_i, y, p_, m_, theta, nu_i, mu_here, ws_);
    ++counts_.vjp_products;
    if (cost_end_ > cost_begin_ && b != 0.0) add_running_cost(t_i, y, h * b, nu_i, mu);
  }
  if (batched)
    model_.vjp_p_accumulate_points(static_cast<std::size_t>(live_stages_), stage_times_.data(),
                                   y_stages, p_, m_, theta_.data(), mu, ws_);
  for (int i = 0; i <= last_live; ++i) {
    const double* nu_i = nu_.data() + static_cast<std::size_t>(i) * block;
    for (std::size_t q = 0; q < block; ++q) lambda[q] += nu_i[q];
  }
}

}  // namespace odesens::erk_adjoint
