// x86-64 code generation for value tapes (see native_tape.hpp).
//
// Calling convention (System V): rdi = register file, rsi = outputs. The
// generated function keeps them in rbx and rbp (callee-saved, so they
// survive libm calls), aligns the stack to 16 bytes for those calls, and
// uses xmm0-xmm3 as scratch. Every register-file access is [rbx + 8*r]
// with a 32-bit displacement. A 48-byte constant block (sign mask, abs
// mask, 1.0, each 16-byte aligned) precedes the code.
//
// Encodings: Intel SDM vol. 2 (MOVSD F2 0F 10/11, ADDSD F2 0F 58, MULSD 59,
// SUBSD 5C, DIVSD 5E, SQRTSD 51, CMPSD F2 0F C2 ib, ANDPD 66 0F 54,
// ANDNPD 55, ORPD 56, XORPD 57, MOVAPD 66 0F 28).
#include "expr/native_tape.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "expr/scalar_ops.hpp"
#include "expr/tape.hpp"

#if defined(__x86_64__) && defined(__linux__)
#include <sys/mman.h>
#define ODESENS_NATIVE_TAPES 1
#else
#define ODESENS_NATIVE_TAPES 0
#endif

namespace odesens::expr {

bool native_tapes_enabled() {
#if ODESENS_NATIVE_TAPES
  static const bool enabled = [] {
    const char* env = std::getenv("ODESENS_JIT");
    return !(env && std::strcmp(env, "0") == 0);
  }();
  return enabled;
#else
  return false;
#endif
}

#if ODESENS_NATIVE_TAPES

NativeTape::~NativeTape() { ::munmap(memory_, size_); }

namespace {

double powi_call(double x, int n) { return powi(x, n); }
double factorial_call(double x) { return scalar_unary(Op::factorial, x, 0); }

using UnaryFn = double (*)(double);
using BinaryFn = double (*)(double, double);

UnaryFn libm_function(Op op) {
  switch (op) {
    case Op::exp: return &::exp;
    case Op::log: return &::log;
    case Op::log10: return &::log10;
    case Op::sin: return &::sin;
    case Op::cos: return &::cos;
    case Op::tan: return &::tan;
    case Op::sinh: return &::sinh;
    case Op::cosh: return &::cosh;
    case Op::tanh: return &::tanh;
    case Op::asin: return &::asin;
    case Op::acos: return &::acos;
    case Op::atan: return &::atan;
    case Op::floor: return &::floor;
    case Op::ceil: return &::ceil;
    case Op::factorial: return &factorial_call;
    default: return nullptr;
  }
}

constexpr std::uint8_t kRbx = 3, kRbp = 5;
constexpr std::size_t kSignMask = 0, kAbsMask = 16, kOne = 32, kCodeStart = 48;
// CMPSD predicates
constexpr std::uint8_t kEq = 0, kLt = 1, kLe = 2, kNeq = 4;

class Emitter {
 public:
  explicit Emitter(bool keep_all_values) : keep_all_values_(keep_all_values) {
    const std::uint64_t data[6] = {0x8000000000000000ull, 0, 0x7fffffffffffffffull, 0,
                                   0x3ff0000000000000ull, 0};
    code_.resize(kCodeStart);
    std::memcpy(code_.data(), data, sizeof data);
  }

  std::size_t pos() const { return code_.size(); }
  const std::vector<std::uint8_t>& bytes() const { return code_; }

  // Instructions [begin, end) of the tape as one function.
  void function(const Tape& tape, std::size_t begin, std::size_t end) {
    if (elide_.size() != tape.code.size())
      elide_ = keep_all_values_ ? std::vector<bool>(tape.code.size(), false) : elidable_stores(tape);
    put({0x53, 0x55, 0x48, 0x83, 0xEC, 0x08, 0x48, 0x89, 0xFB, 0x48, 0x89, 0xF5});
    in_xmm0_ = kNone;
    for (std::size_t k = begin; k < end; ++k)
      instruction(tape.code[k], elide_[k] && k + 1 < end);
    put({0x48, 0x83, 0xC4, 0x08, 0x5D, 0x5B, 0xC3});
  }

