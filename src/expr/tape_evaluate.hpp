// Evaluating compiled tapes on model inputs: the scalar path with the
// parameter-only prefix cached in the caller's registers, and the lane paths that process
// several directions, weight vectors or points per pass, L at a time.
// Matrices of vectors are column-major blocks, as in Model.
#pragma once

#include <cstddef>

#include "expr/expr_workspace.hpp"
#include "expr/lane_kernels.hpp"
#include "expr/tape.hpp"

namespace odesens::expr {

// out (n_outputs) = the tape at (t, x, p). x may be null for tapes that do
// not read states (x0, dx0/dp). Skips the parameter-only prefix when the
// register file for `slot` last ran this tape with the same p.
void evaluate(const Tape& tape, Registers& regs, Slot slot, double t, const double* x,
              const double* p, double* out);

// out (n_outputs x nv) = d outputs / d(x, p) applied to the directions
// (Vx: nx x nv; Vp: np x nv or null for zero), forward mode on an adjoint
// (single-assignment) tape.
void evaluate_tangents(const Tape& tape, const LaneKernels& k, Registers& regs, double t,
                       const double* x,
                       const double* p, std::size_t nv, const double* Vx, const double* Vp,
                       double* out);

// How evaluate_adjoints delivers J_p^T W: stored into out_p, or added to
// it in place (an adjoint sweep's running parameter adjoint, without an
// np x nw temporary).
enum class ParamAdjoints { store, add };

// out_x (nx x nw) = J_x^T W and out_p (np x nw) = J_p^T W (or += with
// ParamAdjoints::add) for W (n_outputs x nw), reverse mode on an adjoint
// tape; either output may be null. Both modes run the same sweeps, so
// added results are bitwise out_p + the stored ones.
void evaluate_adjoints(const Tape& tape, const LaneKernels& k, Registers& regs, double t,
                       const double* x,
                       const double* p, std::size_t nw, const double* W, double* out_x,
                       double* out_p, ParamAdjoints p_mode = ParamAdjoints::store);

// Every register of an adjoint tape at (t, x, p) into vals (n_registers),
// its outputs into out: the value sweep evaluate_adjoints starts with,
// kept by the caller to run reverse sweeps from it later.
void evaluate_values(const Tape& tape, Registers& regs, double t, const double* x,
                     const double* p, double* vals, double* out);

// evaluate_adjoints from the registers a previous evaluate_values left in
// vals (no value sweep): bitwise the same products.
void evaluate_adjoints_from(const Tape& tape, const LaneKernels& k, Registers& regs,
                            const double* vals, std::size_t nw, const double* W, double* out_x,
                            double* out_p, ParamAdjoints p_mode);

// out (n_outputs x n) = the tape at n points (t[k], column k of X (nx x n)
// and of P (np x n)), L points per pass.
void evaluate_points(const Tape& tape, const LaneKernels& k, Registers& regs, std::size_t n,
                     const double* t,
                     const double* X, const double* P, double* out);

}  // namespace odesens::expr
