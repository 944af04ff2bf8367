// Measurement terms of a PEtab objective (petab_likelihood.hpp).
#include "estimate/petab_likelihood.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "estimate/petab_least_squares.hpp"
#include "estimate/petab_objective.hpp"
#include "io/format_double.hpp"
#include "odesens/status.hpp"

namespace odesens::petab {
namespace {

const double kLn10 = std::log(10.0);

double transform(double v, Transformation t) {
  switch (t) {
    case Transformation::log: return std::log(v);
    case Transformation::log10: return std::log10(v);
    case Transformation::lin: break;
  }
  return v;
}

// d transform(v) / dv
double transform_derivative(double v, Transformation t) {
  switch (t) {
    case Transformation::log: return 1.0 / v;
    case Transformation::log10: return 1.0 / (v * kLn10);
    case Transformation::lin: break;
  }
  return 1.0;
}

// The density is of the untransformed y: log |d transform(y)/dy|^-1.
double jacobian_term(double y, Transformation t) {
  switch (t) {
    case Transformation::log: return std::log(y);
    // log(y ln 10) as a sum: the product overflows for y above about 7.8e307.
    case Transformation::log10: return std::log(y) + std::log(kLn10);
    case Transformation::lin: break;
  }
  return 0.0;
}

// The model parameter j's setting in measurement m: its placeholder's, or
// the simulation condition's.
int theta_of(const Definition& def, const Experiment& e, const Measurement& m, std::size_t j,
             bool* is_placeholder) {
  for (const auto& [param, setting] : m.placeholders)
    if (param == j) {
      *is_placeholder = true;
      return setting.theta;
    }
  *is_placeholder = false;
  return def.conditions[e.simulation].params[j].theta;
}

// One measurement's total derivatives of h and sigma in the estimated
// parameters: d/dx_i = sum_j (dh/dx S_j + dh/dp_j) dp_j/dx_i. Without S
// (adjoint gradients) only the partials of the parameters f does not depend
// on (the observable table's and the placeholders): the rest is in the
// adjoint's gradient.
struct Derivatives {
  std::vector<double> h, sigma;
};

void total_derivatives(const Definition& def, const Experiment& e, const Measurement& m,
                       const double* S, bool output_params_only, const double* g_x,
                       const double* g_p, const Chain& chain, Derivatives& d) {
  const std::size_t nx = def.model->nx(), np = def.model->np();
  const std::size_t n_dynamic = def.n_sbml_params;  // S's columns
  std::fill(d.h.begin(), d.h.end(), 0.0);
  std::fill(d.sigma.begin(), d.sigma.end(), 0.0);
  for (std::size_t j = output_params_only ? n_dynamic : 0; j < np; ++j) {
    bool placeholder = false;
    const int theta = theta_of(def, e, m, j, &placeholder);
    if (theta < 0) continue;
    const int i = chain.estimated_index[static_cast<std::size_t>(theta)];
    if (i < 0) continue;
    double dh = g_p[j], ds = g_p[j + np];
    if (S && j < n_dynamic)
      for (std::size_t k = 0; k < nx; ++k) {
        dh += g_x[k] * S[k + j * nx];
        ds += g_x[k + nx] * S[k + j * nx];
      }
    d.h[static_cast<std::size_t>(i)] += dh * chain.dp_dx[static_cast<std::size_t>(i)];
    d.sigma[static_cast<std::size_t>(i)] += ds * chain.dp_dx[static_cast<std::size_t>(i)];
  }
}

void add_outer(std::vector<double>& fim, const std::vector<double>& a, double w) {
  const std::size_t n = a.size();
  for (std::size_t r = 0; r < n; ++r)
    if (a[r] != 0.0)
      for (std::size_t c = 0; c < n; ++c) fim[r * n + c] += w * a[r] * a[c];
}

// A bad noise formula or observable makes every row's term undefined: the
// first rows are named, the rest counted in one more sentence.
constexpr std::size_t kRowsNamed = 10;

void row_warning(PetabResult& r, std::size_t& rows_warned, const std::string& text) {
  ++rows_warned;
  if (rows_warned <= kRowsNamed) r.warnings.push_back(text);
  if (rows_warned == kRowsNamed + 1)
    r.warnings.push_back("further measurement rows have undefined or non-finite terms of the "
                         "likelihood; the first " + std::to_string(kRowsNamed) +
                         " are named above");
}

// The likelihood is not defined (sigma not positive, a log-transformed
// simulation not positive), or its term is not finite (an infinite
// simulation or sigma, a measurement the transformation cannot take, a
// residual beyond double range): the result says where.
void warn_undefined(const Measurement& m, const Observable& ob, const Term& t, PetabResult& r,
                    std::size_t& rows_warned) {
  const std::string at = m.place.text() + ": ";
  if (!(t.sigma > 0.0))
    row_warning(r, rows_warned, at + "the noise formula gives sigma = " + io::format_double(t.sigma) +
                                    ", not positive: the likelihood is not defined");
  else if (ob.transformation != Transformation::lin && !(t.h > 0.0))
    row_warning(r, rows_warned, at + "the simulation is " + io::format_double(t.h) +
                                    " and the observable is log-transformed: the likelihood is "
                                    "not defined");
  else if (!std::isfinite(t.nllh) || !std::isfinite(t.residual))
    row_warning(r, rows_warned,
                at + "the term of the likelihood is " + io::format_double(t.nllh) +
                    " (measurement " + io::format_double(m.value) + ", simulation " +
                    io::format_double(t.h) + ", sigma " + io::format_double(t.sigma) +
                    "): the likelihood is not finite");
}

// A finite term whose derivative in an estimated parameter is not (sqrt(B)
// at B = 0 in the observable or noise formula, or an S that is not): the
// gradient, FIM and residual Jacobian it enters are not finite either.
void warn_nonfinite_derivative(const Measurement& m, const Term& t, const Derivatives& d,
                               PetabResult& r, std::size_t& rows_warned) {
  // An infinite entry names the parameter better than a NaN (0 * inf) does.
  std::size_t first = d.h.size();
  for (std::size_t i = 0; i < d.h.size(); ++i) {
    if (std::isinf(d.h[i]) || std::isinf(d.sigma[i])) {
      first = i;
      break;
    }
    if (first == d.h.size() && (std::isnan(d.h[i]) || std::isnan(d.sigma[i]))) first = i;
  }
  if (first == d.h.size()) return;
  const bool in_h = !std::isfinite(d.h[first]);
  row_warning(r, rows_warned,
              m.place.text() + ": the derivative of the " +
                  (in_h ? "simulation (" + io::format_double(t.h) + ")"
                        : "noise (sigma " + io::format_double(t.sigma) + ")") +
                  " in '" + r.parameter_ids[first] +
                  "' is not finite there: the gradient, the FIM and the residuals' Jacobian "
                  "are not finite");
}

// The adjoint's gradient in the model parameters, mapped to the estimated
// ones through the simulation condition's settings (the parameters f does
// not depend on come per measurement).
void add_model_gradient(const Definition& def, const Experiment& e,
                        const std::vector<double>& gradient, const Chain& chain, PetabResult& r) {
  const Condition& sim = def.conditions[e.simulation];
  for (std::size_t j = 0; j < gradient.size(); ++j) {
    const int theta = sim.params[j].theta;
    if (theta < 0) continue;
    const int i = chain.estimated_index[static_cast<std::size_t>(theta)];
    if (i >= 0) r.gradient[static_cast<std::size_t>(i)] += gradient[j] * chain.dp_dx[static_cast<std::size_t>(i)];
  }
}

}  // namespace

Term measurement_term(const Observable& ob, double y, double h, double sigma) {
  Term t;
  t.h = h;
  t.sigma = sigma;
  const double hs = transform(h, ob.transformation), ys = transform(y, ob.transformation);
  t.residual = (ys - hs) / sigma;
  const bool normal = ob.distribution == NoiseDistribution::normal;
  const double res = t.residual;
  t.nllh = (normal ? 0.5 * (kLog2Pi + 2.0 * std::log(sigma)) + 0.5 * res * res
                   : std::log(2.0 * sigma) + std::abs(res)) +
           jacobian_term(y, ob.transformation);
  const double sign = res > 0 ? 1.0 : res < 0 ? -1.0 : 0.0;
  t.by_h = (normal ? -res / sigma : -sign / sigma) * transform_derivative(h, ob.transformation);
  t.by_sigma = normal ? (1.0 - res * res) / sigma : (1.0 - std::abs(res)) / sigma;
  // Where sigma is not positive the likelihood is not defined, and neither
  // are its derivatives (those of the formula above would be finite).
  if (!(sigma > 0.0)) t.by_h = t.by_sigma = NAN;
  return t;
}

const double* RowParams::of(const Measurement& m) {
  if (last_)
    for (const auto& [param, setting] : last_->placeholders) p_[param] = condition_[param];
  for (const auto& [param, setting] : m.placeholders)
    p_[param] = setting.theta >= 0 ? theta_[static_cast<std::size_t>(setting.theta)] : setting.number;
  last_ = &m;
  return p_.data();
}

const double* measurement_states(const Definition& def, const ExperimentSolution& sol,
                                 const Measurement& m, const double** S) {
  *S = nullptr;
  if (std::isinf(m.time)) {
    if (!sol.S_steady.empty()) *S = sol.S_steady.data();
    return sol.x_steady.data();
  }
  const std::size_t nx = def.model->nx();
  const auto k = static_cast<std::size_t>(
      std::lower_bound(sol.times.begin(), sol.times.end(), m.time) - sol.times.begin());
  if (!sol.S.empty()) *S = sol.S.data() + k * nx * def.n_sbml_params;
  return sol.x.data() + k * nx;
}

Chain make_chain(const Definition& def, const std::vector<double>& x) {
  Chain c;
  c.estimated_index.assign(def.tables.parameters.size(), -1);
  for (std::size_t i = 0; i < def.estimated.size(); ++i) {
    c.estimated_index[def.estimated[i]] = static_cast<int>(i);
    c.dp_dx.push_back(unscale_derivative(x[i], def.tables.parameters[def.estimated[i]].scale));
  }
  return c;
}

void add_measurements(const Definition& def, const Experiment& e, const ExperimentSolution& sol,
                      const std::vector<double>& theta, const Chain& chain,
                      const LeastSquaresLayout* layout, PetabResult& r) {
  const ExprModel& model = *def.model;
  const std::size_t nx = model.nx(), np = model.np();
  const bool adjoint = !sol.model_gradient.empty();
  const bool derivatives = !r.gradient.empty() || !r.fim.empty() || !r.residual_jacobian.empty();
  if (adjoint && !r.gradient.empty()) add_model_gradient(def, e, sol.model_gradient, chain, r);
  std::vector<double> outputs(model.n_outputs()), g_x(2 * nx), g_p(2 * np);
  const std::unique_ptr<Workspace> ws = model.make_workspace();
  RowParams row_params(sol.params, theta);
  Derivatives d{std::vector<double>(chain.dp_dx.size()), std::vector<double>(chain.dp_dx.size())};
  std::size_t rows_warned = 0;
  for (std::size_t mi : e.measurements) {
    const Measurement& m = def.measurements[mi];
    const Observable& ob = def.observables[m.observable];
    const double* S = nullptr;
    const double* x = measurement_states(def, sol, m, &S);
    const double* p = row_params.of(m);
    model.outputs(m.time, x, p, outputs.data(), ws.get());
    const Term t = measurement_term(ob, m.value, outputs[ob.output], outputs[ob.sigma_output]);
    r.simulations[mi] = t.h;
    r.sigmas[mi] = t.sigma;
    r.residuals[mi] = t.residual;
    r.chi2 += t.residual * t.residual;
    r.nllh += t.nllh;
    warn_undefined(m, ob, t, r, rows_warned);
    static const std::vector<double> none;
    if (!derivatives) {
      if (layout) add_measurement_rows(*layout, mi, m, t, none, none, r);
      continue;
    }
    const std::size_t which[2] = {ob.output, ob.sigma_output};
    model.output_gradients(m.time, x, p, 2, which, g_x.data(), g_p.data(), ws.get());
    total_derivatives(def, e, m, S, adjoint, g_x.data(), g_p.data(), chain, d);
    for (std::size_t i = 0; i < r.gradient.size(); ++i)
      r.gradient[i] += t.by_h * d.h[i] + t.by_sigma * d.sigma[i];
    // On the transformed scale: d hs = transform'(h) dh.
    const double dhs = transform_derivative(t.h, ob.transformation);
    for (double& v : d.h) v *= dhs;
    if (std::isfinite(t.nllh)) warn_nonfinite_derivative(m, t, d, r, rows_warned);
    if (layout) add_measurement_rows(*layout, mi, m, t, d.h, d.sigma, r);
    if (!r.fim.empty() && !(t.sigma > 0.0)) {
      std::fill(r.fim.begin(), r.fim.end(), NAN);  // of a likelihood not defined
    } else if (!r.fim.empty()) {
      add_outer(r.fim, d.h, 1.0 / (t.sigma * t.sigma));
      add_outer(r.fim, d.sigma,
                (ob.distribution == NoiseDistribution::normal ? 2.0 : 1.0) / (t.sigma * t.sigma));
    }
  }
}

}  // namespace odesens::petab
