// Operator overloading behind odesens::record(): every operation on Expr
// values adds (or finds, by hash-consing) a node of the recording's graph;
// operations on plain constants are computed directly, with the same
// scalar functions as constant folding.
#include "odesens/record.hpp"

#include "expr/expr_model_impl.hpp"
#include "expr/scalar_ops.hpp"
#include "odesens/status.hpp"

namespace odesens {
namespace detail {

class Recording {
 public:
  Recording(std::size_t n_states, std::size_t n_params) : nx(n_states), np(n_params) {}
  expr::SymbolicModel model;
  std::size_t nx, np;
};

struct ExprAccess {
  static Expr make(Recording* rec, expr::NodeId id) {
    Expr e;
    e.rec_ = rec;
    e.id_ = id;
    return e;
  }
  static Condition make_condition(Recording* rec, expr::NodeId id) {
    Condition c;
    c.rec_ = rec;
    c.id_ = id;
    return c;
  }
  static Condition known(bool value) {
    Condition c;
    c.value_ = value;
    return c;
  }

  // The recording shared by the operands, or null when all are constants.
  template <class... T>
  static Recording* common(const T&... operands) {
    Recording* rec = nullptr;
    for (Recording* r : {operands.rec_...}) {
      if (!r) continue;
      if (rec && r != rec)
        throw Error(Status::invalid_argument, "record: Expr values from two different recordings");
      rec = r;
    }
    return rec;
  }

  static expr::NodeId node(Recording* rec, const Expr& e) {
    return e.rec_ ? e.id_ : rec->model.graph.constant(e.value_);
  }
  static expr::NodeId node(Recording* rec, const Condition& c) {
    return c.rec_ ? c.id_ : rec->model.graph.constant(c.value_ ? 1.0 : 0.0);
  }

  static Expr unary(expr::Op op, const Expr& a) {
    Recording* rec = common(a);
    if (!rec) return Expr(expr::scalar_unary(op, a.value_, 0));
    return make(rec, rec->model.graph.unary(op, node(rec, a)));
  }

  static Expr binary(expr::Op op, const Expr& a, const Expr& b) {
    Recording* rec = common(a, b);
    if (!rec) {
      if (op == expr::Op::pow) {  // as the graph does: integral exponents by multiplication
        expr::Graph g;
        return Expr(g.node(g.pow(g.constant(a.value_), g.constant(b.value_))).value);
      }
      return Expr(expr::scalar_binary(op, a.value_, b.value_));
    }
    return make(rec, rec->model.graph.binary(op, node(rec, a), node(rec, b)));
  }

  static Condition compare(expr::Op op, const Expr& a, const Expr& b) {
    Recording* rec = common(a, b);
    if (!rec) return known(expr::scalar_binary(op, a.value_, b.value_) != 0.0);
    return make_condition(rec, rec->model.graph.binary(op, node(rec, a), node(rec, b)));
  }

  static Condition logical(expr::Op op, const Condition& a, const Condition& b) {
    Recording* rec = common(a, b);
    if (!rec) return known(op == expr::Op::logical_and ? a.value_ && b.value_ : a.value_ || b.value_);
    return make_condition(rec, rec->model.graph.binary(op, node(rec, a), node(rec, b)));
  }

  static Condition negate(const Condition& a) {
    Recording* rec = common(a);
    if (!rec) return known(!a.value_);
    return make_condition(rec, rec->model.graph.unary(expr::Op::logical_not, node(rec, a)));
  }

  static Expr select(const Condition& c, const Expr& a, const Expr& b) {
    Recording* rec = common(c, a, b);
    if (!rec) return c.value_ ? a : b;
    if (!c.rec_) return c.value_ ? a : b;
    return make(rec, rec->model.graph.select(node(rec, c), node(rec, a), node(rec, b)));
  }

  static expr::NodeId root(Recording* rec, const Expr& e) { return node(rec, e); }
};

Expr select(const Condition& c, const Expr& if_true, const Expr& if_false) {
  return ExprAccess::select(c, if_true, if_false);
}

namespace {

std::vector<std::string> numbered(const char* prefix, std::size_t n) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < n; ++i) names.push_back(prefix + std::to_string(i + 1));
  return names;
}

void check_size(std::size_t got, std::size_t want, const char* what) {
  if (got != 0 && got != want)
    throw Error(Status::invalid_argument, std::string("record: ") + what + " has " +
                                              std::to_string(got) + " entries, expected " +
                                              std::to_string(want));
}

}  // namespace

RecordingScope::RecordingScope(std::size_t nx, std::size_t np)
    : rec_(std::make_unique<Recording>(nx, np)) {
  expr::Graph& g = rec_->model.graph;
  t_ = ExprAccess::make(rec_.get(), g.time());
  for (std::size_t i = 0; i < nx; ++i)
    x_.push_back(ExprAccess::make(rec_.get(), g.state(static_cast<int>(i))));
  for (std::size_t j = 0; j < np; ++j)
    p_.push_back(ExprAccess::make(rec_.get(), g.param(static_cast<int>(j))));
}

RecordingScope::~RecordingScope() = default;

