// The least-squares form of a PEtab objective (petab_least_squares.hpp).
#include "estimate/petab_least_squares.hpp"

#include <cmath>

#include "estimate/expression_reads.hpp"
#include "estimate/petab_objective.hpp"
#include "expr/expr_model_impl.hpp"
#include "io/format_double.hpp"
#include "odesens/status.hpp"

namespace odesens::petab {
namespace {

// What an output's expression reads: its model parameters and whether any
// state (found by walking the expression DAG from the output's node).
struct Reads {
  std::vector<std::size_t> params;
  bool state = false;
};

Reads output_reads(const ExprModel& model, std::size_t output) {
  const expr::SymbolicModel& sym = expr_model_internals(model).sym;
  Reads reads;
  visit_reached_nodes(sym, {sym.outputs[output]}, [&reads](const expr::Node& node) {
    if (node.op == expr::Op::param) reads.params.push_back(static_cast<std::size_t>(node.index));
    if (node.op == expr::Op::state) reads.state = true;
  });
  return reads;
}

// Whether measurement m's sigma moves with the estimated parameters: its
// noise formula reads a state, or a model parameter that the row's
// placeholders or its simulation condition set to an estimated one.
bool sigma_varies(const Definition& def, const Measurement& m, const Reads& reads,
                  const std::vector<bool>& estimated) {
  if (reads.state) return true;
  const Condition& condition = def.conditions[def.experiments[m.experiment].simulation];
  for (std::size_t j : reads.params) {
    int theta = condition.params[j].theta;
    for (const auto& [param, setting] : m.placeholders)
      if (param == j) theta = setting.theta;
    if (theta >= 0 && estimated[static_cast<std::size_t>(theta)]) return true;
  }
  return false;
}

}  // namespace

LeastSquaresLayout least_squares_layout(const Definition& def) {
  LeastSquaresLayout layout;
  std::vector<bool> estimated(def.tables.parameters.size(), false);
  for (std::size_t row : def.estimated) estimated[row] = true;
  std::vector<Reads> reads;
  for (const Observable& ob : def.observables) {
    reads.push_back(output_reads(*def.model, ob.sigma_output));
    if (ob.distribution == NoiseDistribution::laplace && layout.refusal.empty())
      layout.refusal = "observable '" + ob.id +
                       "' has Laplace noise, whose likelihood is no sum of squares";
  }
  std::size_t row = def.measurements.size();
  for (const Measurement& m : def.measurements)
    layout.sigma_row.push_back(sigma_varies(def, m, reads[m.observable], estimated)
                                   ? static_cast<int>(row++)
                                   : -1);
  for (std::size_t row_index : def.estimated)
    layout.prior_row.push_back(def.tables.parameters[row_index].prior.type != PriorType::none
                                   ? static_cast<int>(row++)
                                   : -1);
  layout.n_rows = row;
  return layout;
}

void add_measurement_rows(const LeastSquaresLayout& layout, std::size_t mi,
                          const Measurement& m, const Term& t, const std::vector<double>& dh,
                          const std::vector<double>& dsigma, PetabResult& r) {
  const std::size_t n = r.parameter_ids.size();
  const bool jacobian = !r.residual_jacobian.empty();
  // Also where sigma is a constant (no row of its own): its residual and
  // Jacobian row would be finite where the likelihood is not defined.
  if (!(t.sigma > 0.0) || !std::isfinite(t.sigma))
    throw Error(Status::not_finite, m.place.text() + ": sigma = " +
                                        io::format_double(t.sigma) +
                                        " is not a positive finite number");
  r.least_squares_residuals[mi] = t.residual;
  // r = (ys - hs)/sigma: dr = -(dhs + r dsigma)/sigma.
  if (jacobian)
    for (std::size_t i = 0; i < n; ++i)
      r.residual_jacobian[mi * n + i] = -(dh[i] + t.residual * dsigma[i]) / t.sigma;
  const int row = layout.sigma_row[mi];
  if (row < 0) return;
  const double argument = kLog2Pi + 2.0 * std::log(t.sigma) + kPetabResidualOffset;
  if (!(argument > 0.0))
    throw Error(Status::not_finite,
                m.place.text() + ": sigma = " + io::format_double(t.sigma) +
                    " is too small for the least-squares form (log(2 pi sigma^2) + " +
                    io::format_double(kPetabResidualOffset) + " <= 0, that is sigma < 5.5e-12)");
  const double s = std::sqrt(argument);
  const auto k = static_cast<std::size_t>(row);
  r.least_squares_residuals[k] = s;
  // ds = (2 dsigma / sigma) / (2 s).
  if (jacobian)
    for (std::size_t i = 0; i < n; ++i) r.residual_jacobian[k * n + i] = dsigma[i] / (t.sigma * s);
}

}  // namespace odesens::petab
