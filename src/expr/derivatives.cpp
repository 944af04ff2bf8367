#include "expr/derivatives.hpp"

#include <algorithm>
#include <tuple>

#include "expr/differentiate.hpp"

namespace odesens::expr {
namespace {

struct Entry {
  std::size_t row, col;
  NodeId value;
};

SparseNodes to_csc(std::size_t rows, std::size_t cols, std::vector<Entry> entries) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.col, a.row) < std::tie(b.col, b.row);
  });
  SparseNodes s;
  s.pattern.rows = rows;
  s.pattern.cols = cols;
  s.pattern.col_ptr.assign(cols + 1, 0);
  for (const Entry& e : entries) {
    ++s.pattern.col_ptr[e.col + 1];
    s.pattern.row_idx.push_back(static_cast<std::int64_t>(e.row));
    s.values.push_back(e.value);
  }
  for (std::size_t j = 0; j < cols; ++j) s.pattern.col_ptr[j + 1] += s.pattern.col_ptr[j];
  return s;
}

// Gradients of every root, split by leaf kind into the state and parameter
// matrices (rows = roots) and the time derivatives.
void differentiate_rows(Graph& g, const std::vector<NodeId>& roots, std::size_t nx, std::size_t np,
                        SparseNodes* by_state, SparseNodes* by_param,
                        std::vector<NodeId>* by_time) {
  std::vector<Entry> xs, ps;
  if (by_time) by_time->assign(roots.size(), g.constant(0.0));
  GradientWorkspace workspace;
  for (std::size_t i = 0; i < roots.size(); ++i) {
    for (const Partial& d : gradient(g, roots[i], workspace)) {
      const auto k = static_cast<std::size_t>(d.index);
      if (d.leaf == Op::state) xs.push_back({i, k, d.derivative});
      if (d.leaf == Op::param) ps.push_back({i, k, d.derivative});
      if (d.leaf == Op::time && by_time) (*by_time)[i] = d.derivative;
    }
  }
  if (by_state) *by_state = to_csc(roots.size(), nx, std::move(xs));
  if (by_param) *by_param = to_csc(roots.size(), np, std::move(ps));
}

}  // namespace

FirstDerivatives first_derivatives(SymbolicModel& m) {
  const std::size_t nx = m.state_names.size(), np = m.param_names.size();
  FirstDerivatives d;
  differentiate_rows(m.graph, m.rhs, nx, np, &d.jac_x, &d.jac_p, &d.dfdt);
  differentiate_rows(m.graph, m.x0, nx, np, nullptr, &d.dx0_dp, nullptr);
  return d;
}

SecondDerivatives second_derivatives(SymbolicModel& m, const FirstDerivatives& d) {
  const std::size_t nx = m.state_names.size(), np = m.param_names.size();
  Graph& g = m.graph;
  // xddot_i = sum_j J_ij f_j + df_i/dt, summed row by row from the CSC entries.
  std::vector<NodeId> xddot = d.dfdt;
  const SparsityPattern& pat = d.jac_x.pattern;
  std::vector<std::vector<NodeId>> terms(nx);
  for (std::size_t j = 0; j < nx; ++j)
    for (auto q = pat.col_ptr[j]; q < pat.col_ptr[j + 1]; ++q)
      terms[static_cast<std::size_t>(pat.row_idx[q])].push_back(
          g.mul(d.jac_x.values[static_cast<std::size_t>(q)], m.rhs[j]));
  for (std::size_t i = 0; i < nx; ++i)
    for (NodeId term : terms[i]) xddot[i] = g.add(xddot[i], term);
  SecondDerivatives s;
  s.xddot = xddot;
  differentiate_rows(g, xddot, nx, np, &s.xddot_jac_x, &s.xddot_jac_p, &s.xddot_dt);
  return s;
}

}  // namespace odesens::expr
