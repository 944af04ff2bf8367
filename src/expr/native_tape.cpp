// x86-64 code generation for value tapes (see native_tape.hpp), with xbyak
// as the assembler.
//
// Calling convention (System V): rdi = register file, rsi = outputs. The
// generated function keeps them in rbx and rbp (callee-saved, so they
// survive libm calls), aligns the stack to 16 bytes for those calls, and
// uses xmm0-xmm3 as scratch. Every register-file access is [rbx + 8*r]. A
// 48-byte constant block (sign mask, abs mask, 1.0, each 16-byte aligned)
// precedes the code and is read rip-relative.
//
// Memory (W^X): xbyak's AutoGrow mode writes into read+write pages from its
// mmap allocator, growing them as needed; readyRE() then resolves the
// labels and makes the pages read+execute, so they are never writable and
// executable at once. The pages live as long as the NativeCode object that
// NativeTape owns.
#include "expr/native_tape.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "expr/scalar_ops.hpp"
#include "expr/tape.hpp"

#if defined(__x86_64__) && defined(__linux__)
#include <xbyak/xbyak.h>
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

namespace {

double powi_call(double x, int n) { return powi(x, n); }

using UnaryFn = double (*)(double);
using BinaryFn = double (*)(double, double);

// An operation computed by a call of its scalar value (ops.def: jit_scalar_call).
template <Op op>
double scalar_call(double a) {
  return scalar_unary(op, a, 0);
}

enum class Order { commutative, ordered };

// CMPSD predicates
constexpr std::uint8_t kEq = 0, kLt = 1, kLe = 2, kNeq = 4;

}  // namespace

// The generated code and its pages.
class NativeCode : public Xbyak::CodeGenerator {
  using Xmm = Xbyak::Xmm;
  using SseOp = void (Xbyak::CodeGenerator::*)(const Xmm&, const Xbyak::Operand&);

 public:
  explicit NativeCode(bool keep_all_values)
      : Xbyak::CodeGenerator(4096, Xbyak::AutoGrow), keep_all_values_(keep_all_values) {
    L(sign_mask_);
    dq(0x8000000000000000ull);
    dq(0);
    L(abs_mask_);
    dq(0x7fffffffffffffffull);
    dq(0);
    L(one_);
    dq(0x3ff0000000000000ull);
    dq(0);
  }

  // Instructions [begin, end) of the tape as one function; returns its
  // offset in the code.
  std::size_t function(const Tape& tape, std::size_t begin, std::size_t end) {
    if (elide_.size() != tape.code.size())
      elide_ = keep_all_values_ ? std::vector<bool>(tape.code.size(), false) : elidable_stores(tape);
    const std::size_t at = getSize();
    push(rbx);
    push(rbp);
    sub(rsp, 8);
    mov(rbx, rdi);
    mov(rbp, rsi);
    in_xmm0_ = kNone;
    for (std::size_t k = begin; k < end; ++k)
      instruction(tape.code[k], elide_[k] && k + 1 < end);
    add(rsp, 8);
    pop(rbp);
    pop(rbx);
    ret();
    return at;
  }

  // Resolves the labels and turns the pages from read+write into
  // read+execute; drops what only generation needed.
  void finish() {
    readyRE();
    elide_ = std::vector<bool>();
  }

  // The function at `offset` (after finish(): the code does not move).
  NativeTape::Function entry(std::size_t offset) const {
    const void* address = getCode() + offset;
    NativeTape::Function f;
    std::memcpy(&f, &address, sizeof f);
    return f;
  }

 private:
  Xbyak::Address reg(std::uint32_t r) { return qword[rbx + std::size_t{8} * r]; }
  Xbyak::Address out(std::uint32_t k) { return qword[rbp + std::size_t{8} * k]; }
  void call_function(const void* fn) {
    mov(rax, reinterpret_cast<std::uintptr_t>(fn));
    call(rax);
  }
  // xmm0 = mask ? xmm0 : xmm1, mask in xmm2 (clobbered)
  void blend() {
    andpd(xmm0, xmm2);
    andnpd(xmm2, xmm1);
    orpd(xmm0, xmm2);
  }
  // xmm0 = mask (in xmm0) ? 1.0 : 0.0
  void truth() { andpd(xmm0, ptr[rip + one_]); }
  // xmm0 = first <pred> second, as 1.0 or 0.0
  void compare(std::uint32_t first, std::uint32_t second, std::uint8_t pred) {
    movsd(xmm0, reg(first));
    cmpsd(xmm0, reg(second), pred);
    truth();
  }