 private:
  void put(std::initializer_list<std::uint8_t> bytes) {
    code_.insert(code_.end(), bytes.begin(), bytes.end());
  }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) code_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) code_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  // prefix 0F opcode, ModRM [base + disp32]
  void mem(std::uint8_t prefix, std::uint8_t opcode, int xmm, std::uint8_t base,
           std::uint32_t index) {
    put({prefix, 0x0F, opcode, static_cast<std::uint8_t>(0x80 | (xmm << 3) | base)});
    u32(index * 8u);
  }
  void rr(std::uint8_t prefix, std::uint8_t opcode, int dst, int src) {
    put({prefix, 0x0F, opcode, static_cast<std::uint8_t>(0xC0 | (dst << 3) | src)});
  }
  void rip(std::uint8_t prefix, std::uint8_t opcode, int xmm, std::size_t target) {
    put({prefix, 0x0F, opcode, static_cast<std::uint8_t>((xmm << 3) | 5)});
    u32(static_cast<std::uint32_t>(static_cast<std::int64_t>(target) -
                                   static_cast<std::int64_t>(pos() + 4)));
  }
  void load(int xmm, std::uint32_t r) { mem(0xF2, 0x10, xmm, kRbx, r); }
  void store(int xmm, std::uint32_t r) { mem(0xF2, 0x11, xmm, kRbx, r); }
  void arith(std::uint8_t opcode, int xmm, std::uint32_t r) { mem(0xF2, opcode, xmm, kRbx, r); }
  void cmp_mem(int xmm, std::uint32_t r, std::uint8_t pred) {
    mem(0xF2, 0xC2, xmm, kRbx, r);
    put({pred});
  }
  void cmp_rr(int dst, int src, std::uint8_t pred) {
    rr(0xF2, 0xC2, dst, src);
    put({pred});
  }
  void call(const void* fn) {
    std::uint64_t address;
    std::memcpy(&address, &fn, sizeof address);
    put({0x48, 0xB8});
    u64(address);
    put({0xFF, 0xD0});
  }
  // xmm0 = mask ? xmm0 : xmm1, mask in xmm2 (clobbered)
  void blend() {
    rr(0x66, 0x54, 0, 2);  // andpd  xmm0, xmm2
    rr(0x66, 0x55, 2, 1);  // andnpd xmm2, xmm1
    rr(0x66, 0x56, 0, 2);  // orpd   xmm0, xmm2
  }
  // xmm0 = mask (in xmm0) ? 1.0 : 0.0
  void truth() { rip(0x66, 0x54, 0, kOne); }  // andpd xmm0, [one]

  // x^n by the multiplications of powi(): base in xmm0, result in xmm1,
  // then moved to xmm0.
  void powi_inline(std::uint32_t a, int n) {
    load(0, a);
    unsigned m = n < 0 ? 0u - static_cast<unsigned>(n) : static_cast<unsigned>(n);
    bool have_result = false;
    while (m != 0) {
      if (m & 1u) {
        if (have_result)
          rr(0xF2, 0x59, 1, 0);  // mulsd xmm1, xmm0
        else
          rr(0x66, 0x28, 1, 0);  // movapd xmm1, xmm0 (1 * base is exact)
        have_result = true;
      }
      m >>= 1;
      if (m != 0) rr(0xF2, 0x59, 0, 0);  // mulsd xmm0, xmm0
    }
    if (n < 0) {
      rip(0xF2, 0x10, 0, kOne);  // movsd xmm0, [one]
      rr(0xF2, 0x5E, 0, 1);      // divsd xmm0, xmm1
    } else {
      rr(0x66, 0x28, 0, 1);      // movapd xmm0, xmm1
    }
  }

