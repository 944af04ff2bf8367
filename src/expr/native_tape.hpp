// Native x86-64 code for the scalar evaluation of a value tape, the hot path
// of f and J inside integrators: one straight-line function per tape part
// (parameter-only prefix, main part), SSE2 scalar instructions on the
// register file, libm calls for the transcendental functions. No dispatch
// per instruction, so a tape runs at a few cycles per operation instead of
// an interpreter's branch misprediction each.
//
// Every operation computes exactly what the scalar interpreter computes
// (same IEEE operations in the same order, same libm functions, powi by the
// same multiplications), so results are bitwise identical; tests check it.
//
// Only on x86-64 Linux; compile_native() returns null elsewhere, when the
// system refuses executable memory, or when ODESENS_JIT=0 is set, and the
// interpreter runs instead. Code pages are written, then made read+execute
// (never writable and executable at once); xbyak assembles them
// (native_tape.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace odesens::expr {

struct Tape;
class NativeCode;  // the generated code and its pages (native_tape.cpp)

class NativeTape {
 public:
  using Function = void (*)(double* registers, double* out);
  NativeTape(std::unique_ptr<NativeCode> code, Function prefix, Function main);
  ~NativeTape();
  NativeTape(const NativeTape&) = delete;
  NativeTape& operator=(const NativeTape&) = delete;

  // Instructions [0, prefix_end) and [prefix_end, end) of the tape.
  void run_prefix(double* registers, double* out) const { prefix_(registers, out); }
  void run_main(double* registers, double* out) const { main_(registers, out); }

 private:
  std::unique_ptr<NativeCode> code_;
  Function prefix_, main_;
};

// keep_all_values: store every result to the register file (adjoint tapes,
// whose values the derivative sweeps read); otherwise a result that only
// the next instruction reads stays in a machine register.
std::shared_ptr<const NativeTape> compile_native(const Tape& tape, bool keep_all_values);

// False when ODESENS_JIT=0 or the platform has no native backend.
bool native_tapes_enabled();

}  // namespace odesens::expr
