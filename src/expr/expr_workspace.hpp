// Register files of the tape evaluators, owned by whoever evaluates (inside
// an ExprModel's Workspace): model services are const and may run on
// several threads at once, each with its own Registers, and must not
// allocate per call: one buffer per slot, grown to the largest tape it has
// seen and then reused. Buffers are 64-byte aligned for the SIMD lanes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace odesens::expr {

class AlignedBuffer {
 public:
  // At least n doubles; *grew is set when the old contents were lost.
  double* ensure(std::size_t n, bool* grew = nullptr) {
    if (n > capacity_) {
      const std::size_t cap = n < 64 ? 64 : n + n / 2;
      data_.reset(static_cast<double*>(::operator new(cap * sizeof(double), std::align_val_t(64))));
      for (std::size_t i = 0; i < cap; ++i) data_.get()[i] = 0.0;  // never read undefined
      capacity_ = cap;
      if (grew) *grew = true;
    } else if (grew) {
      *grew = false;
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(double* p) const { ::operator delete(p, std::align_val_t(64)); }
  };
  std::unique_ptr<double, Free> data_;
  std::size_t capacity_ = 0;
};

// One slot per kind of tape, so that alternating f and J evaluations on a
// thread keep their cached parameter-only prefixes.
enum class Slot {
  rhs, jac_x, jac_p, x0, dx0_dp, dfdt, outputs, observables, xddot, xddot_jac_x, xddot_jac_p,
  xddot_dt, events, event_partials, event_scratch, branch_params,
  branch_adjoints,
  dense_values, lanes_values, lanes_tangents, lanes_io, lanes_outputs, observable_seeds, count
};

// Register file of a scalar evaluation and what it holds: the constants and
// parameter-only results of tape `tape_id` for the parameters `params`.
struct RegisterFile {
  AlignedBuffer regs;
  std::uint64_t tape_id = 0;
  bool prefix_valid = false;
  std::vector<double> params;
};

// One register file per slot: everything an evaluation of compiled tapes
// writes.
class Registers {
 public:
  RegisterFile& file(Slot slot) { return files_[static_cast<int>(slot)]; }
  AlignedBuffer& buffer(Slot slot) { return file(slot).regs; }

 private:
  RegisterFile files_[static_cast<int>(Slot::count)];
};

}  // namespace odesens::expr
