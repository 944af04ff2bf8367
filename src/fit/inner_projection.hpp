// The Jacobian a hierarchical fit's Levenberg-Marquardt steps take: that
// of the residuals in the outer parameters, projected onto the complement
// of the inner parameters' columns (Kaufman's variable projection, Golub &
// Pereyra 2003, Inverse Problems 19:R1, eq. 4.3 ff.). The residuals at the
// inner optimum have the same gradient either way (the inner columns are
// orthogonal to r there), but without the projection the Gauss-Newton
// matrix ignores that the inner parameters follow the outer ones: it
// overstates the curvature along every direction the inner ones can make
// up for, and the steps come out short (a synthetic problem's fit stopped
// on its function tolerance with the gradient at 0.12).
#pragma once

#include <cstddef>
#include <vector>

namespace odesens::fitting {

// jacobian: rows x n, row-major. Its columns `inner` are projected out of
// every column: J <- (I - J_s J_s^+) J, J_s those columns (a column of
// zeros, or columns that are dependent, are left out of J_s).
void project_out_columns(std::vector<double>& jacobian, std::size_t rows, std::size_t n,
                         const std::vector<std::size_t>& inner);

}  // namespace odesens::fitting
