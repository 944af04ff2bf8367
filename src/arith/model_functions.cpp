#include "arith/model_functions.hpp"

#include "expr/derivatives.hpp"
#include "expr/differentiate.hpp"
#include "expr/model_expressions.hpp"
#include "expr/tape.hpp"
#include "odesens/status.hpp"

namespace odesens::arith {
namespace {

using expr::Graph;
using expr::NodeId;
using expr::TapeKind;

// Dense column-major nodes (zero constants off the pattern).
std::vector<NodeId> dense(Graph& g, const expr::SparseNodes& m) {
  std::vector<NodeId> out(m.pattern.rows * m.pattern.cols, g.constant(0.0));
  for (std::size_t j = 0; j < m.pattern.cols; ++j)
    for (auto q = m.pattern.col_ptr[j]; q < m.pattern.col_ptr[j + 1]; ++q)
      out[static_cast<std::size_t>(m.pattern.row_idx[q]) + j * m.pattern.rows] = m.values[q];
  return out;
}

// Which states the roots read, through any operation.
std::vector<bool> states_read(const Graph& g, const std::vector<NodeId>& roots, std::size_t nx) {
  std::vector<bool> read(nx, false), seen(g.size(), false);
  std::vector<NodeId> stack(roots.begin(), roots.end());
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    if (id == expr::kNoNode || seen[id]) continue;
    seen[id] = true;
    const expr::Node& n = g.node(id);
    if (n.op == expr::Op::state) {
      if (static_cast<std::size_t>(n.index) < nx) read[static_cast<std::size_t>(n.index)] = true;
      continue;
    }
    stack.push_back(n.a);
    stack.push_back(n.b);
    stack.push_back(n.c);
  }
  return read;
}

// The nonzero derivatives in x of each entry of the nx-row matrix M
// (column-major, `cols` columns): (row, column, l) with l >= column when
// `symmetric` (M = J_x, whose derivatives form the symmetric Hessian).
void add_x_derivatives(Graph& g, const std::vector<NodeId>& M, std::size_t nx, std::size_t cols,
                       bool symmetric, std::vector<HessianEntry>& entries,
                       std::vector<NodeId>& roots) {
  expr::GradientWorkspace ws;
  for (std::size_t k = 0; k < nx; ++k)
    for (std::size_t c = 0; c < cols; ++c) {
      const NodeId m = M[k + c * nx];
      if (g.is_constant(m, 0.0)) continue;
      for (const expr::Partial& part : expr::gradient(g, m, ws)) {
        if (part.leaf != expr::Op::state) continue;
        const auto l = static_cast<std::size_t>(part.index);
        if (l >= nx || (symmetric && l < c) || g.is_constant(part.derivative, 0.0)) continue;
        entries.push_back({static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(c),
                           static_cast<std::uint32_t>(l)});
        roots.push_back(part.derivative);
      }
    }
}

// The second derivatives the driven systems' ellipsoids need: the Hessian
// of f in x, and d J_p / dx for the sensitivities.
void add_second_derivatives(Graph& g, const std::vector<NodeId>& jx,
                            const std::vector<NodeId>& jp, bool mixed, BoundingFunctions& t) {
  std::vector<NodeId> roots;
  add_x_derivatives(g, jx, t.nx, t.nx, true, t.hess_entries, roots);
  if (mixed) add_x_derivatives(g, jp, t.nx, t.np, false, t.mixed_entries, roots);
  t.hess_x = Function(expr::compile_tape(g, roots, t.nx, t.np, TapeKind::values));
}

// psi = J_x^T lambda and theta = J_p^T lambda, lambda the states nx .. 2 nx - 1.
void add_adjoint_tapes(Graph& g, const std::vector<NodeId>& jx, const std::vector<NodeId>& jp,
                       const FunctionSelection& which, BoundingFunctions& t) {
  const std::size_t nx = t.nx, np = t.np;
  auto values = [&](const std::vector<NodeId>& roots) {
    return Function(expr::compile_tape(g, roots, 2 * nx, np, TapeKind::values));
  };
  // Column c of M^T lambda for an nx-row matrix M (column-major).
  auto transposed_times_lambda = [&](const std::vector<NodeId>& M, std::size_t c) {
    NodeId sum = g.constant(0.0);
    for (std::size_t k = 0; k < nx; ++k) {
      const NodeId m = M[k + c * nx];
      if (!g.is_constant(m, 0.0)) sum = g.add(sum, g.mul(m, g.state(static_cast<int>(nx + k))));
    }
    return sum;
  };
  std::vector<NodeId> psi(nx), theta(np);
  for (std::size_t i = 0; i < nx; ++i) psi[i] = transposed_times_lambda(jx, i);
  for (std::size_t j = 0; j < np; ++j) theta[j] = transposed_times_lambda(jp, j);
  t.adj = values(psi);
  const std::vector<bool> read = states_read(g, psi, 2 * nx);
  t.adj_quadrature.resize(nx);
  for (std::size_t i = 0; i < nx; ++i) t.adj_quadrature[i] = !read[nx + i];
  if (which.each_output)
    for (std::size_t i = 0; i < nx; ++i) t.adj_each.push_back(values({psi[i]}));
  t.gradient_integrand = values(theta);
}

}  // namespace

