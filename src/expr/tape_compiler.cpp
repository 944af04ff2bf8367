// Compilation of DAG roots into a tape: reachability (dead-code removal),
// topological order (node ids), parameter-only hoisting, register
// allocation by last use, and the adjoint modes of the reverse sweep.
#include <algorithm>
#include <atomic>
#include <unordered_map>

#include "expr/native_tape.hpp"
#include "expr/tape.hpp"
#include "odesens/status.hpp"

namespace odesens::expr {
namespace {

std::uint64_t next_tape_id() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

bool is_parameter_only(const Node& n) { return (n.depends & (kOnTime | kOnState)) == 0; }

// Operand slots whose adjoint the reverse sweep propagates.
bool differentiable_slot(Op op, int slot) {
  if (is_condition(op) || is_piecewise_constant(op)) return false;
  if (op == Op::select) return slot != 0;
  if (op == Op::powi) return slot == 0;
  return slot < arity(op);
}

class Compiler {
 public:
  Compiler(const Graph& g, const std::vector<NodeId>& roots, std::size_t nx, std::size_t np,
           TapeKind kind)
      : g_(g), roots_(roots), kind_(kind) {
    tape_.nx = static_cast<std::uint32_t>(nx);
    tape_.np = static_cast<std::uint32_t>(np);
    tape_.n_outputs = static_cast<std::uint32_t>(roots.size());
  }

  Tape run() {
    collect();
    order();
    emit();
    if (kind_ == TapeKind::values)
      allocate_reusing();
    else
      allocate_single_assignment();
    if (kind_ == TapeKind::adjoint)
      mark_adjoint_modes();
    else
      mark_varying_operands();
    tape_.id = next_tape_id();
    tape_.native = compile_native(tape_, kind_ == TapeKind::adjoint);
    return std::move(tape_);
  }

 private:
  static constexpr std::uint32_t kUnassigned = 0xffffffffu;

  // Reachable operations (ops_) and constants (registers assigned here).
  void collect() {
    std::vector<NodeId> stack(roots_.begin(), roots_.end());
    while (!stack.empty()) {
      const NodeId id = stack.back();
      stack.pop_back();
      if (reg_.count(id) || seen_op_.count(id)) continue;
      const Node& n = g_.node(id);
      switch (n.op) {
        case Op::time: reg_[id] = 0; continue;
        case Op::state: reg_[id] = 1 + static_cast<std::uint32_t>(n.index); continue;
        case Op::param: reg_[id] = 1 + tape_.nx + static_cast<std::uint32_t>(n.index); continue;
        case Op::constant: constants_.push_back(id); reg_[id] = kUnassigned; continue;
        default: break;
      }
      seen_op_[id] = true;
      ops_.push_back(id);
      for (NodeId c : {n.a, n.b, n.c})
        if (c != kNoNode) stack.push_back(c);
    }
    std::sort(constants_.begin(), constants_.end());
    for (NodeId id : constants_) {
      reg_[id] = 1 + tape_.nx + tape_.np + static_cast<std::uint32_t>(tape_.constants.size());
      tape_.constants.push_back(g_.node(id).value);
    }
    first_temporary_ = 1 + tape_.nx + tape_.np + static_cast<std::uint32_t>(constants_.size());
  }

  void order() {
    std::sort(ops_.begin(), ops_.end());
    if (kind_ == TapeKind::values) {
      auto mid = std::stable_partition(ops_.begin(), ops_.end(),
                                       [this](NodeId id) { return is_parameter_only(g_.node(id)); });
      n_prefix_ops_ = static_cast<std::size_t>(mid - ops_.begin());
      // Worth it only when the skipped work outweighs comparing p per call.
      if (n_prefix_ops_ < std::max<std::size_t>(4, tape_.np / 4)) {
        n_prefix_ops_ = 0;
        std::sort(ops_.begin(), ops_.end());
      }
    }
  }

  // Instructions with node operands (registers assigned later). Stores of a
  // root come right after its instruction, or at the start of the main part
  // for roots that are inputs, constants or prefix results.
  void emit() {
    std::unordered_map<NodeId, std::vector<std::uint32_t>> outputs_of;
    for (std::size_t k = 0; k < roots_.size(); ++k)
      outputs_of[roots_[k]].push_back(static_cast<std::uint32_t>(k));
    auto emit_stores = [&](NodeId id) {
      auto it = outputs_of.find(id);
      if (it == outputs_of.end()) return;
      for (std::uint32_t k : it->second) pending_.push_back({Op::store, k, id, kNoNode, kNoNode, 0});
    };
    for (std::size_t k = 0; k < n_prefix_ops_; ++k) emit_op(ops_[k]);
    tape_.prefix_end = static_cast<std::uint32_t>(pending_.size());
    for (std::size_t k = 0; k < roots_.size(); ++k) {
      const NodeId r = roots_[k];
      if (!seen_op_.count(r) || is_prefix(r))
        pending_.push_back({Op::store, static_cast<std::uint32_t>(k), r, kNoNode, kNoNode, 0});
    }
    for (std::size_t k = n_prefix_ops_; k < ops_.size(); ++k) {
      emit_op(ops_[k]);
      emit_stores(ops_[k]);
    }
  }

  bool is_prefix(NodeId id) const {
    auto end = ops_.begin() + static_cast<std::ptrdiff_t>(n_prefix_ops_);
    return std::binary_search(ops_.begin(), end, id);
  }

  void emit_op(NodeId id) {
    const Node& n = g_.node(id);
    pending_.push_back({n.op, id, n.a, n.b, n.c, n.index});
  }

