#include "methods/bounds/bounding_tapes.hpp"

#include "expr/derivatives.hpp"
#include "expr/differentiate.hpp"

namespace odesens::bounds {
namespace {

using expr::Graph;
using expr::NodeId;
using expr::Tape;
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

// d phi / dx of outputs on the states [x; own]: nx x nx, column-major.
std::vector<NodeId> disturbance_jacobian(Graph& g, const std::vector<NodeId>& phi, std::size_t nx) {
  expr::GradientWorkspace ws;
  std::vector<NodeId> out(phi.size() * nx, g.constant(0.0));
  for (std::size_t i = 0; i < phi.size(); ++i)
    for (const expr::Partial& part : expr::gradient(g, phi[i], ws))
      if (part.leaf == expr::Op::state && static_cast<std::size_t>(part.index) < nx)
        out[i + static_cast<std::size_t>(part.index) * phi.size()] = part.derivative;
  return out;
}

// psi = J_x^T lambda and theta = J_p^T lambda, lambda the states nx .. 2 nx - 1.
void add_adjoint_tapes(Graph& g, const std::vector<NodeId>& jx, const std::vector<NodeId>& jp,
                       const TapeSelection& which, BoundingTapes& t) {
  const std::size_t nx = t.nx, np = t.np;
  auto values = [&](const std::vector<NodeId>& roots) {
    return expr::compile_tape(g, roots, 2 * nx, np, TapeKind::values);
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
  if (which.jacobians) {
    // Second derivatives of f, each nonzero once (i <= l; H is symmetric
    // in i, l): the state's Hessian models give every d psi / dx.
    expr::GradientWorkspace ws;
    std::vector<NodeId> roots;
    for (std::size_t k = 0; k < nx; ++k)
      for (std::size_t i = 0; i < nx; ++i) {
        const NodeId jki = jx[k + i * nx];
        if (g.is_constant(jki, 0.0)) continue;
        for (const expr::Partial& part : expr::gradient(g, jki, ws)) {
          if (part.leaf != expr::Op::state) continue;
          const auto l = static_cast<std::size_t>(part.index);
          if (l >= nx || l < i || g.is_constant(part.derivative, 0.0)) continue;
          t.hess_entries.push_back({static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i),
                                    static_cast<std::uint32_t>(l)});
          roots.push_back(part.derivative);
        }
      }
    t.hess_x = expr::compile_tape(g, roots, nx, np, TapeKind::values);
  }
  t.gradient_integrand = values(theta);
}

}  // namespace

SystemTapes BoundingTapes::state() const {
  return SystemTapes{&f, &f_each, nullptr, nullptr, &quadrature, false};
}

SystemTapes BoundingTapes::sensitivity(std::size_t j) const {
  return SystemTapes{&sens[j], sens_each.empty() ? nullptr : &sens_each[j],
                     sens_jac_x.empty() ? nullptr : &sens_jac_x[j], nullptr, &quadrature, false};
}

SystemTapes BoundingTapes::adjoint() const {
  return SystemTapes{&adj, &adj_each, nullptr, &hess_entries, &adj_quadrature, true};
}

BoundingTapes build_bounding_tapes(const expr::SymbolicModel& model, const TapeSelection& which) {
  expr::SymbolicModel m = model;  // the derivatives grow the graph
  Graph& g = m.graph;
  BoundingTapes t;
  t.nx = m.state_names.size();
  t.np = m.param_names.size();
  const std::size_t nx = t.nx, np = t.np;
  const expr::FirstDerivatives d = expr::first_derivatives(m);
  auto values = [&](const std::vector<NodeId>& roots, std::size_t n_states) {
    return expr::compile_tape(g, roots, n_states, np, TapeKind::values);
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
  if (which.jacobians) t.jac_x = values(jx, nx);
  if (which.adjoint) add_adjoint_tapes(g, jx, dense(g, d.jac_p), which, t);
  if (!which.sensitivities) return t;

  // phi_j = J_x s_j + J_p e_j, with s_j the states nx .. 2 nx - 1.
  const std::vector<NodeId> jp = dense(g, d.jac_p);
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
      std::vector<Tape> each;
      for (std::size_t i = 0; i < nx; ++i) each.push_back(values({phi[i]}, 2 * nx));
      t.sens_each.push_back(std::move(each));
    }
    if (which.jacobians) t.sens_jac_x.push_back(values(disturbance_jacobian(g, phi, nx), 2 * nx));
  }
  return t;
}

}  // namespace odesens::bounds
