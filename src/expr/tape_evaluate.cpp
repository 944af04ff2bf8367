#include "expr/tape_evaluate.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "expr/native_tape.hpp"

namespace odesens::expr {
namespace {

// Short vectors (most models' states and parameters) by plain loops, for
// which a library call costs more than the work; long ones by the library.
constexpr std::size_t kShort = 16;

void copy(const double* from, std::size_t n, double* to) {
  if (n >= kShort) {
    std::memcpy(to, from, n * sizeof(double));
    return;
  }
  for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
}

// Bitwise equality, so that NaN parameters compare equal to themselves.
bool same_bits(const double* a, const double* b, std::size_t n) {
  if (n >= kShort) return std::memcmp(a, b, n * sizeof(double)) == 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t x, y;
    std::memcpy(&x, a + i, sizeof x);
    std::memcpy(&y, b + i, sizeof y);
    if (x != y) return false;
  }
  return true;
}

// Scalar inputs t, x, p and the constants into registers 0 .. n_inputs-1.
void fill_inputs(const Tape& tape, double t, const double* x, const double* p, double* r) {
  r[0] = t;
  if (x) copy(x, tape.nx, r + 1);
  copy(p, tape.np, r + 1 + tape.nx);
  copy(tape.constants.data(), tape.constants.size(), r + 1 + tape.nx + tape.np);
}

}  // namespace

void evaluate(const Tape& tape, Registers& regs, Slot slot, double t, const double* x,
              const double* p, double* out) {
  RegisterFile& f = regs.file(slot);
  bool grew = false;
  double* r = f.regs.ensure(tape.n_registers, &grew);
  if (grew || f.tape_id != tape.id) {
    copy(tape.constants.data(), tape.constants.size(), r + 1 + tape.nx + tape.np);
    f.tape_id = tape.id;
    f.prefix_valid = false;
  }
  r[0] = t;
  if (x) copy(x, tape.nx, r + 1);
  copy(p, tape.np, r + 1 + tape.nx);
  const TapeView v = tape.view();
  const LaneKernels& k = isa::scalar_kernels;
  const NativeTape* native = tape.native.get();
  if (tape.prefix_end > 0) {
    const bool same_p =
        f.prefix_valid && f.params.size() == tape.np && same_bits(f.params.data(), p, tape.np);
    if (!same_p) {
      if (native)
        native->run_prefix(r, out);
      else
        k.values(v, 0, tape.prefix_end, r, out);
      f.params.assign(p, p + tape.np);
      f.prefix_valid = true;
    }
  }
  if (native)
    native->run_main(r, out);
  else
    k.values(v, tape.prefix_end, v.n_code, r, out);
}

namespace {

// Every register of a single-assignment tape at (t, x, p), by native code
// when there is some, else by the scalar interpreter.
void single_assignment_values(const Tape& tape, Registers& regs, double t, const double* x,
                              const double* p, double* vals) {
  double* out = regs.buffer(Slot::lanes_outputs).ensure(tape.n_outputs);
  fill_inputs(tape, t, x, p, vals);
  if (tape.native) {
    tape.native->run_prefix(vals, out);
    tape.native->run_main(vals, out);
  } else {
    isa::scalar_kernels.values(tape.view(), 0, static_cast<std::uint32_t>(tape.code.size()), vals,
                               out);
  }
}

}  // namespace

void evaluate_tangents(const Tape& tape, const LaneKernels& k, Registers& regs, double t,
                       const double* x,
                       const double* p, std::size_t nv, const double* Vx, const double* Vp,
                       double* out) {
  const std::size_t L = static_cast<std::size_t>(k.width);
  const std::size_t nreg = tape.n_registers, nx = tape.nx, np = tape.np, nout = tape.n_outputs;
  double* vals = regs.buffer(Slot::lanes_values).ensure(nreg);
  double* tans = regs.buffer(Slot::lanes_tangents).ensure(nreg * L);
  double* out_tan = regs.buffer(Slot::lanes_io).ensure(nout * L);
  single_assignment_values(tape, regs, t, x, p, vals);
  std::fill(tans, tans + (1 + nx + np + tape.constants.size()) * L, 0.0);
  const TapeView v = tape.view();
  for (std::size_t c0 = 0; c0 < nv; c0 += L) {
    const std::size_t cnt = std::min(L, nv - c0);
    for (std::size_t i = 0; i < nx; ++i)
      for (std::size_t l = 0; l < L; ++l)
        tans[(1 + i) * L + l] = l < cnt ? Vx[i + (c0 + l) * nx] : 0.0;
    if (Vp)
      for (std::size_t j = 0; j < np; ++j)
        for (std::size_t l = 0; l < L; ++l)
          tans[(1 + nx + j) * L + l] = l < cnt ? Vp[j + (c0 + l) * np] : 0.0;
    k.tangents(v, vals, tans, out_tan);
    for (std::size_t l = 0; l < cnt; ++l)
      for (std::size_t i = 0; i < nout; ++i) out[i + (c0 + l) * nout] = out_tan[i * L + l];
  }
}

