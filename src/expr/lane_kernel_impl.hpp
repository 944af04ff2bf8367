// The tape evaluators, written once for any lane width. Included only by
// lanes_scalar.cpp, lanes_avx2.cpp and lanes_avx512.cpp, each of which first
// defines `struct LaneMath` (the lane type V, the width L and the
// transcendental functions) and then exports a LaneKernels built from
// Kernel<LaneMath>.
//
// Everything is in an anonymous namespace and touches the tape only through
// plain fields: the translation units are compiled with different
// instruction-set flags, and no inline function compiled for AVX may be
// shared with the rest of the library (see lane_kernels.hpp).
//
// The operations come from ops.def: values() computes each one's `value`
// expression on lanes, with LaneMath as M; tangents() and adjoints() apply
// its derivative rule (derivative_rules.hpp), the same rules as the
// symbolic differentiation.
//
// Tangents and adjoints read the values of a single-assignment tape that
// the scalar evaluator computed before; their local partial derivatives use
// the same libm calls as constant folding.
#include <cstring>

#include "expr/derivative_rules.hpp"
#include "expr/lane_kernels.hpp"
#include "expr/scalar_ops.hpp"

namespace odesens::expr {
namespace {

inline Op op_of(const Instr& in) { return static_cast<Op>(in.code & 0xffu); }
inline std::uint32_t mode_of(const Instr& in, int slot) { return (in.code >> (8 + 2 * slot)) & 3u; }
inline bool has_adjoint_of(const Instr& in) { return ((in.code >> 14) & 1u) != 0; }
inline int exponent_of(const Instr& in) { return static_cast<std::int32_t>(in.b); }

template <class M>
struct Kernel {
  using V = typename M::V;
  static constexpr int L = M::L;

  static V load(const double* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void store(double* p, V v) { std::memcpy(p, &v, sizeof v); }
  static V splat(double s) { return s - V{}; }  // s - 0 keeps the sign of zero

  // An instruction's operands and result (scalar values of the tape) as
  // the derivative rules read them; b and c are read only when asked for
  // (powi's b is its exponent, not a register).
  struct Operands {
    const Instr& in;
    const double* v;
    double a_value, self_value;  // read up front: every operation has them
    double a() const { return a_value; }
    double b() const { return v[in.b]; }
    double c() const { return v[in.c]; }
    double self() const { return self_value; }
    int n() const { return exponent_of(in); }
    bool varies(int slot) const { return mode_of(in, slot) != kSkip; }
    static std::uint32_t slot_register(const Instr& in, int slot) {
      return slot == 0 ? in.a : slot == 1 ? in.b : in.c;
    }
  };

  // Forward mode: the operands' tangent lanes.
  struct Tangent : Operands {
    const V* tangents;
    V dt(int slot) const { return tangents[Operands::slot_register(this->in, slot)]; }
    V zero() const { return splat(0.0); }
  };

  // Reverse mode: w, the adjoint lanes of the result, flows to the operands.
  struct Adjoint : Operands {
    V* adjoint;
    V seed;
    V w() const { return seed; }
    V zero() const { return splat(0.0); }
    void give(int slot, V contribution) {
      Kernel::give(adjoint, this->in, slot, Operands::slot_register(this->in, slot), contribution);
    }
  };

  static void values(const TapeView& t, std::uint32_t begin, std::uint32_t end, double* regs,
                     double* out) {
    V* r = reinterpret_cast<V*>(regs);
    const V one = splat(1.0), zero = splat(0.0);
    for (std::uint32_t k = begin; k < end; ++k) {
      const Instr& in = t.code[k];
      const std::uint32_t d = in.dst;
      switch (op_of(in)) {
// The operands an operation has, as lanes (powi's b is its exponent).
#define ODESENS_OPERANDS_1 const V a = r[in.a];
#define ODESENS_OPERANDS_2 const V a = r[in.a], b = r[in.b];
#define ODESENS_OPERANDS_3 const V a = r[in.a], b = r[in.b], c = r[in.c];
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) \
  case Op::name: {                                                            \
    ODESENS_OPERANDS_##arity [[maybe_unused]] const int n = exponent_of(in);  \
    r[d] = value;                                                             \
    break;                                                                    \
  }
#include "expr/ops.def"
#undef ODESENS_OPERANDS_1
#undef ODESENS_OPERANDS_2
#undef ODESENS_OPERANDS_3
        case Op::store: store(out + static_cast<std::size_t>(d) * L, r[in.a]); break;
        default: break;
      }
    }
  }

  // Forward mode on a single-assignment tape whose values are computed
  // already: the tangent lanes of each instruction from its operands'.
  static void tangents(const TapeView& t, const double* v, double* tans, double* out_tan) {
    V* dt = reinterpret_cast<V*>(tans);
    const V zero = splat(0.0);
    for (std::uint32_t k = 0; k < t.n_code; ++k) {
      const Instr& in = t.code[k];
      const Op op = op_of(in);
      if (op == Op::store) {
        store(out_tan + static_cast<std::size_t>(in.dst) * L, dt[in.a]);
        continue;
      }
      const Tangent x{{in, v, v[in.a], v[in.dst]}, dt};
      V d;
      switch (op) {
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) \
  case Op::name: d = rule::forward(x); break;
#include "expr/ops.def"
        default: d = zero; break;
      }
      dt[in.dst] = d;
    }
  }

  // v where keep, else +0, by masking bits: assignment and accumulation
  // then share one branch-free path (their pattern is data-dependent and
  // would mispredict).
  static V keep_if(V v, bool keep) {
    typename M::Bits bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits &= static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(keep);
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }

  static void give(V* adj, const Instr& in, int slot, std::uint32_t reg, V contribution) {
    const std::uint32_t mode = mode_of(in, slot);
    if (mode == kSkip) return;
    adj[reg] = keep_if(adj[reg], mode == kAccumulate) + contribution;
  }

  // Reverse mode on a single-assignment tape whose values are computed
  // already: the adjoint lanes flow from the stores back to the inputs.
  static void adjoints(const TapeView& t, const double* v, double* adj_raw, const double* w) {
    V* adj = reinterpret_cast<V*>(adj_raw);
    for (std::uint32_t k = t.n_code; k-- > 0;) {
      const Instr& in = t.code[k];
      const Op op = op_of(in);
      if (op == Op::store) {
        give(adj, in, 0, in.a, load(w + static_cast<std::size_t>(in.dst) * L));
        continue;
      }
      if (!has_adjoint_of(in)) continue;
      Adjoint r{{in, v, v[in.a], v[in.dst]}, adj, adj[in.dst]};
      switch (op) {
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) \
  case Op::name: rule::reverse(r); break;
#include "expr/ops.def"
        default: break;
      }
    }
  }

  static constexpr LaneKernels table() { return {L, &values, &tangents, &adjoints}; }
};

}  // namespace
}  // namespace odesens::expr