  struct Pending {
    Op op;
    std::uint32_t dst;  // node id (output index for store)
    NodeId a, b, c;
    std::int32_t index;
  };

  std::uint32_t operand_register(NodeId id) const { return id == kNoNode ? 0 : reg_.at(id); }

  void finish_instruction(const Pending& p) {
    Instr in{};
    in.code = static_cast<std::uint32_t>(p.op);
    in.dst = p.op == Op::store ? p.dst : reg_.at(p.dst);
    in.a = operand_register(p.a);
    in.b = p.op == Op::powi ? static_cast<std::uint32_t>(p.index) : operand_register(p.b);
    in.c = operand_register(p.c);
    tape_.code.push_back(in);
  }

  void allocate_reusing() {
    // Last instruction reading each node.
    std::unordered_map<NodeId, std::size_t> last_use;
    for (std::size_t k = 0; k < pending_.size(); ++k) {
      const Pending& p = pending_[k];
      for (NodeId o : operands(p)) last_use[o] = k;
    }
    std::vector<std::uint32_t> free_list;
    std::uint32_t next = first_temporary_;
    for (std::size_t k = 0; k < pending_.size(); ++k) {
      const Pending& p = pending_[k];
      const bool in_main = k >= tape_.prefix_end;
      NodeId ops[3];
      int n_ops = 0;
      for (NodeId o : operands(p)) {
        if (!seen_op_.count(o) || last_use[o] != k) continue;
        if (std::find(ops, ops + n_ops, o) != ops + n_ops) continue;
        ops[n_ops++] = o;
      }
      for (int i = 0; i < n_ops; ++i) {
        // Prefix results read by the main part stay put (the prefix may be skipped).
        if (in_main && is_prefix(ops[i])) continue;
        free_list.push_back(reg_.at(ops[i]));
      }
      if (p.op != Op::store) {
        std::uint32_t r;
        if (!free_list.empty()) {
          r = free_list.back();
          free_list.pop_back();
        } else {
          r = next++;
        }
        reg_[p.dst] = r;
      }
      finish_instruction(p);
    }
    tape_.n_registers = next;
  }

  void allocate_single_assignment() {
    std::uint32_t next = first_temporary_;
    for (const Pending& p : pending_) {
      if (p.op != Op::store) reg_[p.dst] = next++;
      finish_instruction(p);
    }
    tape_.n_registers = next;
  }

  // On value tapes the modes only say which operands are not constants, so
  // the tangent evaluator knows when pow's exponent can move.
  void mark_varying_operands() {
    const std::uint32_t first_const = 1 + tape_.nx + tape_.np;
    for (Instr& in : tape_.code) {
      if (in.op() == Op::store) continue;
      const std::uint32_t regs[3] = {in.a, in.b, in.c};
      for (int s = 0; s < 3; ++s) {
        const bool constant = regs[s] >= first_const && regs[s] < first_temporary_;
        if (differentiable_slot(in.op(), s) && !constant) in.code |= kAccumulate << (8 + 2 * s);
      }
    }
  }

  // Walks the tape backwards: the first adjoint contribution to a temporary
  // (in reverse order) assigns, later ones accumulate; input registers are
  // zeroed by the caller and always accumulate; t and constants are skipped.
  void mark_adjoint_modes() {
    std::vector<bool> touched(tape_.n_registers, false);
    const std::uint32_t first_const = 1 + tape_.nx + tape_.np;
    auto mode_for = [&](std::uint32_t r) -> std::uint32_t {
      if (r == 0 || (r >= first_const && r < first_temporary_)) return kSkip;
      if (r < first_temporary_) return kAccumulate;
      if (touched[r]) return kAccumulate;
      touched[r] = true;
      return kAssign;
    };
    for (std::size_t k = tape_.code.size(); k-- > 0;) {
      Instr& in = tape_.code[k];
      const Op op = in.op();
      if (op == Op::store) {
        in.code |= mode_for(in.a) << 8;
        continue;
      }
      if (!touched[in.dst]) continue;  // no adjoint reaches this result
      in.code |= 1u << 14;
      const std::uint32_t regs[3] = {in.a, in.b, in.c};
      for (int s = 0; s < 3; ++s)
        if (differentiable_slot(op, s)) in.code |= mode_for(regs[s]) << (8 + 2 * s);
    }
  }

  static std::vector<NodeId> operands(const Pending& p) {
    std::vector<NodeId> v;
    if (p.a != kNoNode) v.push_back(p.a);
    if (p.op != Op::powi && p.b != kNoNode) v.push_back(p.b);
    if (p.c != kNoNode) v.push_back(p.c);
    return v;
  }

  const Graph& g_;
  const std::vector<NodeId>& roots_;
  TapeKind kind_;
  Tape tape_;
  std::unordered_map<NodeId, std::uint32_t> reg_;
  std::unordered_map<NodeId, bool> seen_op_;
  std::vector<NodeId> ops_, constants_;
  std::size_t n_prefix_ops_ = 0;
  std::uint32_t first_temporary_ = 0;
  std::vector<Pending> pending_;
};

}  // namespace

Tape compile_tape(const Graph& g, const std::vector<NodeId>& roots, std::size_t nx,
                  std::size_t np, TapeKind kind) {
  if (nx + np + g.size() >= 0xfffffff0u)
    throw Error(Status::unsupported, "model too large for a 32-bit register file");
  return Compiler(g, roots, nx, np, kind).run();
}

}  // namespace odesens::expr
