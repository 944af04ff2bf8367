// The inner parameters of a hierarchical evaluation (inner_parameters.hpp).
#include "estimate/inner_parameters.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "core/number_text.hpp"
#include "estimate/petab_likelihood.hpp"
#include "estimate/petab_objective.hpp"
#include "expr/affine.hpp"
#include "expr/expr_model_impl.hpp"
#include "odesens/status.hpp"

namespace odesens::petab {
namespace {

bool contains(const std::vector<int>& v, int j) {
  return std::find(v.begin(), v.end(), j) != v.end();
}

// Some condition sets parameter-table row `row` in the dynamics (the first
// n_sbml_params model parameters): the simulations depend on it.
bool sets_dynamics(const Definition& def, std::size_t row) {
  for (const Condition& c : def.conditions)
    for (std::size_t j = 0; j < def.n_sbml_params && j < c.params.size(); ++j)
      if (c.params[j].theta == static_cast<int>(row)) return true;
  return false;
}

// The model parameters that measurement m sets to row `row`: observable
// and noise parameters named in the formulas, through its simulation
// condition, or its placeholders.
std::vector<int> params_set_to(const Definition& def, const Measurement& m, std::size_t row) {
  std::vector<int> out;
  const Condition& c = def.conditions[def.experiments[m.experiment].simulation];
  for (std::size_t j = def.n_sbml_params; j < c.params.size(); ++j) {
    if (c.params[j].theta != static_cast<int>(row)) continue;
    const bool overridden = std::any_of(m.placeholders.begin(), m.placeholders.end(),
                                        [&](const auto& ph) { return ph.first == j; });
    if (!overridden) out.push_back(static_cast<int>(j));
  }
  for (const auto& [j, setting] : m.placeholders)
    if (setting.theta == static_cast<int>(row)) out.push_back(static_cast<int>(j));
  return out;
}

// The parameter (model parameters P of measurement m) is in m's formulas:
// the parameter table's parameters are model parameters of every row,
// whether its observable uses them or not.
bool enters(const Definition& def, const expr::SymbolicModel& sym, const Measurement& m,
            const std::vector<int>& P) {
  const Observable& ob = def.observables[m.observable];
  return expr::depends_on_params(sym.graph, sym.outputs[ob.output], P) ||
         expr::depends_on_params(sym.graph, sym.outputs[ob.sigma_output], P);
}

// How the parameter (model parameters P of measurement m) enters m's
// formulas, where it enters them in a way with a closed-form optimum.
std::optional<InnerParameter::Kind> kind_in(const Definition& def, const expr::SymbolicModel& sym,
                                            const Measurement& m, const std::vector<int>& P) {
  const Observable& ob = def.observables[m.observable];
  const expr::NodeId out = sym.outputs[ob.output], sig = sym.outputs[ob.sigma_output];
  const expr::Node& s = sym.graph.node(sig);
  if (s.op == expr::Op::param && contains(P, s.index) &&
      !expr::depends_on_params(sym.graph, out, P))
    return InnerParameter::Kind::sigma;
  if (ob.distribution != NoiseDistribution::normal || expr::depends_on_params(sym.graph, sig, P))
    return std::nullopt;
  if (ob.transformation == Transformation::lin && expr::is_affine_in(sym.graph, out, P))
    return InnerParameter::Kind::affine;
  if (ob.transformation != Transformation::lin && expr::is_linear_in(sym.graph, out, P))
    return InnerParameter::Kind::scaling;
  return std::nullopt;
}

// Estimated parameter i as an inner parameter, if it is one by its own rows.
std::optional<InnerParameter> candidate(const Definition& def, const expr::SymbolicModel& sym,
                                        std::size_t i) {
  const std::size_t row = def.estimated[i];
  if (def.tables.parameters[row].prior.type != PriorType::none || sets_dynamics(def, row))
    return std::nullopt;
  InnerParameter p;
  p.estimated = i;
  std::optional<InnerParameter::Kind> kind;
  for (const Experiment& e : def.experiments)  // rows grouped by experiment
    for (std::size_t mi : e.measurements) {
      std::vector<int> P = params_set_to(def, def.measurements[mi], row);
      if (P.empty() || !enters(def, sym, def.measurements[mi], P)) continue;
      const auto k = kind_in(def, sym, def.measurements[mi], P);
      if (!k || (kind && *kind != *k)) return std::nullopt;
      kind = k;
      p.measurements.push_back(mi);
      p.params.push_back(std::move(P));
    }
  if (!kind) return std::nullopt;
  p.kind = *kind;
  // One closed form for all the rows: one noise distribution (a sigma's)
  // and one transformation (a scaling's logarithm).
  const Observable& first = def.observables[def.measurements[p.measurements.front()].observable];
  for (std::size_t mi : p.measurements) {
    const Observable& ob = def.observables[def.measurements[mi].observable];
    if (ob.distribution != first.distribution ||
        (p.kind == InnerParameter::Kind::scaling && ob.transformation != first.transformation))
      return std::nullopt;
  }
  return p;
}

// An affine parameter's optimum does not depend on sigma where its rows'
// noise comes from no sigma inner parameter, or all from the same one
// (a common factor of the weights).
bool noise_independent(const InnerParameter& a, const std::vector<int>& sigma_of) {
  int first = -2;
  for (std::size_t mi : a.measurements) {
    if (first == -2) first = sigma_of[mi];
    if (sigma_of[mi] != first) return false;
  }
  return true;
}

}  // namespace

std::vector<InnerParameter> find_inner_parameters(const Definition& def) {
  const expr::SymbolicModel& sym = expr_model_internals(*def.model).sym;
  std::vector<InnerParameter> affine, sigma;
  for (std::size_t i = 0; i < def.estimated.size(); ++i)
    if (auto p = candidate(def, sym, i))
      (p->kind == InnerParameter::Kind::sigma ? sigma : affine).push_back(std::move(*p));
  std::vector<int> sigma_of(def.measurements.size(), -1);
  for (std::size_t k = 0; k < sigma.size(); ++k)
    for (std::size_t mi : sigma[k].measurements) sigma_of[mi] = static_cast<int>(k);
  // Two affine (or scaling) parameters in one row would make a joint
  // problem: the first is inner, the second stays outer.
  std::vector<char> taken(def.measurements.size(), 0);
  std::vector<InnerParameter> inner;
  for (InnerParameter& a : affine) {
    const bool shared = std::any_of(a.measurements.begin(), a.measurements.end(),
                                    [&](std::size_t mi) { return taken[mi] != 0; });
    if (shared || !noise_independent(a, sigma_of)) continue;
    for (std::size_t mi : a.measurements) taken[mi] = 1;
    inner.push_back(std::move(a));
  }
  for (InnerParameter& s : sigma) inner.push_back(std::move(s));
  return inner;
}

namespace {

// Passes over an inner parameter's rows with the values of theta: each
// row's simulation h, sigma and dh/ds (s: the parameter). The workspace
// and buffers are set up once per evaluation, for every inner parameter.
struct Row {
  const Measurement* m;
  double h, sigma, slope;
};

class RowPasses {
 public:
  RowPasses(const Definition& def, const std::vector<ExperimentSolution>& solutions,
            const std::vector<double>& theta)
      : def_(def), solutions_(solutions), theta_(theta), ws_(def.model->make_workspace()),
        outputs_(def.model->n_outputs()), g_x_(def.model->nx()), g_p_(def.model->np()) {}

