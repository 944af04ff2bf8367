// The derivative expressions of a symbolic model, as sparse matrices of
// nodes whose patterns are the structurally non-zero entries:
//   first:  J_x = df/dx, J_p = df/dp, df/dt, dx0/dp
//   second: xddot = J_x f + df/dt, the second time derivative along the
//           solution (odeSD paper, Eq. (6), there for autonomous f), its
//           state Jacobian J_Jf = d xddot/dx (in the Newton matrix, Eq. (8))
//           and d xddot/dp, which with J_Jf gives the sensitivities' second
//           derivative s_k'' = J_Jf s_k + d xddot/dp_k (Eq. (15)).
// (../shared/papers/odesd-second-derivative-integrator.txt)
#pragma once

#include <vector>

#include "expr/symbolic_model.hpp"
#include "odesens/sparsity.hpp"

namespace odesens::expr {

// A sparse matrix of expressions: values[q] is the entry at position q of
// the compressed-column pattern.
struct SparseNodes {
  SparsityPattern pattern;
  std::vector<NodeId> values;
};

struct FirstDerivatives {
  SparseNodes jac_x;         // nx x nx
  SparseNodes jac_p;         // nx x np
  SparseNodes dx0_dp;        // nx x np
  std::vector<NodeId> dfdt;  // nx
};

struct SecondDerivatives {
  std::vector<NodeId> xddot;  // nx
  SparseNodes xddot_jac_x;    // nx x nx
  SparseNodes xddot_jac_p;    // nx x np
  std::vector<NodeId> xddot_dt;  // nx: partial d xddot / dt (odeSD's first-step estimate)
};

FirstDerivatives first_derivatives(SymbolicModel& m);
SecondDerivatives second_derivatives(SymbolicModel& m, const FirstDerivatives& d);

}  // namespace odesens::expr
