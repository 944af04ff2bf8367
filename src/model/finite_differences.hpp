// Central-difference approximations of the model's derivatives, the
// fallbacks for models that do not give them. Step rule: see
// odesens::finite_difference_step(). The shifted points and the two
// evaluations live in the workspace's fd_* scratch slots; the model's own
// rhs must therefore not use those slots.
#pragma once

#include <cstddef>
#include <vector>

#include "odesens/model.hpp"

namespace odesens::detail {

// J (nx x nx) = df/dx, one pair of rhs evaluations per column.
void fd_jac_x_dense(const Model& m, double t, const double* x, const double* p, double* J,
                    Workspace& ws);

// Columns of a pattern split into groups whose columns share no row, so one
// pair of rhs evaluations recovers every column of a group (Curtis-Powell-Reid).
std::vector<std::vector<std::size_t>> group_structurally_orthogonal_columns(
    const SparsityPattern& pattern);

// Values of df/dx in pattern order, one pair of rhs evaluations per group.
void fd_jac_x_grouped(const Model& m, const SparsityPattern& pattern,
                      const std::vector<std::vector<std::size_t>>& groups, double t,
                      const double* x, const double* p, double* values, Workspace& ws);

// Jp (nx x np) = df/dp.
void fd_jac_p(const Model& m, double t, const double* x, const double* p, double* Jp,
              Workspace& ws);

// df/dt (nx) at fixed x and p.
void fd_dfdt(const Model& m, double t, const double* x, const double* p, double* out,
             Workspace& ws);

// dx0/dp (nx x np) by central differences of initial_state.
void fd_initial_sensitivity(const Model& m, const double* p, double* dx0_dp, Workspace& ws);

}  // namespace odesens::detail
