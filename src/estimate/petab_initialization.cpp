// PetabProblem::start_value: a fit's starts drawn from the problem's
// initialization priors. A point drawn uniformly in the box (the Latin
// hypercube's, so its strata carry over) is taken to the prior's quantile
// at the same fraction of the box, the prior truncated to the bounds: the
// specification clips its draws to them instead, which puts starts on the
// bounds, where a start cannot move outward and LM's first steps are cut.
#include <algorithm>
#include <boost/math/distributions/laplace.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>

#include "io/format_double.hpp"
#include "odesens/petab.hpp"
#include "odesens/status.hpp"
#include "sources/petab/petab_problem.hpp"

namespace odesens {
namespace {

using petab::Prior;
using petab::PriorType;
using petab::Scale;

constexpr double kInf = std::numeric_limits<double>::infinity();

bool on_parameter_scale(PriorType t) {
  return t == PriorType::parameter_scale_uniform || t == PriorType::parameter_scale_normal ||
         t == PriorType::parameter_scale_laplace;
}

bool of_log(PriorType t) { return t == PriorType::log_normal || t == PriorType::log_laplace; }

// The variable the prior is a distribution of (the linear value, its
// natural log, or the value on the parameter's scale) at x on that scale.
double variable_at(double x, Scale scale, PriorType t) {
  if (on_parameter_scale(t)) return x;
  const double p = petab::unscale(x, scale);
  if (!of_log(t)) return p;
  return p > 0.0 ? std::log(p) : -kInf;  // outside the support, below it
}

double scaled_at(double v, Scale scale, PriorType t) {
  if (on_parameter_scale(t)) return v;
  return petab::scale_value(of_log(t) ? std::exp(v) : v, scale);
}

bool uniform(PriorType t) {
  return t == PriorType::uniform || t == PriorType::parameter_scale_uniform;
}

bool normal(PriorType t) {
  return t == PriorType::normal || t == PriorType::log_normal ||
         t == PriorType::parameter_scale_normal;
}

double cdf(const Prior& prior, double v) {
  if (v == -kInf) return 0.0;
  if (v == kInf) return 1.0;
  if (uniform(prior.type)) return std::clamp((v - prior.a) / (prior.b - prior.a), 0.0, 1.0);
  if (normal(prior.type)) return boost::math::cdf(boost::math::normal(prior.a, prior.b), v);
  return boost::math::cdf(boost::math::laplace(prior.a, prior.b), v);
}

// The smallest probability quantile() takes: the quantile of 0 is infinite.
constexpr double kSmallestProbability = 1e-300;

// q strictly inside (0, 1): the quantiles of 0 and 1 are infinite.
double quantile(const Prior& prior, double q) {
  q = std::clamp(q, kSmallestProbability, 1.0 - 1e-16);
  if (uniform(prior.type)) return prior.a + q * (prior.b - prior.a);
  if (normal(prior.type)) return boost::math::quantile(boost::math::normal(prior.a, prior.b), q);
  return boost::math::quantile(boost::math::laplace(prior.a, prior.b), q);
}

// A parameter without an initialization prior draws from its box, the
// specification's default (parameterScaleUniform over the bounds), but
// where its objective prior is uniform, from the part of the box within
// that prior's support: a start outside it has nlpost = inf, and no
// optimizer moves from there.
double within_objective_support(const petab::ParameterRow& row, double scaled, double lo,
                                double hi) {
  const Prior& prior = row.prior;
  if (!uniform(prior.type)) return scaled;
  const bool on_scale = prior.type == PriorType::parameter_scale_uniform;
  // A linear value at or below 0 lies below every value of a log scale.
  const auto scaled_bound = [&](double v) {
    if (on_scale) return v;
    return row.scale != Scale::lin && !(v > 0.0) ? -kInf : petab::scale_value(v, row.scale);
  };
  const double s_lo = std::max(lo, scaled_bound(prior.a));
  const double s_hi = std::min(hi, scaled_bound(prior.b));
  if (!(s_lo <= s_hi))
    throw Error(Status::invalid_argument,
                row.place.text() + ": the objective prior of '" + row.id + "' (uniform on [" +
                    io::format_double(prior.a) + ", " + io::format_double(prior.b) +
                    "]) lies outside its bounds [" + io::format_double(row.lower) + ", " +
                    io::format_double(row.upper) + "]: nlpost is infinite at every start");
  if (s_lo == lo && s_hi == hi) return scaled;
  const double fraction = std::clamp((scaled - lo) / (hi - lo), 0.0, 1.0);
  return std::clamp(s_lo + fraction * (s_hi - s_lo), s_lo, s_hi);
}

}  // namespace

double PetabProblem::start_value(std::size_t i, double scaled) const {
  const petab::ParameterRow& row = def_->tables.parameters[def_->estimated.at(i)];
  const Prior& prior = row.initialization;
  const double lo = lower_.at(i), hi = upper_.at(i);
  if (!(lo < hi)) return scaled;
  if (prior.type == PriorType::none) return within_objective_support(row, scaled, lo, hi);
  // Uniform on the scale over the box or more: the box's own draw.
  if (prior.type == PriorType::parameter_scale_uniform && prior.a <= lo && prior.b >= hi)
    return scaled;
  const double v_lo = variable_at(lo, row.scale, prior.type);
  const double v_hi = variable_at(hi, row.scale, prior.type);
  // A box above the location of a normal or Laplace prior lies in its upper
  // tail, where the cdf is 1 - (a small number) and loses that number's
  // digits (mean -8, sd 1 on [0, 10]: 1 - 6e-16 and 1, 6 distinct starts
  // of 20). Its mirror image about the location lies in the lower tail,
  // where the cdf keeps them: drawn there and mirrored back.
  const bool mirror = !uniform(prior.type) && v_lo > prior.a;
  const double m_lo = mirror ? 2 * prior.a - v_hi : v_lo;
  const double m_hi = mirror ? 2 * prior.a - v_lo : v_hi;
  const double f_lo = cdf(prior, m_lo), f_hi = cdf(prior, m_hi);
  // A mass below what quantile() takes would put every start on one bound.
  if (!(f_hi > f_lo) || !(f_hi > kSmallestProbability))
    throw Error(Status::invalid_argument,
                row.place.text() + ": the initialization prior of '" + row.id +
                    "' has no probability within its bounds [" + io::format_double(row.lower) +
                    ", " + io::format_double(row.upper) + "]: no start can be drawn from it");
  const double fraction = std::clamp((scaled - lo) / (hi - lo), 0.0, 1.0);
  const double at = mirror ? 1.0 - fraction : fraction;
  const double q = quantile(prior, f_lo + at * (f_hi - f_lo));
  const double v = std::clamp(mirror ? 2 * prior.a - q : q, v_lo, v_hi);
  return std::clamp(scaled_at(v, row.scale, prior.type), lo, hi);
}

}  // namespace odesens
