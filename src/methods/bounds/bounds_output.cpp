#include "methods/bounds/bounds_output.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/number_text.hpp"
#include "methods/bounds/bounds_settings.hpp"
#include "odesens/status.hpp"

namespace odesens::bounds {

BoundsOutput::BoundsOutput(const Problem& problem, const ParameterBox& box,
                           const PolyArithmetic& arith, const BoundsSettings& settings,
                           const SystemBounder& state,
                           const std::vector<std::unique_ptr<SystemBounder>>* sens)
    : problem_(&problem),
      box_(&box),
      arith_(&arith),
      settings_(settings),
      state_(&state),
      sens_(sens),
      nx_(problem.model->nx()),
      np_(problem.model->np()),
      n_t_(problem.output_times.size()),
      with_s_(sens != nullptr),
      x_(n_t_ * nx_, arith.make()),
      s_(with_s_ ? n_t_ * nx_ * np_ : 0, arith.make()),
      scratch_(nx_, arith.make()) {}

void BoundsOutput::record(std::size_t k, const double* y, const std::vector<const double*>& sens) {
  state_->models(y, scratch_);
  for (std::size_t i = 0; i < nx_; ++i) x_[i + k * nx_] = scratch_[i];
  for (std::size_t j = 0; with_s_ && j < np_; ++j) {
    (*sens_)[j]->models(sens[j], scratch_);
    for (std::size_t i = 0; i < nx_; ++i) s_[i + j * nx_ + k * nx_ * np_] = scratch_[i];
  }
  const SystemLayout& layout = state_->layout();
  if (!layout.ellipsoid) return;
  for (std::size_t c = 0; c < nx_; ++c)
    for (std::size_t r = 0; r < nx_; ++r) {
      const std::size_t i = r > c ? r : c, m = r > c ? c : r;
      const bool used = !state_->is_quadrature(i) && !state_->is_quadrature(m);
      shapes_.push_back(used ? y[layout.shape(i, m)] : 0.0);
    }
}

void BoundsOutput::append(const PolyModel& m, std::vector<double>& coef, std::vector<double>& rem,
                          std::vector<double>& hull, const std::string& what) const {
  coef.insert(coef.end(), m.coef.begin(), m.coef.end());
  rem.push_back(m.rem.lower());
  rem.push_back(m.rem.upper());
  const Interval h = arith_->bound(m);
  if (!(h.upper() - h.lower() <= settings_.max_width))
    throw Error(Status::unbounded, "the enclosure of " + what + " is wider than max_width (" +
                                       number_text(settings_.max_width) + "): [" +
                                       number_text(h.lower()) + ", " +
                                       number_text(h.upper()) + "]");
  hull.push_back(h.lower());
  hull.push_back(h.upper());
}

double BoundsOutput::centre(const PolyModel& m) const {
  const std::vector<double> zero(arith_->n_vars(), 0.0);
  return boost::numeric::median(arith_->evaluate(m, zero.data()));
}

// The arithmetic and the box the models are in.
void BoundsOutput::describe_box(BoundsResult& b) const {
  b.basis = basis_name(settings_.basis);
  b.remainder = remainder_name(settings_.remainder);
  b.order = arith_->order();
  b.n_monomials = arith_->n_monomials();
  b.box_lower = box_->lower;
  b.box_upper = box_->upper;
  b.box_mid = box_->mid;
  b.box_rad = box_->rad;
  for (std::size_t k = 0; k < b.n_monomials; ++k)
    for (std::size_t j = 0; j < np_; ++j) {
      const std::size_t v = box_->variable[j];
      b.exponents.push_back(v == ParameterBox::npos ? 0 : arith_->exponent(k, v));
    }
}

// The models of x and S at the output times, and their centres as r.x, r.s.
void BoundsOutput::add_models(Result& r) const {
  BoundsResult& b = r.bounds;
  const auto& states = problem_->model->state_names();
  const auto& params = problem_->model->param_names();
  auto at = [&](std::size_t k) { return " at t = " + number_text(problem_->output_times[k]); };
  for (std::size_t m = 0; m < x_.size(); ++m) {
    append(x_[m], b.x_coef, b.x_rem, b.x_hull, states[m % nx_] + at(m / nx_));
    r.x.push_back(centre(x_[m]));
  }
  for (std::size_t m = 0; m < s_.size(); ++m) {
    const std::size_t i = m % nx_, j = (m / nx_) % np_, k = m / (nx_ * np_);
    append(s_[m], b.s_coef, b.s_rem, b.s_hull, "d" + states[i] + "/d" + params[j] + at(k));
    r.s.push_back(centre(s_[m]));
  }
  b.x_shape = shapes_;
}

// (8) at the output times: dF/dp_j = sum_k w_k^T s_j(t_k), or, with
// objective data d, sum_k 2 (x(t_k) - d_k)^T s_j(t_k).
// w: the objective's weights (empty with objective data); term and
// residual: scratch models.
void BoundsOutput::gradient_by_8(std::size_t j, const std::vector<double>& w, PolyModel& g,
                                 PolyModel& term, PolyModel& residual) const {
  const std::vector<double>& data = problem_->objective_data;
  arith_->set_constant(g, 0.0);
  for (std::size_t k = 0; k < n_t_; ++k)
    for (std::size_t i = 0; i < nx_; ++i) {
      const PolyModel& s = s_[i + j * nx_ + k * nx_ * np_];
      if (data.empty()) {
        const double wk = w[i + k * nx_];
        if (wk == 0.0) continue;
        arith_->scale(s, wk, term);
      } else {
        const double d = data[i + k * nx_];
        if (std::isnan(d)) continue;
        // d/dp (d - x)^2 = 2 (x - d) s
        arith_->set_constant(residual, -d);
        arith_->add(x_[i + k * nx_], residual, residual);
        arith_->mul(residual, s, term);
        arith_->scale(term, 2.0, term);
      }
      arith_->add(g, term, g);
    }
}

// Remainders wider than what the polynomials resolve: valid but loose.
void BoundsOutput::warn_if_loose(Result& r) const {
  std::size_t loose = 0, models = 0;
  for (const auto* set : {&x_, &s_}) {
    for (const PolyModel& m : *set) {
      ++models;
      const Interval p = arith_->bound_polynomial(m);
      if (m.rem.upper() - m.rem.lower() > std::max(p.upper() - p.lower(), 1e-12)) ++loose;
    }
  }
  if (loose > 0)
    r.warnings.push_back(std::to_string(loose) + " of the " + std::to_string(models) +
                         (with_s_ ? " models of x and S" : " models of x") +
                         " have remainders wider than the range of their polynomials: the "
                         "enclosures hold but are loose (a higher order, ellipsoidal "
                         "remainders or a smaller box tighten them)");
}

Result BoundsOutput::finish(const std::vector<PolyModel>* gradient) {
  Result r;
  r.nx = nx_;
  r.np = np_;
  r.times = problem_->output_times;
  if (with_s_) r.s_times = problem_->output_times;
  describe_box(r.bounds);
  add_models(r);
  BoundsResult& b = r.bounds;
  const auto& params = problem_->model->param_names();
  const std::vector<double> w = gradient || !problem_->objective_data.empty()
                                    ? std::vector<double>{}
                                    : objective_weights(*problem_);
  PolyModel g = arith_->make(), term = arith_->make(), residual = arith_->make();
  for (std::size_t j = 0; j < np_; ++j) {
    if (gradient) g = (*gradient)[j];
    else gradient_by_8(j, w, g, term, residual);
    append(g, b.gradient_coef, b.gradient_rem, b.gradient_hull, "dF/d" + params[j]);
    r.gradient.push_back(centre(g));
  }
  r.warnings.push_back(
      "the bounds enclose the exact solution of the bounding ODEs; the error of their numerical "
      "integration (CVODES at the solve's tolerances) is not enclosed");
  warn_if_loose(r);
  return r;
}

}  // namespace odesens::bounds