  // x^n by the multiplications of powi(): base in xmm0, result in xmm1,
  // then moved to xmm0.
  void powi_inline(std::uint32_t a, int n) {
    movsd(xmm0, reg(a));
    unsigned m = n < 0 ? 0u - static_cast<unsigned>(n) : static_cast<unsigned>(n);
    bool have_result = false;
    while (m != 0) {
      if (m & 1u) {
        if (have_result)
          mulsd(xmm1, xmm0);
        else
          movapd(xmm1, xmm0);  // 1 * base is exact
        have_result = true;
      }
      m >>= 1;
      if (m != 0) mulsd(xmm0, xmm0);
    }
    if (n < 0) {
      movsd(xmm0, ptr[rip + one_]);
      divsd(xmm0, xmm1);
    } else {
      movapd(xmm0, xmm1);
    }
  }

  void emit_negate() { xorpd(xmm0, ptr[rip + sign_mask_]); }
  void emit_absolute() { andpd(xmm0, ptr[rip + abs_mask_]); }
  void emit_square_root() { sqrtsd(xmm0, xmm0); }

  void emit_integer_power(const Instr& in) {
    const int n = in.exponent();
    if (n >= -32 && n <= 32) {
      powi_inline(in.a, n);
    } else {
      movsd(xmm0, reg(in.a));
      mov(edi, n);
      call_function(reinterpret_cast<const void*>(&powi_call));
    }
  }
  void emit_minimum(const Instr& in) {  // a <= b ? a : b
    movsd(xmm0, reg(in.a));
    movsd(xmm1, reg(in.b));
    movapd(xmm2, xmm0);
    cmpsd(xmm2, xmm1, kLe);
    blend();
  }
  void emit_maximum(const Instr& in) {  // a >= b ? a : b, as b <= a
    movsd(xmm0, reg(in.a));
    movsd(xmm1, reg(in.b));
    movapd(xmm2, xmm1);
    cmpsd(xmm2, xmm0, kLe);
    blend();
  }
  void emit_logical_not(const Instr& in) {
    movsd(xmm0, reg(in.a));
    xorpd(xmm1, xmm1);
    cmpsd(xmm0, xmm1, kEq);
    truth();
  }
  // xmm0 = a != 0, xmm1 = b != 0 (masks)
  void both_truths(const Instr& in) {
    xorpd(xmm2, xmm2);
    movsd(xmm0, reg(in.a));
    cmpsd(xmm0, xmm2, kNeq);
    movsd(xmm1, reg(in.b));
    cmpsd(xmm1, xmm2, kNeq);
  }
  void emit_logical_and(const Instr& in) {
    both_truths(in);
    andpd(xmm0, xmm1);
    truth();
  }
  void emit_logical_or(const Instr& in) {
    both_truths(in);
    orpd(xmm0, xmm1);
    truth();
  }
  void emit_select(const Instr& in) {  // a != 0 ? b : c
    movsd(xmm2, reg(in.a));
    xorpd(xmm3, xmm3);
    cmpsd(xmm2, xmm3, kNeq);
    movsd(xmm0, reg(in.b));
    movsd(xmm1, reg(in.c));
    blend();
  }

  // Operations that take operand a in xmm0 (loaded unless it is there).
  void on_xmm0(void (NativeCode::*emit)(), const Instr& in, bool elide) {
    load_a(in.a);
    (this->*emit)();
    result(in.dst, elide);
  }
  void call_unary(UnaryFn fn, const Instr& in, bool elide) {
    load_a(in.a);
    call_function(reinterpret_cast<const void*>(fn));
    result(in.dst, elide);
  }
  // Operations that read their operands from memory (their operands'
  // stores are never elided) and leave the result in xmm0.
  template <class Emit>
  void from_memory(Emit emit, const Instr& in, bool elide) {
    in_xmm0_ = kNone;
    emit();
    result(in.dst, elide);
  }

// How ops.def's jit column becomes code (in instruction()).
#define jit_arith(insn, order) arithmetic(&CodeGenerator::insn, Order::order, in, elide)
#define jit_xmm0(member) on_xmm0(&NativeCode::emit_##member, in, elide)
#define jit_libm(fn) call_unary(static_cast<UnaryFn>(&::fn), in, elide)
#define jit_scalar_call call_unary(&scalar_call<kOp>, in, elide)
#define jit_libm2(fn)                                                           \
  from_memory(                                                                  \
      [&] {                                                                     \
        movsd(xmm0, reg(in.a));                                                 \
        movsd(xmm1, reg(in.b));                                                 \
        call_function(reinterpret_cast<const void*>(static_cast<BinaryFn>(&::fn))); \
      },                                                                        \
      in, elide)
#define jit_memory(member) from_memory([&] { emit_##member(in); }, in, elide)
#define jit_compare(x, y, predicate) \
  from_memory([&] { compare(in.x, in.y, predicate); }, in, elide)

