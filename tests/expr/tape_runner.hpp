// Runs a compiled tape directly, through native code or through the
// interpreter, so that tests can compare the two evaluation paths.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "expr/lane_kernels.hpp"
#include "expr/native_tape.hpp"
#include "expr/tape.hpp"

namespace odesens::expr_testing {

// The tape's outputs at (t, x, p); every register (not only the outputs)
// goes to *registers when it is given.
inline std::vector<double> run_tape(const expr::Tape& tape, bool native, double t,
                                    const std::vector<double>& x, const std::vector<double>& p,
                                    std::vector<double>* registers = nullptr) {
  std::vector<double> regs(tape.n_registers, 0.0), out(tape.n_outputs);
  regs[0] = t;
  std::copy(x.begin(), x.end(), regs.begin() + 1);
  std::copy(p.begin(), p.end(), regs.begin() + 1 + static_cast<std::ptrdiff_t>(tape.nx));
  std::copy(tape.constants.begin(), tape.constants.end(),
            regs.begin() + 1 + static_cast<std::ptrdiff_t>(tape.nx + tape.np));
  if (native) {
    tape.native->run_prefix(regs.data(), out.data());
    tape.native->run_main(regs.data(), out.data());
  } else {
    expr::isa::scalar_kernels.values(tape.view(), 0, static_cast<std::uint32_t>(tape.code.size()),
                                     regs.data(), out.data());
  }
  if (registers) *registers = regs;
  return out;
}

}  // namespace odesens::expr_testing