std::shared_ptr<ExprModel> RecordingScope::finish(const Expr* rhs, const Expr* x0,
                                                  RecordOptions options) {
  Recording* rec = rec_.get();
  const std::size_t nx = rec->nx, np = rec->np;
  check_size(options.state_names.size(), nx, "state_names");
  check_size(options.param_names.size(), np, "param_names");
  check_size(options.nominal_params.size(), np, "nominal_params");
  check_size(options.x0.size(), nx, "x0");
  expr::SymbolicModel& m = rec->model;
  m.name = options.name;
  m.state_names = options.state_names.empty() ? numbered("x", nx) : options.state_names;
  m.param_names = options.param_names.empty() ? numbered("p", np) : options.param_names;
  m.nominal_params = options.nominal_params.empty() ? std::vector<double>(np, 0.0)
                                                     : options.nominal_params;
  m.t0 = options.t0;
  m.t_end = options.t_end;
  for (std::size_t i = 0; i < nx; ++i) {
    ExprAccess::common(rhs[i]);  // rejects values from another recording
    ExprAccess::common(x0[i]);
    m.rhs.push_back(ExprAccess::root(rec, rhs[i]));
    const expr::NodeId x0_node = ExprAccess::root(rec, x0[i]);
    if (m.graph.node(x0_node).depends & (expr::kOnTime | expr::kOnState))
      throw Error(Status::invalid_argument,
                  "record: x0 of state " + std::to_string(i + 1) + " depends on t or x");
    m.x0.push_back(x0_node);
  }
  return make_expr_model(std::move(m));
}

}  // namespace detail

using detail::ExprAccess;
using expr::Op;

Expr& Expr::operator+=(const Expr& o) { return *this = *this + o; }
Expr& Expr::operator-=(const Expr& o) { return *this = *this - o; }
Expr& Expr::operator*=(const Expr& o) { return *this = *this * o; }
Expr& Expr::operator/=(const Expr& o) { return *this = *this / o; }

Expr operator+(const Expr& a, const Expr& b) { return ExprAccess::binary(Op::add, a, b); }
Expr operator-(const Expr& a, const Expr& b) { return ExprAccess::binary(Op::sub, a, b); }
Expr operator*(const Expr& a, const Expr& b) { return ExprAccess::binary(Op::mul, a, b); }
Expr operator/(const Expr& a, const Expr& b) { return ExprAccess::binary(Op::div, a, b); }
Expr operator-(const Expr& a) { return ExprAccess::unary(Op::neg, a); }

Expr exp(const Expr& a) { return ExprAccess::unary(Op::exp, a); }
Expr log(const Expr& a) { return ExprAccess::unary(Op::log, a); }
Expr log10(const Expr& a) { return ExprAccess::unary(Op::log10, a); }
Expr sqrt(const Expr& a) { return ExprAccess::unary(Op::sqrt, a); }
Expr sin(const Expr& a) { return ExprAccess::unary(Op::sin, a); }
Expr cos(const Expr& a) { return ExprAccess::unary(Op::cos, a); }
Expr tan(const Expr& a) { return ExprAccess::unary(Op::tan, a); }
Expr sinh(const Expr& a) { return ExprAccess::unary(Op::sinh, a); }
Expr cosh(const Expr& a) { return ExprAccess::unary(Op::cosh, a); }
Expr tanh(const Expr& a) { return ExprAccess::unary(Op::tanh, a); }
Expr asin(const Expr& a) { return ExprAccess::unary(Op::asin, a); }
Expr acos(const Expr& a) { return ExprAccess::unary(Op::acos, a); }
Expr atan(const Expr& a) { return ExprAccess::unary(Op::atan, a); }
Expr abs(const Expr& a) { return ExprAccess::unary(Op::abs, a); }
Expr fabs(const Expr& a) { return ExprAccess::unary(Op::abs, a); }
Expr pow(const Expr& a, const Expr& b) { return ExprAccess::binary(Op::pow, a, b); }
Expr min(const Expr& a, const Expr& b) { return ExprAccess::binary(Op::min, a, b); }
Expr max(const Expr& a, const Expr& b) { return ExprAccess::binary(Op::max, a, b); }
Expr hill(const Expr& x, const Expr& K, const Expr& n) {
  const Expr xn = pow(x, n);
  return xn / (pow(K, n) + xn);
}

Condition operator<(const Expr& a, const Expr& b) { return ExprAccess::compare(Op::lt, a, b); }
Condition operator<=(const Expr& a, const Expr& b) { return ExprAccess::compare(Op::le, a, b); }
Condition operator>(const Expr& a, const Expr& b) { return ExprAccess::compare(Op::gt, a, b); }
Condition operator>=(const Expr& a, const Expr& b) { return ExprAccess::compare(Op::ge, a, b); }
Condition operator==(const Expr& a, const Expr& b) { return ExprAccess::compare(Op::eq, a, b); }
Condition operator!=(const Expr& a, const Expr& b) { return ExprAccess::compare(Op::ne, a, b); }
Condition operator&&(const Condition& a, const Condition& b) {
  return ExprAccess::logical(Op::logical_and, a, b);
}
Condition operator||(const Condition& a, const Condition& b) {
  return ExprAccess::logical(Op::logical_or, a, b);
}
Condition operator!(const Condition& a) { return ExprAccess::negate(a); }

}  // namespace odesens