  void instruction(const Instr& in, bool elide) {
    switch (in.op()) {
      case Op::store:
        load_a(in.a);
        movsd(out(in.dst), xmm0);
        return;
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) \
  case Op::name: {                                                            \
    [[maybe_unused]] constexpr Op kOp = Op::name;                             \
    jit;                                                                      \
    return;                                                                   \
  }
#include "expr/ops.def"
      default: return;
    }
  }

#undef jit_arith
#undef jit_xmm0
#undef jit_libm
#undef jit_scalar_call
#undef jit_libm2
#undef jit_memory
#undef jit_compare

  // Operations whose operand a (and b) are read through in_xmm0_: those
  // whose code does not read its operands from memory.
  static bool reads_through_xmm0(Op op) {
    switch (op) {
      case Op::store: return true;
#define jit_arith(insn, order) true
#define jit_xmm0(member) true
#define jit_libm(fn) true
#define jit_scalar_call true
#define jit_libm2(fn) false
#define jit_memory(member) false
#define jit_compare(x, y, predicate) false
#define ODESENS_OP(name, text, arity, kind, ode, value, math, rule, jit, sbml) \
  case Op::name:                                                              \
    return jit;
#include "expr/ops.def"
#undef jit_arith
#undef jit_xmm0
#undef jit_libm
#undef jit_scalar_call
#undef jit_libm2
#undef jit_memory
#undef jit_compare
      default: return false;
    }
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
    if (r != in_xmm0_) movsd(xmm0, reg(r));
  }

  void result(std::uint32_t d, bool elide) {
    if (!elide) movsd(reg(d), xmm0);
    in_xmm0_ = d;
  }

  void arithmetic(SseOp op, Order order, const Instr& in, bool elide) {
    const std::uint32_t a = in.a, b = in.b, d = in.dst;
    if (a == in_xmm0_) {
      if (b == in_xmm0_)
        (this->*op)(xmm0, xmm0);
      else
        (this->*op)(xmm0, reg(b));
    } else if (b == in_xmm0_) {
      if (order == Order::commutative) {  // IEEE + and * commute
        (this->*op)(xmm0, reg(a));
      } else {
        movapd(xmm1, xmm0);
        movsd(xmm0, reg(a));
        (this->*op)(xmm0, xmm1);
      }
    } else {
      movsd(xmm0, reg(a));
      (this->*op)(xmm0, reg(b));
    }
    result(d, elide);
  }

  static constexpr std::uint32_t kNone = 0xffffffffu;
  std::uint32_t in_xmm0_ = kNone;  // register-file value xmm0 holds
  bool keep_all_values_;
  std::vector<bool> elide_;
  Xbyak::Label sign_mask_, abs_mask_, one_;
};

NativeTape::NativeTape(std::unique_ptr<NativeCode> code, Function prefix, Function main)
    : code_(std::move(code)), prefix_(prefix), main_(main) {}
NativeTape::~NativeTape() = default;

std::shared_ptr<const NativeTape> compile_native(const Tape& tape, bool keep_all_values) {
  if (!native_tapes_enabled()) return nullptr;
  if (tape.n_registers >= (1u << 28) || tape.n_outputs >= (1u << 28)) return nullptr;
  for (const Instr& in : tape.code)
    if (is_leaf(in.op()) || in.op() >= Op::count) return nullptr;  // not an instruction
  try {
    auto code = std::make_unique<NativeCode>(keep_all_values);
    const std::size_t prefix_at = code->function(tape, 0, tape.prefix_end);
    const std::size_t main_at = code->function(tape, tape.prefix_end, tape.code.size());
    if (code->getSize() > (std::size_t{1} << 30)) return nullptr;
    code->finish();
    const NativeTape::Function prefix = code->entry(prefix_at), main = code->entry(main_at);
    return std::make_shared<NativeTape>(std::move(code), prefix, main);
  } catch (const Xbyak::Error&) {
    return nullptr;  // no executable memory: the interpreter runs instead
  }
}

#else

class NativeCode {};
NativeTape::~NativeTape() = default;
std::shared_ptr<const NativeTape> compile_native(const Tape&, bool) { return nullptr; }

#endif

}  // namespace odesens::expr