  const Definition& def() const { return def_; }
  double value(const InnerParameter& p) const { return theta_[def_.estimated[p.estimated]]; }

  template <class Visit>
  void visit(const InnerParameter& inner, bool slopes, Visit&& visit) {
    const ExprModel& model = *def_.model;
    std::size_t k = 0;
    while (k < inner.measurements.size()) {
      const std::size_t experiment = def_.measurements[inner.measurements[k]].experiment;
      const ExperimentSolution& sol = solutions_[experiment];
      RowParams row_params(sol.params, theta_);
      for (; k < inner.measurements.size() &&
             def_.measurements[inner.measurements[k]].experiment == experiment;
           ++k) {
        const Measurement& m = def_.measurements[inner.measurements[k]];
        const Observable& ob = def_.observables[m.observable];
        const double* S = nullptr;
        const double* x = measurement_states(def_, sol, m, &S);
        const double* p = row_params.of(m);
        model.outputs(m.time, x, p, outputs_.data(), ws_.get());
        double slope = 0.0;
        if (slopes) {
          model.output_gradients(m.time, x, p, 1, &ob.output, g_x_.data(), g_p_.data(),
                                 ws_.get());
          for (int j : inner.params[k]) slope += g_p_[static_cast<std::size_t>(j)];
        }
        visit(Row{&m, outputs_[ob.output], outputs_[ob.sigma_output], slope});
      }
    }
  }