void evaluate_values(const Tape& tape, Registers&, double t, const double* x, const double* p,
                     double* vals, double* out) {
  fill_inputs(tape, t, x, p, vals);
  if (tape.native) {
    tape.native->run_prefix(vals, out);
    tape.native->run_main(vals, out);
  } else {
    isa::scalar_kernels.values(tape.view(), 0, static_cast<std::uint32_t>(tape.code.size()), vals,
                               out);
  }
}

void evaluate_adjoints(const Tape& tape, const LaneKernels& k, Registers& regs, double t,
                       const double* x,
                       const double* p, std::size_t nw, const double* W, double* out_x,
                       double* out_p, ParamAdjoints p_mode) {
  double* vals = regs.buffer(Slot::lanes_values).ensure(tape.n_registers);
  single_assignment_values(tape, regs, t, x, p, vals);
  evaluate_adjoints_from(tape, k, regs, vals, nw, W, out_x, out_p, p_mode);
}

void evaluate_adjoints_from(const Tape& tape, const LaneKernels& k, Registers& regs,
                            const double* vals, std::size_t nw, const double* W, double* out_x,
                            double* out_p, ParamAdjoints p_mode) {
  const std::size_t L = static_cast<std::size_t>(k.width);
  const std::size_t nreg = tape.n_registers, nx = tape.nx, np = tape.np, nout = tape.n_outputs;
  const std::size_t n_inputs = 1 + nx + np + tape.constants.size();
  double* adj = regs.buffer(Slot::lanes_tangents).ensure(nreg * L);
  double* w = regs.buffer(Slot::lanes_io).ensure(nout * L);
  const TapeView v = tape.view();
  for (std::size_t c0 = 0; c0 < nw; c0 += L) {
    const std::size_t cnt = std::min(L, nw - c0);
    std::fill(adj, adj + n_inputs * L, 0.0);
    for (std::size_t i = 0; i < nout; ++i)
      for (std::size_t l = 0; l < L; ++l) w[i * L + l] = l < cnt ? W[i + (c0 + l) * nout] : 0.0;
    k.adjoints(v, vals, adj, w);
    for (std::size_t l = 0; l < cnt; ++l) {
      if (out_x)
        for (std::size_t i = 0; i < nx; ++i) out_x[i + (c0 + l) * nx] = adj[(1 + i) * L + l];
      if (out_p && p_mode == ParamAdjoints::add)
        for (std::size_t j = 0; j < np; ++j) out_p[j + (c0 + l) * np] += adj[(1 + nx + j) * L + l];
      else if (out_p)
        for (std::size_t j = 0; j < np; ++j) out_p[j + (c0 + l) * np] = adj[(1 + nx + j) * L + l];
    }
  }
}

void evaluate_points(const Tape& tape, const LaneKernels& k, Registers& registers, std::size_t n,
                     const double* t,
                     const double* X, const double* P, double* out) {
  const std::size_t L = static_cast<std::size_t>(k.width);
  const std::size_t nx = tape.nx, np = tape.np, nout = tape.n_outputs;
  const std::size_t first_const = 1 + nx + np;
  double* regs = registers.buffer(Slot::lanes_tangents).ensure(tape.n_registers * L);
  double* lanes_out = registers.buffer(Slot::lanes_io).ensure(nout * L);
  for (std::size_t c = 0; c < tape.constants.size(); ++c)
    for (std::size_t l = 0; l < L; ++l) regs[(first_const + c) * L + l] = tape.constants[c];
  const TapeView v = tape.view();
  for (std::size_t c0 = 0; c0 < n; c0 += L) {
    const std::size_t cnt = std::min(L, n - c0);
    for (std::size_t l = 0; l < L; ++l) {
      const std::size_t pt = c0 + std::min(l, cnt - 1);  // spare lanes repeat the last point
      regs[l] = t[pt];
      for (std::size_t i = 0; i < nx; ++i) regs[(1 + i) * L + l] = X[i + pt * nx];
      for (std::size_t j = 0; j < np; ++j) regs[(1 + nx + j) * L + l] = P[j + pt * np];
    }
    k.values(v, 0, v.n_code, regs, lanes_out);
    for (std::size_t l = 0; l < cnt; ++l)
      for (std::size_t i = 0; i < nout; ++i) out[i + (c0 + l) * nout] = lanes_out[i * L + l];
  }
}

}  // namespace odesens::expr
