#include "arith/model_operations.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "odesens/status.hpp"

namespace odesens::arith {
namespace {

// "[lo, hi]" to six significant digits, for the messages of this file.
std::string short_range_text(const Interval& v) {
  std::ostringstream os;
  os.precision(6);
  os << "[" << v.lower() << ", " << v.upper() << "]";
  return os.str();
}

[[noreturn]] void undecided(expr::Op op, const std::string& what, const Interval& range) {
  throw Error(Status::unbounded, std::string("'") + expr::op_name(op) + "' " + what +
                                     " inside the parameter box (its argument ranges over " +
                                     short_range_text(range) + ")");
}

UnaryFunction unary_function(expr::Op op) {
  switch (op) {
    case expr::Op::exp: return UnaryFunction::exp;
    case expr::Op::log: return UnaryFunction::log;
    case expr::Op::log10: return UnaryFunction::log10;
    case expr::Op::sqrt: return UnaryFunction::sqrt;
    case expr::Op::sin: return UnaryFunction::sin;
    case expr::Op::cos: return UnaryFunction::cos;
    case expr::Op::tan: return UnaryFunction::tan;
    case expr::Op::sinh: return UnaryFunction::sinh;
    case expr::Op::cosh: return UnaryFunction::cosh;
    case expr::Op::tanh: return UnaryFunction::tanh;
    case expr::Op::asin: return UnaryFunction::asin;
    case expr::Op::acos: return UnaryFunction::acos;
    case expr::Op::atan: return UnaryFunction::atan;
    default:
      throw Error(Status::internal_error,
                  std::string("no polynomial-model function for '") + expr::op_name(op) + "'");
  }
}

}  // namespace

bool is_exact_constant(const PolyModel& a, double* c) {
  if (a.rem.lower() != 0.0 || a.rem.upper() != 0.0) return false;
  for (std::size_t k = 1; k < a.coef.size(); ++k)
    if (a.coef[k] != 0.0) return false;
  *c = a.coef.empty() ? 0.0 : a.coef[0];
  return true;
}

ModelOperations::ModelOperations(const PolyArithmetic& arith)
    : arith_(&arith), difference_(arith.make()) {}

void ModelOperations::assign(PolyModel& out, const PolyModel& a) const { arith_->assign(out, a); }

bool ModelOperations::decide_comparison(expr::Op op, const PolyModel& a, const PolyModel& b) {
  using expr::Op;
  arith_->sub(a, b, difference_);
  const Interval d = arith_->bound(difference_);
  const double lo = d.lower(), hi = d.upper();
  switch (op) {
    case Op::lt:
      if (hi < 0.0) return true;
      if (lo >= 0.0) return false;
      break;
    case Op::le:
      if (hi <= 0.0) return true;
      if (lo > 0.0) return false;
      break;
    case Op::gt:
      if (lo > 0.0) return true;
      if (hi <= 0.0) return false;
      break;
    case Op::ge:
      if (lo >= 0.0) return true;
      if (hi < 0.0) return false;
      break;
    case Op::eq:
      if (lo == 0.0 && hi == 0.0) return true;
      if (lo > 0.0 || hi < 0.0) return false;
      break;
    case Op::ne:
      if (lo == 0.0 && hi == 0.0) return false;
      if (lo > 0.0 || hi < 0.0) return true;
      break;
    default: break;
  }
  undecided(op, "is a condition that changes value", d);
}

bool ModelOperations::decide_truth(expr::Op op, const PolyModel& a) {
  const Interval v = arith_->bound(a);
  if (v.lower() > 0.0 || v.upper() < 0.0) return true;
  if (v.lower() == 0.0 && v.upper() == 0.0) return false;
  undecided(op, "has a condition that changes value", v);
}

void ModelOperations::piecewise_constant(expr::Op op, const PolyModel& a, PolyModel& out) {
  const Interval v = arith_->bound(a);
  double value = 0.0;
  switch (op) {
    case expr::Op::floor:
      if (std::floor(v.lower()) != std::floor(v.upper())) undecided(op, "jumps", v);
      value = std::floor(v.lower());
      break;
    case expr::Op::ceil:
      if (std::ceil(v.lower()) != std::ceil(v.upper())) undecided(op, "jumps", v);
      value = std::ceil(v.lower());
      break;
    default: {  // factorial: defined on integers; the argument must be one integer
      const double n = v.lower();
      if (n != v.upper() || n != std::floor(n) || n < 0.0 || n > 170.0)
        undecided(op, "needs one non-negative integer argument and varies or is not one", v);
      Interval f(1.0, 1.0);
      for (int k = 2; k <= static_cast<int>(n); ++k) f *= Interval(k, k);
      arith_->set_interval(out, f);
      return;
    }
  }
  arith_->set_constant(out, value);
}

void ModelOperations::apply(expr::Op op, const PolyModel& a, const PolyModel& b,
                            const PolyModel& c, int n, PolyModel& out) {
  using expr::Op;
  switch (op) {
    case Op::neg: arith_->neg(a, out); return;
    case Op::add: arith_->add(a, b, out); return;
    case Op::sub: arith_->sub(a, b, out); return;
    case Op::mul: arith_->mul(a, b, out); return;
    case Op::div: arith_->div(a, b, out); return;
    case Op::powi: arith_->powi(a, n, out); return;
    case Op::abs: arith_->abs(a, out); return;
    case Op::min: arith_->min(a, b, out); return;
    case Op::max: arith_->max(a, b, out); return;
    case Op::pow: {
      double exponent = 0.0;
      if (is_exact_constant(b, &exponent)) {
        arith_->pow_real(a, exponent, out);
      } else {  // a^b = exp(b log a), a > 0 over the box (log checks it)
        arith_->apply(UnaryFunction::log, a, difference_);
        arith_->mul(b, difference_, difference_);
        arith_->apply(UnaryFunction::exp, difference_, out);
      }
      return;
    }
    case Op::floor:
    case Op::ceil:
    case Op::factorial: piecewise_constant(op, a, out); return;
    case Op::lt:
    case Op::le:
    case Op::gt:
    case Op::ge:
    case Op::eq:
    case Op::ne: arith_->set_constant(out, decide_comparison(op, a, b) ? 1.0 : 0.0); return;
    case Op::logical_not: arith_->set_constant(out, decide_truth(op, a) ? 0.0 : 1.0); return;
    case Op::logical_and: {
      const bool v = decide_truth(op, a) && decide_truth(op, b);
      arith_->set_constant(out, v ? 1.0 : 0.0);
      return;
    }
    case Op::logical_or: {
      const bool v = decide_truth(op, a) || decide_truth(op, b);
      arith_->set_constant(out, v ? 1.0 : 0.0);
      return;
    }
    case Op::select: {
      // Copy before writing: out may alias a, b or c.
      const PolyModel& chosen = decide_truth(op, a) ? b : c;
      if (&chosen != &out) assign(out, chosen);
      return;
    }
    default: arith_->apply(unary_function(op), a, out); return;
  }
}

}  // namespace odesens::arith
