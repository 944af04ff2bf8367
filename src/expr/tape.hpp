// Flat instruction tapes compiled from the expression DAG, the form in
// which expressions are evaluated.
//
// Register file layout: register 0 holds t, registers 1..nx the states,
// nx+1..nx+np the parameters, then the constants, then temporaries. Callers
// fill the input registers, the evaluator runs the instructions in order,
// and `store` instructions copy results to the output array.
//
// Value tapes reuse registers (a value's register is freed after its last
// use), so a 1000-state model needs few temporaries. Instructions that
// depend only on parameters come first, in [0, prefix_end), and their
// results that the rest of the tape reads keep their registers, so that a
// scalar evaluator may skip the prefix when p did not change since the last
// call on the same register file.
//
// Adjoint tapes give every instruction its own register (the tangent and
// reverse sweeps read every intermediate value) and carry, per operand,
// whether the reverse sweep assigns, accumulates or skips that operand's
// adjoint; so the sweep needs no zeroing of temporaries. On value tapes the
// same bits only mark the operands that are not constants.
//
// Scalar evaluation runs native code (native_tape.hpp) where the platform
// allows, else the interpreter (lane_kernels.hpp); both compute the same bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "expr/expr_graph.hpp"

namespace odesens::expr {

// How the reverse sweep treats an operand's adjoint.
enum AdjointMode : std::uint32_t { kSkip = 0, kAccumulate = 1, kAssign = 2 };

struct Instr {
  // bits 0-7: Op; bits 8-13: AdjointMode of operands a, b, c (2 bits each;
  // value tapes: kAccumulate for non-constant operands); bit 14: the result
  // has an adjoint (the reverse sweep visits it).
  std::uint32_t code;
  std::uint32_t dst;  // register; for store: the output index
  std::uint32_t a, b, c;  // registers; for powi: b is the exponent (int32)

  Op op() const { return static_cast<Op>(code & 0xffu); }
  AdjointMode mode(int slot) const {
    return static_cast<AdjointMode>((code >> (8 + 2 * slot)) & 3u);
  }
  bool has_adjoint() const { return ((code >> 14) & 1u) != 0; }
  int exponent() const { return static_cast<std::int32_t>(b); }
};

// What an evaluator needs of a tape: plain pointers and sizes, so the
// SIMD translation units see no library types (see lane_kernels.hpp).
struct TapeView {
  const Instr* code;
  std::uint32_t n_code;
  std::uint32_t prefix_end;
  std::uint32_t n_registers;
  std::uint32_t n_outputs;
  std::uint32_t nx, np;
  std::uint32_t n_constants;
  const double* constants;  // copied into registers 1 + nx + np on
};

class NativeTape;

struct Tape {
  std::vector<Instr> code;
  std::vector<double> constants;
  std::uint32_t nx = 0, np = 0;
  std::uint32_t n_registers = 0;
  std::uint32_t n_outputs = 0;
  std::uint32_t prefix_end = 0;
  std::uint64_t id = 0;  // unique per compiled tape, keys evaluator caches
  // Machine code of the scalar evaluation (value tapes, when available).
  std::shared_ptr<const NativeTape> native;

  TapeView view() const {
    return {code.data(), static_cast<std::uint32_t>(code.size()), prefix_end, n_registers,
            n_outputs, nx, np, static_cast<std::uint32_t>(constants.size()), constants.data()};
  }
};

enum class TapeKind { values, adjoint };

// Compiles the expressions `roots` (output k = roots[k]) of a model with nx
// states and np parameters. Only what the roots need is kept.
Tape compile_tape(const Graph& g, const std::vector<NodeId>& roots, std::size_t nx,
                  std::size_t np, TapeKind kind);

}  // namespace odesens::expr
