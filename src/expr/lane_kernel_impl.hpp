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
// Tangents and adjoints read the values of a single-assignment tape that
// the scalar evaluator computed before; their local partial derivatives use
// the same libm calls as constant folding. The rules mirror
// differentiate.cpp.
#include <cstring>

#include "expr/lane_kernels.hpp"
#include "expr/scalar_ops.hpp"

namespace odesens::expr {
namespace {

const double kLn10Lanes = 2.302585092994045684017991454684364208;

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

  static void values(const TapeView& t, std::uint32_t begin, std::uint32_t end, double* regs,
                     double* out) {
    V* r = reinterpret_cast<V*>(regs);
    const V one = splat(1.0), zero = splat(0.0);
    for (std::uint32_t k = begin; k < end; ++k) {
      const Instr& in = t.code[k];
      const std::uint32_t d = in.dst;
      switch (op_of(in)) {
        case Op::neg: r[d] = -r[in.a]; break;
        case Op::exp: r[d] = M::exp(r[in.a]); break;
        case Op::log: r[d] = M::log(r[in.a]); break;
        case Op::log10: r[d] = M::log10(r[in.a]); break;
        case Op::sqrt: r[d] = M::sqrt(r[in.a]); break;
        case Op::sin: r[d] = M::sin(r[in.a]); break;
        case Op::cos: r[d] = M::cos(r[in.a]); break;
        case Op::tan: r[d] = M::tan(r[in.a]); break;
        case Op::sinh: r[d] = M::sinh(r[in.a]); break;
        case Op::cosh: r[d] = M::cosh(r[in.a]); break;
        case Op::tanh: r[d] = M::tanh(r[in.a]); break;
        case Op::asin: r[d] = M::asin(r[in.a]); break;
        case Op::acos: r[d] = M::acos(r[in.a]); break;
        case Op::atan: r[d] = M::atan(r[in.a]); break;
        case Op::floor: r[d] = M::floor(r[in.a]); break;
        case Op::ceil: r[d] = M::ceil(r[in.a]); break;
        case Op::factorial: r[d] = M::tgamma(r[in.a] + one); break;
        case Op::abs: r[d] = M::abs(r[in.a]); break;
        case Op::powi: r[d] = powi(r[in.a], exponent_of(in)); break;
        case Op::logical_not: r[d] = (r[in.a] == zero) ? one : zero; break;
        case Op::add: r[d] = r[in.a] + r[in.b]; break;
        case Op::sub: r[d] = r[in.a] - r[in.b]; break;
        case Op::mul: r[d] = r[in.a] * r[in.b]; break;
        case Op::div: r[d] = r[in.a] / r[in.b]; break;
        case Op::pow: r[d] = M::pow(r[in.a], r[in.b]); break;
        case Op::min: r[d] = (r[in.a] <= r[in.b]) ? r[in.a] : r[in.b]; break;
        case Op::max: r[d] = (r[in.a] >= r[in.b]) ? r[in.a] : r[in.b]; break;
        case Op::lt: r[d] = (r[in.a] < r[in.b]) ? one : zero; break;
        case Op::le: r[d] = (r[in.a] <= r[in.b]) ? one : zero; break;
        case Op::gt: r[d] = (r[in.a] > r[in.b]) ? one : zero; break;
        case Op::ge: r[d] = (r[in.a] >= r[in.b]) ? one : zero; break;
        case Op::eq: r[d] = (r[in.a] == r[in.b]) ? one : zero; break;
        case Op::ne: r[d] = (r[in.a] != r[in.b]) ? one : zero; break;
        case Op::logical_and:
          r[d] = ((r[in.a] != zero) & (r[in.b] != zero)) ? one : zero;
          break;
        case Op::logical_or:
          r[d] = ((r[in.a] != zero) | (r[in.b] != zero)) ? one : zero;
          break;
        case Op::select: r[d] = (r[in.a] != zero) ? r[in.b] : r[in.c]; break;
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
      const double a = v[in.a], r = v[in.dst];
      V d;
      switch (op) {
        case Op::neg: d = -dt[in.a]; break;
        case Op::add: d = dt[in.a] + dt[in.b]; break;
        case Op::sub: d = dt[in.a] - dt[in.b]; break;
        case Op::mul: d = dt[in.a] * v[in.b] + dt[in.b] * a; break;
        case Op::div: d = (dt[in.a] - dt[in.b] * r) / v[in.b]; break;
        case Op::pow: {
          const double b = v[in.b];
          d = dt[in.a] * (b * std::pow(a, b - 1.0));
          if (mode_of(in, 1) != kSkip) {
            // Only where the exponent moves: r log(a) may be NaN (a <= 0).
            const V db = dt[in.b];
            d = (db != zero) ? d + db * (r * std::log(a)) : d;
          }
          break;
        }
        case Op::powi: {
          const int n = exponent_of(in);
          d = dt[in.a] * (n * powi(a, n - 1));
          break;
        }
        case Op::exp: d = dt[in.a] * r; break;
        case Op::log: d = dt[in.a] / a; break;
        case Op::log10: d = dt[in.a] / (a * kLn10Lanes); break;
        case Op::sqrt: d = dt[in.a] / (2.0 * r); break;
        case Op::sin: d = dt[in.a] * std::cos(a); break;
        case Op::cos: d = -(dt[in.a] * std::sin(a)); break;
        case Op::tan: d = dt[in.a] * (1.0 + r * r); break;
        case Op::sinh: d = dt[in.a] * std::cosh(a); break;
        case Op::cosh: d = dt[in.a] * std::sinh(a); break;
        case Op::tanh: d = dt[in.a] * (1.0 - r * r); break;
        case Op::asin: d = dt[in.a] / std::sqrt(1.0 - a * a); break;
        case Op::acos: d = -(dt[in.a] / std::sqrt(1.0 - a * a)); break;
        case Op::atan: d = dt[in.a] / (1.0 + a * a); break;
        case Op::abs: d = a < 0.0 ? -dt[in.a] : dt[in.a]; break;
        case Op::min: d = a <= v[in.b] ? dt[in.a] : dt[in.b]; break;
        case Op::max: d = a >= v[in.b] ? dt[in.a] : dt[in.b]; break;
        case Op::select: d = a != 0.0 ? dt[in.b] : dt[in.c]; break;
        default: d = zero; break;  // conditions, floor, ceil, factorial
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
    const V zero = splat(0.0);
    for (std::uint32_t k = t.n_code; k-- > 0;) {
      const Instr& in = t.code[k];
      const Op op = op_of(in);
      if (op == Op::store) {
        give(adj, in, 0, in.a, load(w + static_cast<std::size_t>(in.dst) * L));
        continue;
      }
      if (!has_adjoint_of(in)) continue;
      const V g = adj[in.dst];
      const double a = v[in.a], r = v[in.dst];
      switch (op) {
        case Op::neg: give(adj, in, 0, in.a, -g); break;
        case Op::add:
          give(adj, in, 0, in.a, g);
          give(adj, in, 1, in.b, g);
          break;
        case Op::sub:
          give(adj, in, 0, in.a, g);
          give(adj, in, 1, in.b, -g);
          break;
        case Op::mul:
          give(adj, in, 0, in.a, g * v[in.b]);
          give(adj, in, 1, in.b, g * a);
          break;
        case Op::div:
          give(adj, in, 0, in.a, g / v[in.b]);
          if (mode_of(in, 1) != kSkip) give(adj, in, 1, in.b, -(g * r) / v[in.b]);
          break;
        case Op::pow: {
          const double b = v[in.b];
          if (mode_of(in, 0) != kSkip) give(adj, in, 0, in.a, g * (b * std::pow(a, b - 1.0)));
          if (mode_of(in, 1) != kSkip) give(adj, in, 1, in.b, g * (r * std::log(a)));
          break;
        }
        case Op::powi: {
          const int n = exponent_of(in);
          give(adj, in, 0, in.a, g * (n * powi(a, n - 1)));
          break;
        }
        case Op::exp: give(adj, in, 0, in.a, g * r); break;
        case Op::log: give(adj, in, 0, in.a, g / a); break;
        case Op::log10: give(adj, in, 0, in.a, g / (a * kLn10Lanes)); break;
        case Op::sqrt: give(adj, in, 0, in.a, g / (2.0 * r)); break;
        case Op::sin: give(adj, in, 0, in.a, g * std::cos(a)); break;
        case Op::cos: give(adj, in, 0, in.a, -(g * std::sin(a))); break;
        case Op::tan: give(adj, in, 0, in.a, g * (1.0 + r * r)); break;
        case Op::sinh: give(adj, in, 0, in.a, g * std::cosh(a)); break;
        case Op::cosh: give(adj, in, 0, in.a, g * std::sinh(a)); break;
        case Op::tanh: give(adj, in, 0, in.a, g * (1.0 - r * r)); break;
        case Op::asin: give(adj, in, 0, in.a, g / std::sqrt(1.0 - a * a)); break;
        case Op::acos: give(adj, in, 0, in.a, -(g / std::sqrt(1.0 - a * a))); break;
        case Op::atan: give(adj, in, 0, in.a, g / (1.0 + a * a)); break;
        case Op::abs: give(adj, in, 0, in.a, a < 0.0 ? -g : g); break;
        case Op::min:
        case Op::max: {
          const bool took_a = op == Op::min ? a <= v[in.b] : a >= v[in.b];
          give(adj, in, 0, in.a, took_a ? g : zero);
          give(adj, in, 1, in.b, took_a ? zero : g);
          break;
        }
        case Op::select: {
          const bool c = a != 0.0;
          give(adj, in, 1, in.b, c ? g : zero);
          give(adj, in, 2, in.c, c ? zero : g);
          break;
        }
        default: break;  // conditions, floor, ceil, factorial
      }
    }
  }

  static constexpr LaneKernels table() { return {L, &values, &tangents, &adjoints}; }
};

}  // namespace
}  // namespace odesens::expr