SystemFunctions BoundingFunctions::state() const {
  SystemFunctions s;
  s.rhs = &f;
  s.rhs_each = &f_each;
  s.quadrature = &quadrature;
  return s;
}

SystemFunctions BoundingFunctions::sensitivity(std::size_t j) const {
  SystemFunctions s;
  s.rhs = &sens[j];
  s.rhs_each = sens_each.empty() ? nullptr : &sens_each[j];
  s.hessian = &hess_entries;
  s.mixed = &mixed_entries;
  s.parameter = j;
  s.quadrature = &quadrature;
  return s;
}

SystemFunctions BoundingFunctions::adjoint() const {
  SystemFunctions s;
  s.rhs = &adj;
  s.rhs_each = &adj_each;
  s.hessian = &hess_entries;
  s.quadrature = &adj_quadrature;
  s.transposed_jacobian = true;
  return s;
}

bool has_expressions(const Model& model) { return expr::symbolic_model_of(model) != nullptr; }

BoundingFunctions build_bounding_functions(const Model& model, const FunctionSelection& which) {
  const expr::SymbolicModel* sym = expr::symbolic_model_of(model);
  if (!sym)
    throw Error(Status::unsupported,
                "model " + model.name() + " has no expressions to evaluate over a parameter box");
  expr::SymbolicModel m = *sym;  // the derivatives grow the graph
  Graph& g = m.graph;
  BoundingFunctions t;
  t.nx = m.state_names.size();
  t.np = m.param_names.size();
  const std::size_t nx = t.nx, np = t.np;
  const expr::FirstDerivatives d = expr::first_derivatives(m);
  auto values = [&](const std::vector<NodeId>& roots, std::size_t n_states) {
    return Function(expr::compile_tape(g, roots, n_states, np, TapeKind::values));
  };

  t.x0 = values(m.x0, nx);
  t.dx0_dp = values(dense(g, d.dx0_dp), nx);
  t.f = values(m.rhs, nx);
  const std::vector<bool> read = states_read(g, m.rhs, nx);
  t.quadrature.resize(nx);
  for (std::size_t i = 0; i < nx; ++i) t.quadrature[i] = !read[i];
  if (which.each_output)
    for (std::size_t i = 0; i < nx; ++i) t.f_each.push_back(values({m.rhs[i]}, nx));
  const std::vector<NodeId> jx = dense(g, d.jac_x);
  const std::vector<NodeId> jp = dense(g, d.jac_p);
  if (which.jacobians) t.jac_x = values(jx, nx);
  if (which.jacobians && (which.adjoint || which.sensitivities))
    add_second_derivatives(g, jx, jp, which.sensitivities, t);
  if (which.adjoint) add_adjoint_tapes(g, jx, jp, which, t);
  if (!which.sensitivities) return t;

  // phi_j = J_x s_j + J_p e_j, with s_j the states nx .. 2 nx - 1.
  for (std::size_t j = 0; j < np; ++j) {
    std::vector<NodeId> phi(nx);
    for (std::size_t i = 0; i < nx; ++i) {
      NodeId sum = jp[i + j * nx];
      for (std::size_t k = 0; k < nx; ++k) {
        const NodeId jik = jx[i + k * nx];
        if (g.is_constant(jik, 0.0)) continue;
        sum = g.add(sum, g.mul(jik, g.state(static_cast<int>(nx + k))));
      }
      phi[i] = sum;
    }
    t.sens.push_back(values(phi, 2 * nx));
    if (which.each_output) {
      std::vector<Function> each;
      for (std::size_t i = 0; i < nx; ++i) each.push_back(values({phi[i]}, 2 * nx));
      t.sens_each.push_back(std::move(each));
    }
  }
  return t;
}

}  // namespace odesens::arith
