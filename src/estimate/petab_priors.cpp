// The priors of a PEtab problem (objectivePriorType, PEtab v1): each a
// density of the parameter's linear value, of its log (logNormal,
// logLaplace) or of its value on its scale (parameterScale*), at the
// estimated parameters x on their scales.
#include <cmath>
#include <limits>
#include <string>

#include "estimate/petab_least_squares.hpp"
#include "estimate/petab_likelihood.hpp"
#include "estimate/petab_objective.hpp"
#include "io/format_double.hpp"
#include "odesens/status.hpp"

namespace odesens::petab {
namespace {

// Densities of log p (0 at p <= 0), and those with a bounded support.
bool of_log(PriorType t) { return t == PriorType::log_normal || t == PriorType::log_laplace; }
bool bounded(PriorType t) {
  return t == PriorType::uniform || t == PriorType::parameter_scale_uniform;
}

// v, dv/dx and d2v/dx2 of the variable the prior's density is over.
struct Variable {
  double v, d1, d2;
};

Variable prior_variable(double x, Scale scale, PriorType type) {
  const double p = unscale(x, scale);
  const double dp = unscale_derivative(x, scale);
  const double l = std::log(10.0);
  const double d2p = scale == Scale::log ? p : scale == Scale::log10 ? p * l * l : 0.0;
  switch (type) {
    case PriorType::parameter_scale_uniform:
    case PriorType::parameter_scale_normal:
    case PriorType::parameter_scale_laplace: return {x, 1.0, 0.0};
    case PriorType::log_normal:
    case PriorType::log_laplace: return {std::log(p), dp / p, (d2p * p - dp * dp) / (p * p)};
    default: return {p, dp, d2p};
  }
}

// Negative log-density of the prior, with its first and second derivative
// in x.
struct PriorTerm {
  double value = 0.0, d1 = 0.0, d2 = 0.0;
};

// v in [a, b], up to a few units in the last place of the bounds: a
// parameter at its bound on a log scale comes back from 10^x a unit off in
// about a quarter of cases, and a uniform prior spanning the bounds (their
// default) must not be 0 there.
bool within_interval(double v, double a, double b) {
  const double ulps = 4 * std::numeric_limits<double>::epsilon();
  return v >= a - ulps * std::fabs(a) && v <= b + ulps * std::fabs(b);
}

PriorTerm prior_term(const Prior& prior, const Variable& u) {
  PriorTerm t;
  const double a = prior.a, b = prior.b;
  // The log-distributions' density is 0 at p <= 0 (log p is -inf or NaN
  // there): outside the support, as a uniform prior outside its interval.
  const bool log_density = of_log(prior.type);
  if (log_density && !(u.v > -std::numeric_limits<double>::infinity())) {
    t.value = std::numeric_limits<double>::infinity();
    return t;
  }
  switch (prior.type) {
    case PriorType::none: break;
    case PriorType::uniform:
    case PriorType::parameter_scale_uniform:
      t.value = within_interval(u.v, a, b) ? std::log(b - a)
                                           : std::numeric_limits<double>::infinity();
      break;
    case PriorType::normal:
    case PriorType::log_normal:
    case PriorType::parameter_scale_normal: {
      const double z = (u.v - a) / b;
      t.value = 0.5 * (kLog2Pi + 2.0 * std::log(b)) + 0.5 * z * z;
      t.d1 = z / b * u.d1;
      t.d2 = (u.d1 * u.d1 + (u.v - a) * u.d2) / (b * b);
      break;
    }
    case PriorType::laplace:
    case PriorType::log_laplace:
    case PriorType::parameter_scale_laplace: {
      const double sign = u.v > a ? 1.0 : u.v < a ? -1.0 : 0.0;
      t.value = std::log(2.0 * b) + std::abs(u.v - a) / b;
      t.d1 = sign * u.d1 / b;
      t.d2 = sign * u.d2 / b;
      break;
    }
  }
  // The log-distributions are densities of p: the change of variables from
  // log p adds log p (that is, u.v).
  if (log_density) {
    t.value += u.v;
    t.d1 += u.d1;
    t.d2 += u.d2;
  }
  return t;
}

// Why a prior's -log p is not finite at u: outside a bounded support, or
// a density too small for a double (a normal prior's z^2 overflowing).
std::string why_not_finite(const Prior& prior, const Variable& u) {
  if (bounded(prior.type) ||
      (of_log(prior.type) && !(u.v > -std::numeric_limits<double>::infinity())))
    return "outside the prior's support";
  return "a density below the smallest double: its mean " + io::format_double(prior.a) +
         " and scale " + io::format_double(prior.b) + " are far apart in the scale's units";
}

// The prior's residual of the least-squares form and its derivative in x:
// (u - a)/b for the normal priors of u itself (their -log p is half its
// square plus a constant), else sqrt(2 (-log p + C)).
void prior_residual(const ParameterRow& row, double value_at, const Variable& u, const PriorTerm& t,
                    std::size_t i, std::size_t k, PetabResult& r) {
  const std::size_t n = r.parameter_ids.size();
  const bool jacobian = !r.residual_jacobian.empty();
  const PriorType type = row.prior.type;
  double value = 0.0, d1 = 0.0;
  if (type == PriorType::normal || type == PriorType::parameter_scale_normal) {
    value = (u.v - row.prior.a) / row.prior.b;
    d1 = u.d1 / row.prior.b;
  } else {
    const double argument = 2.0 * (t.value + kPetabResidualOffset);
    if (!(argument > 0.0) || !std::isfinite(argument))
      throw Error(Status::not_finite,
                  row.place.text() + ": the objective prior of '" + row.id + "' has -log p = " +
                      io::format_double(t.value) + " at its value " + io::format_double(value_at) +
                      (std::isfinite(t.value) ? "" : " (" + why_not_finite(row.prior, u) + ")") +
                      ": no residual of the least-squares form (2 (-log p + " +
                      io::format_double(kPetabResidualOffset) + ") must be positive and finite)");
    value = std::sqrt(argument);
    d1 = t.d1 / value;
  }
  r.least_squares_residuals[k] = value;
  if (jacobian) r.residual_jacobian[k * n + i] = d1;
}

// A finite -log p whose derivatives overflow (a scale b so small that 1/b
// or 1/b^2 is inf) leaves the gradient or the FIM not finite: said.
void warn_derivatives(const ParameterRow& row, double value_at, const PriorTerm& t,
                      PetabResult& r) {
  if (!std::isfinite(t.value)) return;
  const bool gradient = !r.gradient.empty() && !std::isfinite(t.d1);
  const bool fim = !r.fim.empty() && !std::isfinite(t.d2);
  if (!gradient && !fim) return;
  const char* which = gradient && fim ? "the gradient and the FIM are"
                      : gradient      ? "the gradient is"
                                      : "the FIM's diagonal entry is";
  r.warnings.push_back("parameter '" + row.id + "': the derivatives of its objective prior's " +
                       "-log p overflow at its value " + io::format_double(value_at) +
                       " (1/b or 1/b^2 of its scale b = " + io::format_double(row.prior.b) +
                       " are beyond a double): " + which + " not finite");
}

}  // namespace

void add_priors(const Definition& def, const std::vector<double>& x,
                const LeastSquaresLayout* layout, PetabResult& r) {
  const std::size_t n = def.estimated.size();
  for (std::size_t i = 0; i < n; ++i) {
    const ParameterRow& row = def.tables.parameters[def.estimated[i]];
    if (row.prior.type == PriorType::none) continue;
    r.has_priors = true;
    const Variable u = prior_variable(x[i], row.scale, row.prior.type);
    const PriorTerm t = prior_term(row.prior, u);
    const double value = unscale(x[i], row.scale);
    if (layout)
      prior_residual(row, value, u, t, i, static_cast<std::size_t>(layout->prior_row[i]), r);
    r.log_prior -= t.value;
    if (!std::isfinite(t.value))
      r.warnings.push_back("parameter '" + row.id + "': the log-density of its objective prior is " +
                           io::format_double(-t.value) + " at its value " +
                           io::format_double(value) + " (" + why_not_finite(row.prior, u) +
                           "): nlpost is not finite");
    warn_derivatives(row, value, t, r);
    if (!r.gradient.empty()) r.gradient[i] += t.d1;
    if (!r.fim.empty()) r.fim[i * n + i] += t.d2;
  }
}

}  // namespace odesens::petab
