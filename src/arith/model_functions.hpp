// The functions the set-valued methods evaluate on polynomial models,
// built once per solve from the model's expressions (set-valued sensitivity
// paper, Table 1 and section 4):
//   state system        f, each f_i alone (section 4.1, one remainder
//                        fixed at a time), J_x (section 4.2, the linear
//                        part A and the nonlinearity bounder);
//   sensitivity system  for each parameter j, phi_j = J_x s_j + J_p e_j on
//                        the inputs [x; s_j] (2 nx "states"), each
//                        component alone; its disturbance Jacobian d phi_j /
//                        dx (C_w: x's remainder is the disturbance w) comes
//                        from the second derivatives of f, shared by all j;
//   adjoint system      (Table 1 "ASA") psi = J_x^T lambda on [x; lambda]:
//                        the adjoint equation (13) (q = 0) in reversed time
//                        tau = -t, so that it is bounded forward in tau like
//                        the others; each component alone (d psi / dx from
//                        the same second derivatives); and
//                        the gradient's integrand theta = J_p^T lambda
//                        (Table 1 "ASA", quadrature functions; np outputs).
// x0 and dx0/dp give the initial values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "arith/function.hpp"
#include "odesens/model.hpp"

namespace odesens::arith {

// A structurally nonzero second derivative d^2 f_k / dx_i dx_l (i <= l:
// H is symmetric in i, l), or, as a mixed entry, d^2 f_k / dp_i dx_l.
struct HessianEntry {
  std::uint32_t k, i, l;
};

// The functions of one bounding system: its right-hand side phi on the inputs
// [driver's components; own components] (no driver: own components only).
struct SystemFunctions {
  const Function* rhs = nullptr;                    // n outputs
  const std::vector<Function>* rhs_each = nullptr;  // interval remainders: one per output
  // Ellipsoidal, driven systems: d phi / dx from the state's second
  // derivative models (StateJacobian), shared by all systems at a point:
  // the adjoint's d psi_i / dx_l = sum_k H[k, i, l] lambda_k, sensitivity
  // j's d phi_k / dx_l = sum_i H[k, i, l] s_i + M[k, j, l].
  const std::vector<HessianEntry>* hessian = nullptr;
  const std::vector<HessianEntry>* mixed = nullptr;  // sensitivities: M entries
  std::size_t parameter = 0;                          // sensitivities: j
  const std::vector<bool>* quadrature = nullptr;      // own components no phi reads
  // d phi / d(own) is J_x^T (the adjoint system) rather than J_x.
  bool transposed_jacobian = false;
};

struct BoundingFunctions {
  std::size_t nx = 0, np = 0;
  Function x0;                   // nx outputs, parameters only
  Function dx0_dp;               // nx * np outputs (column-major), parameters only
  Function f;                    // nx outputs
  std::vector<Function> f_each;  // nx functions of one output
  Function jac_x;                // nx * nx outputs, column-major
  // States that no right-hand side reads (through any operation, conditions
  // included): bounded as quadratures (paper, section 3.3), outside the
  // ellipsoid.
  std::vector<bool> quadrature;

  // Sensitivity functions, on inputs [x; s_j] (2 nx of them).
  std::vector<Function> sens;                    // per j: nx outputs
  std::vector<std::vector<Function>> sens_each;  // per j, per i: one output

  // Adjoint functions, on inputs [x; lambda] (2 nx of them).
  Function adj;                    // nx outputs: psi = J_x^T lambda
  std::vector<Function> adj_each;  // per i: one output
  // Second derivatives of f (ellipsoidal remainders of driven systems): one
  // output per entry, the Hessian's, then the mixed ones (sensitivities).
  Function hess_x;
  std::vector<HessianEntry> hess_entries, mixed_entries;
  std::vector<bool> adj_quadrature;  // lambda_i no psi reads
  Function gradient_integrand;       // np outputs: theta = J_p^T lambda

  SystemFunctions state() const;
  SystemFunctions sensitivity(std::size_t j) const;
  SystemFunctions adjoint() const;
};

struct FunctionSelection {
  bool each_output = false;   // interval remainders
  bool jacobians = false;     // ellipsoidal remainders
  bool sensitivities = false; // bounds_fsa
  bool adjoint = false;       // bounds_asa
};

// Whether the model has the expressions these functions are built from
// (.ode, SBML, record(); not built-in or callback models).
bool has_expressions(const Model& model);

// Error(unsupported) for a model without expressions.
BoundingFunctions build_bounding_functions(const Model& model, const FunctionSelection& which);

}  // namespace odesens::arith