  void instruction(const Instr& in, bool elide) {
    const Op op = in.op();
    const std::uint32_t d = in.dst, a = in.a, b = in.b;
    switch (op) {
      case Op::store:
        load_a(a);
        mem(0xF2, 0x11, 0, kRbp, d);
        return;
      case Op::neg:
        load_a(a);
        rip(0x66, 0x57, 0, kSignMask);
        result(d, elide);
        return;
      case Op::abs:
        load_a(a);
        rip(0x66, 0x54, 0, kAbsMask);
        result(d, elide);
        return;
      case Op::sqrt:
        load_a(a);
        rr(0xF2, 0x51, 0, 0);
        result(d, elide);
        return;
      case Op::add: arithmetic(0x58, true, a, b, d, elide); return;
      case Op::mul: arithmetic(0x59, true, a, b, d, elide); return;
      case Op::sub: arithmetic(0x5C, false, a, b, d, elide); return;
      case Op::div: arithmetic(0x5E, false, a, b, d, elide); return;
      case Op::exp:
      case Op::log:
      case Op::log10:
      case Op::sin:
      case Op::cos:
      case Op::tan:
      case Op::sinh:
      case Op::cosh:
      case Op::tanh:
      case Op::asin:
      case Op::acos:
      case Op::atan:
      case Op::floor:
      case Op::ceil:
      case Op::factorial:
        load_a(a);
        call(reinterpret_cast<const void*>(libm_function(op)));
        result(d, elide);
        return;
      default: break;
    }
    // The rest read their operands from memory (their operands' stores are
    // never elided) and leave the result in xmm0.
    in_xmm0_ = kNone;
    switch (op) {
      case Op::powi: {
        const int n = in.exponent();
        if (n >= -32 && n <= 32) {
          powi_inline(a, n);
        } else {
          load(0, a);
          put({0xBF});  // mov edi, n
          u32(static_cast<std::uint32_t>(n));
          call(reinterpret_cast<const void*>(&powi_call));
        }
        break;
      }
      case Op::pow:
        load(0, a);
        load(1, b);
        call(reinterpret_cast<const void*>(static_cast<BinaryFn>(&::pow)));
        break;
      case Op::min:  // a <= b ? a : b
        load(0, a);
        load(1, b);
        rr(0x66, 0x28, 2, 0);
        cmp_rr(2, 1, kLe);
        blend();
        break;
      case Op::max:  // a >= b ? a : b, as b <= a
        load(0, a);
        load(1, b);
        rr(0x66, 0x28, 2, 1);
        cmp_rr(2, 0, kLe);
        blend();
        break;
      case Op::lt: load(0, a); cmp_mem(0, b, kLt); truth(); break;
      case Op::le: load(0, a); cmp_mem(0, b, kLe); truth(); break;
      case Op::gt: load(0, b); cmp_mem(0, a, kLt); truth(); break;
      case Op::ge: load(0, b); cmp_mem(0, a, kLe); truth(); break;
      case Op::eq: load(0, a); cmp_mem(0, b, kEq); truth(); break;
      case Op::ne: load(0, a); cmp_mem(0, b, kNeq); truth(); break;
      case Op::logical_not:
        load(0, a);
        rr(0x66, 0x57, 1, 1);  // xorpd xmm1, xmm1
        cmp_rr(0, 1, kEq);
        truth();
        break;
      case Op::logical_and:
      case Op::logical_or:
        rr(0x66, 0x57, 2, 2);
        load(0, a);
        cmp_rr(0, 2, kNeq);
        load(1, b);
        cmp_rr(1, 2, kNeq);
        rr(0x66, op == Op::logical_and ? 0x54 : 0x56, 0, 1);
        truth();
        break;
      case Op::select:  // a != 0 ? b : c
        load(2, a);
        rr(0x66, 0x57, 3, 3);
        cmp_rr(2, 3, kNeq);
        load(0, b);
        load(1, in.c);
        blend();
        break;
      default: break;
    }
    result(d, elide);
  }

  // Operations whose operand `a` (and `b`) are read through in_xmm0_.
  static bool reads_through_xmm0(Op op) {
    return op == Op::store || op == Op::neg || op == Op::abs || op == Op::sqrt ||
           op == Op::add || op == Op::sub || op == Op::mul || op == Op::div ||
           libm_function(op) != nullptr;
  }