 private:
  const Definition& def_;
  const std::vector<ExperimentSolution>& solutions_;
  const std::vector<double>& theta_;
  std::unique_ptr<Workspace> ws_;
  std::vector<double> outputs_, g_x_, g_p_;
};

// The weighted least-squares optimum of s in sum ((y - h(s)) / sigma)^2
// with h affine in s: h(s) = h + slope (s - s0), s0 its value now.
double affine_optimum(RowPasses& rows, const InnerParameter& inner) {
  const double s0 = rows.value(inner);
  double num = 0.0, den = 0.0;
  rows.visit(inner, true, [&](const Row& r) {
    const double w = 1.0 / (r.sigma * r.sigma);
    num += w * r.slope * (r.m->value - r.h + r.slope * s0);
    den += w * r.slope * r.slope;
  });
  return den > 0.0 ? num / den : std::numeric_limits<double>::quiet_NaN();
}

// The optimum of a scaling s on a log scale: with h = b s, transform(h) =
// transform(b) + transform(s), so transform(s) is the weighted mean of
// transform(y) - transform(b). Not defined where some b <= 0.
double scaling_optimum(RowPasses& rows, const InnerParameter& inner) {
  double num = 0.0, den = 0.0;
  bool positive = true;
  Transformation t = Transformation::log;
  rows.visit(inner, true, [&](const Row& r) {
    const Observable& ob = rows.def().observables[r.m->observable];
    t = ob.transformation;
    positive = positive && r.slope > 0.0;
    // measurement_term(...).residual with sigma 1: transform(y) - transform(b).
    const double d = measurement_term(ob, r.m->value, r.slope, 1.0).residual;
    const double w = 1.0 / (r.sigma * r.sigma);
    num += w * d;
    den += w;
  });
  if (!positive || !(den > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  const double mean = num / den;
  return t == Transformation::log10 ? std::pow(10.0, mean) : std::exp(mean);
}

// The optimum of sigma: the root mean square (normal) or the mean absolute
// (Laplace) difference of measurement and simulation on the transformed
// scale.
double sigma_optimum(RowPasses& rows, const InnerParameter& inner) {
  double sum = 0.0;
  bool normal = true;
  rows.visit(inner, false, [&](const Row& r) {
    const Observable& ob = rows.def().observables[r.m->observable];
    normal = ob.distribution == NoiseDistribution::normal;
    const double d = measurement_term(ob, r.m->value, r.h, 1.0).residual;
    sum += normal ? d * d : std::abs(d);
  });
  const double mean = sum / static_cast<double>(inner.measurements.size());
  return normal ? std::sqrt(mean) : mean;
}

// theta's row and the conditions' values of it in the solutions.
void set_value(const Definition& def, std::size_t row, double value,
               std::vector<ExperimentSolution>& solutions, std::vector<double>& theta) {
  theta[row] = value;
  for (std::size_t k = 0; k < def.experiments.size(); ++k) {
    const Condition& c = def.conditions[def.experiments[k].simulation];
    for (std::size_t j = 0; j < c.params.size(); ++j)
      if (c.params[j].theta == static_cast<int>(row)) solutions[k].params[j] = value;
  }
}

// Every residual of a noise parameter's rows 0 and its lower bound 0 or
// below: nllh falls without bound as sigma -> 0, there is no optimum (or
// the upper bound leaves no positive value).
[[noreturn]] void no_sigma_optimum(const ParameterRow& table, const InnerParameter& p,
                                   double optimum) {
  if (optimum > 0.0)  // the bounds hold it at 0 or below
    throw Error(Status::invalid_argument,
                "inner noise parameter '" + table.id + "': its upper bound " +
                    number_text(table.upper) + " leaves it no positive value");
  throw Error(Status::not_finite,
              "inner noise parameter '" + table.id + "': the simulations match its " +
                  std::to_string(p.measurements.size()) +
                  " measurements exactly (residuals 0), so nllh has no minimum in it: it falls "
                  "without bound as " + table.id + " -> 0, which its lower bound (" +
                  number_text(table.lower) + ") allows; give " + table.id +
                  " a positive lower bound, or evaluate without --hierarchical");
}

double optimum(RowPasses& rows, const InnerParameter& p) {
  switch (p.kind) {
    case InnerParameter::Kind::affine: return affine_optimum(rows, p);
    case InnerParameter::Kind::scaling: return scaling_optimum(rows, p);
    case InnerParameter::Kind::sigma: break;
  }
  return sigma_optimum(rows, p);
}

}  // namespace

void optimize_inner(const Definition& def, const std::vector<InnerParameter>& inner,
                    const std::vector<bool>& hold, std::vector<ExperimentSolution>& solutions,
                    std::vector<double>& theta, std::vector<double>& x) {
  RowPasses rows(def, solutions, theta);
  for (const InnerParameter& p : inner) {
    if (!hold.empty() && hold[p.estimated]) continue;
    const std::size_t row = def.estimated[p.estimated];
    const ParameterRow& table = def.tables.parameters[row];
    const double s = optimum(rows, p);
    if (!std::isfinite(s)) continue;
    // The objective is convex (affine: a quadratic) or unimodal (sigma) in
    // s: the optimum within the bounds is the nearer bound.
    const double bounded = std::min(std::max(s, table.lower), table.upper);
    if (p.kind == InnerParameter::Kind::sigma && !(bounded > 0.0)) no_sigma_optimum(table, p, s);
    x[p.estimated] = scale_value(bounded, table.scale);
    set_value(def, row, unscale(x[p.estimated], table.scale), solutions, theta);
  }
}

}  // namespace odesens::petab
