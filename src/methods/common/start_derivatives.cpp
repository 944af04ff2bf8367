#include "methods/common/start_derivatives.hpp"

#include <cmath>
#include <optional>
#include <string>

#include "core/number_text.hpp"
#include "odesens/sparsity.hpp"
#include "odesens/status.hpp"

namespace odesens::methods {
namespace {

struct Entry {
  std::size_t row = 0, col = 0;
  double value = 0.0;
};

// The first non-finite value in the columns `used` of a Jacobian given by
// its pattern's values (or dense, rows x used.size(), column-major, without
// a pattern).
std::optional<Entry> first_not_finite(const SparsityPattern* pattern, std::size_t rows,
                                      const std::vector<char>& used,
                                      const std::vector<double>& values) {
  for (std::size_t c = 0; c < used.size(); ++c) {
    if (!used[c]) continue;
    const auto begin = pattern ? static_cast<std::size_t>(pattern->col_ptr[c]) : c * rows;
    const auto end = pattern ? static_cast<std::size_t>(pattern->col_ptr[c + 1]) : begin + rows;
    for (std::size_t k = begin; k < end; ++k)
      if (!std::isfinite(values[k]))
        return Entry{pattern ? static_cast<std::size_t>(pattern->row_idx[k]) : k - begin, c,
                     values[k]};
  }
  return std::nullopt;
}

[[noreturn]] void fail(const char* what, const std::string& entry, double t0, double value) {
  throw Error(Status::not_finite,
              std::string(what) + ": " + entry + " is " + number_text(value) + " at t0 = " +
                  number_text(t0) +
                  ", so S is infinite or undefined from the start; differences of perturbed "
                  "trajectories would give a finite number that means nothing (a power x^n with "
                  "n < 1 at x = 0, sqrt(p) at p = 0: move the parameter or state off that point)");
}

}  // namespace

void require_finite_start_derivatives(const Model& model, double t0, const std::vector<double>& x0,
                                      const std::vector<double>& p, const double* directions,
                                      std::size_t ns, const char* what, Workspace* ws) {
  if (!model.has_analytic_jacobians() || ns == 0) return;
  const std::size_t nx = model.nx(), np = model.np();
  // The states and parameters some direction moves at t0.
  std::vector<char> moved_x(nx, 0), moved_p(np, 0);
  for (std::size_t j = 0; j < ns; ++j) {
    const double* r = directions + j * (nx + np);
    for (std::size_t c = 0; c < nx; ++c) moved_x[c] = moved_x[c] || r[c] != 0.0;
    for (std::size_t k = 0; k < np; ++k) moved_p[k] = moved_p[k] || r[nx + k] != 0.0;
  }
  const auto& states = model.state_names();
  const SparsityPattern* jx = model.jac_x_pattern();
  std::vector<double> values(jx ? jx->nnz() : nx * nx);
  model.jac_x_values(t0, x0.data(), p.data(), values.data(), ws);
  if (const auto e = first_not_finite(jx, nx, moved_x, values))
    fail(what, "df/dx of state '" + states[e->row] + "' in state '" + states[e->col] + "'", t0,
         e->value);
  if (np == 0) return;
  const SparsityPattern* jp = model.jac_p_pattern();
  values.assign(jp ? jp->nnz() : nx * np, 0.0);
  model.jac_p_values(t0, x0.data(), p.data(), values.data(), ws);
  if (const auto e = first_not_finite(jp, nx, moved_p, values))
    fail(what,
         "df/dp of state '" + states[e->row] + "' in parameter '" + model.param_names()[e->col] +
             "'",
         t0, e->value);
}

}  // namespace odesens::methods