  // Results read only by the very next instruction, which takes them from
  // xmm0: their store to the register file is dead. Reads anywhere in the
  // tape count, so a prefix result the main part reads is always stored.
  static std::vector<bool> elidable_stores(const Tape& tape) {
    const Instr* begin = tape.code.data();
    const std::size_t n = tape.code.size();
    std::vector<bool> only_next(n, true), read(n, false);
    std::vector<std::size_t> writer;  // register -> instruction + 1 (0: none)
    auto note_read = [&](std::uint32_t r, std::size_t k) {
      if (r >= writer.size() || writer[r] == 0) return;
      const std::size_t w = writer[r] - 1;
      read[w] = true;
      if (k != w + 1 || !reads_through_xmm0(begin[k].op())) only_next[w] = false;
    };
    for (std::size_t k = 0; k < n; ++k) {
      const Instr& in = begin[k];
      const Op op = in.op();
      note_read(in.a, k);
      if (arity(op) >= 2 && op != Op::powi) note_read(in.b, k);
      if (op == Op::select) note_read(in.c, k);
      if (op == Op::store) continue;
      if (writer.size() <= in.dst) writer.resize(in.dst + 1, 0);
      writer[in.dst] = k + 1;
    }
    std::vector<bool> elide(n, false);
    for (std::size_t k = 0; k + 1 < n; ++k)
      elide[k] = begin[k].op() != Op::store && read[k] && only_next[k];
    return elide;
  }

  // xmm0 = register r (nothing to do when xmm0 holds it already)
  void load_a(std::uint32_t r) {
    if (r != in_xmm0_) load(0, r);
  }

  void result(std::uint32_t d, bool elide) {
    if (!elide) store(0, d);
    in_xmm0_ = d;
  }

  void arithmetic(std::uint8_t opcode, bool commutative, std::uint32_t a, std::uint32_t b,
                  std::uint32_t d, bool elide) {
    if (a == in_xmm0_) {
      if (b == in_xmm0_)
        rr(0xF2, opcode, 0, 0);
      else
        arith(opcode, 0, b);
    } else if (b == in_xmm0_) {
      if (commutative) {  // IEEE + and * are commutative
        arith(opcode, 0, a);
      } else {
        rr(0x66, 0x28, 1, 0);  // movapd xmm1, xmm0
        load(0, a);
        rr(0xF2, opcode, 0, 1);
      }
    } else {
      load(0, a);
      arith(opcode, 0, b);
    }
    result(d, elide);
  }

  static constexpr std::uint32_t kNone = 0xffffffffu;
  std::uint32_t in_xmm0_ = kNone;  // register-file value xmm0 holds
  bool keep_all_values_;
  std::vector<bool> elide_;
  std::vector<std::uint8_t> code_;
};

}  // namespace

std::shared_ptr<const NativeTape> compile_native(const Tape& tape, bool keep_all_values) {
  if (!native_tapes_enabled()) return nullptr;
  if (tape.n_registers >= (1u << 28) || tape.n_outputs >= (1u << 28)) return nullptr;
  for (const Instr& in : tape.code) {
    const Op op = in.op();
    if (op <= Op::param || op >= Op::count) return nullptr;  // not an instruction this backend knows
  }
  Emitter e(keep_all_values);
  const std::size_t prefix_at = e.pos();
  e.function(tape, 0, tape.prefix_end);
  const std::size_t main_at = e.pos();
  e.function(tape, tape.prefix_end, tape.code.size());
  const std::size_t size = e.bytes().size();
  if (size > (std::size_t{1} << 30)) return nullptr;
  void* memory = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  std::memcpy(memory, e.bytes().data(), size);
  if (::mprotect(memory, size, PROT_READ | PROT_EXEC) != 0) {
    ::munmap(memory, size);
    return nullptr;
  }
  auto entry = [memory](std::size_t offset) {
    const void* address = static_cast<const std::uint8_t*>(memory) + offset;
    NativeTape::Function f;
    std::memcpy(&f, &address, sizeof f);
    return f;
  };
  return std::make_shared<NativeTape>(memory, size, entry(prefix_at), entry(main_at));
}

#else

NativeTape::~NativeTape() = default;
std::shared_ptr<const NativeTape> compile_native(const Tape&, bool) { return nullptr; }

#endif

}  // namespace odesens::expr
