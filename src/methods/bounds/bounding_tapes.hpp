// The tapes the set-valued method evaluates on polynomial models, built
// once per solve from the model's expressions (set-valued sensitivity
// paper, Table 1 and section 4):
//   state system        f, each f_i alone (section 4.1, one remainder
//                        fixed at a time), J_x (section 4.2, the linear
//                        part A and the nonlinearity bounder);
//   sensitivity system  for each parameter j, phi_j = J_x s_j + J_p e_j on
//                        the inputs [x; s_j] (2 nx "states"), each
//                        component alone, and d phi_j / dx (the disturbance
//                        Jacobian C_w: x's remainder is the disturbance w).
// x0 and dx0/dp give the initial values.
#pragma once

#include <cstddef>
#include <vector>

#include "expr/symbolic_model.hpp"
#include "expr/tape.hpp"

namespace odesens::bounds {

struct BoundingTapes {
  std::size_t nx = 0, np = 0;
  expr::Tape x0;       // nx outputs, parameters only
  expr::Tape dx0_dp;   // nx * np outputs (column-major), parameters only
  expr::Tape f;        // nx outputs
  std::vector<expr::Tape> f_each;  // nx tapes of one output
  expr::Tape jac_x;    // nx * nx outputs, column-major
  // States that no right-hand side reads (through any operation, conditions
  // included): bounded as quadratures (paper, section 3.3), outside the
  // ellipsoid.
  std::vector<bool> quadrature;

  // Sensitivity tapes, on states [x; s_j] (tape.nx = 2 nx).
  std::vector<expr::Tape> sens;                   // per j: nx outputs
  std::vector<std::vector<expr::Tape>> sens_each; // per j, per i: one output
  std::vector<expr::Tape> sens_jac_x;             // per j: nx * nx, d phi_j / dx
};

struct TapeSelection {
  bool each_output = false;   // interval remainders
  bool jacobians = false;     // ellipsoidal remainders
  bool sensitivities = false; // bounds_fsa
};

BoundingTapes build_bounding_tapes(const expr::SymbolicModel& model, const TapeSelection& which);

}  // namespace odesens::bounds
