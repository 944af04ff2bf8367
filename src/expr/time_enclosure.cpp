// TimeEnclosure (time_enclosure.hpp).
#include "expr/time_enclosure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "expr/scalar_ops.hpp"

namespace odesens::expr {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kPi = 3.14159265358979323846;
constexpr Range kWhole{-kInf, kInf};
// NaN at every t (sqrt of a range below 0): {NaN, NaN}.
const Range kNaN{std::nan(""), std::nan("")};
constexpr Range kTrue{1.0, 1.0}, kFalse{0.0, 0.0}, kEither{0.0, 1.0};

// [lo, hi] moved outward by `ulps` units of its bounds' magnitude (and
// the smallest subnormal): more than the rounding of one operation. A NaN
// bound makes the whole line. ulps 0: the bounds as they are, for + - * /
// and sqrt, which the evaluators round to nearest as here: rounding is
// monotone, so fl(a + b) for a, b within ranges lies between the rounded
// bounds. (Widening those too made exact zeros undecided: min(t, 3) - 3
// over [3, 10] is 0, and `>= 0` holds there.)
Range outward(double lo, double hi, double ulps) {
  if (std::isnan(lo) || std::isnan(hi)) return kWhole;
  if (ulps == 0.0) return {lo, hi};
  const double tiny = std::numeric_limits<double>::denorm_min();
  if (std::isfinite(lo)) lo -= std::fabs(lo) * ulps * kEps + tiny;
  if (std::isfinite(hi)) hi += std::fabs(hi) * ulps * kEps + tiny;
  return {lo, hi};
}

Range hull(const Range& a, const Range& b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

bool contains(const Range& a, double v) { return a.lo <= v && v <= a.hi; }

bool whole(const Range& a) { return a.lo == -kInf && a.hi == kInf; }
bool all_nan(const Range& a) { return std::isnan(a.lo); }

// A monotone function's range from its values at the ends.
template <class F>
Range increasing(const Range& a, F f, double ulps) {
  return outward(f(a.lo), f(a.hi), ulps);
}
template <class F>
Range decreasing(const Range& a, F f, double ulps) {
  return outward(f(a.hi), f(a.lo), ulps);
}

Range product(const Range& a, const Range& b) {
  const double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  for (double v : p)
    if (std::isnan(v)) return kWhole;  // 0 * Inf
  return outward(*std::min_element(p, p + 4), *std::max_element(p, p + 4), 0.0);
}

Range quotient(const Range& a, const Range& b) {
  if (contains(b, 0.0)) return kWhole;
  const double q[4] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
  for (double v : q)
    if (std::isnan(v)) return kWhole;  // Inf / Inf
  return outward(*std::min_element(q, q + 4), *std::max_element(q, q + 4), 0.0);
}

// x^n by the evaluators' own binary powering (scalar_ops.hpp): a product
// of rounded products, monotone in |x| and odd or even as x^n, so its
// values at the ends bound it without widening.
Range integer_power(const Range& a, int n) {
  if (n == 0) return kTrue;
  const int m = n < 0 ? -n : n;
  const auto pw = [m](double v) { return powi(v, m); };
  Range r;
  if (m % 2 == 1 || a.lo >= 0.0) r = increasing(a, pw, 0.0);
  else if (a.hi <= 0.0) r = decreasing(a, pw, 0.0);
  else r = outward(0.0, std::max(pw(a.lo), pw(a.hi)), 0.0);
  return n > 0 ? r : quotient(kTrue, r);
}

// Whether [lo, hi] holds a point c + k * period for some integer k,
// counting points within a margin of the bounds (the period's multiples
// are rounded): an extremum of sin or cos.
bool holds_periodic(const Range& a, double c, double period) {
  const double margin = 8.0 * kEps * std::max({std::fabs(a.lo), std::fabs(a.hi), 1.0});
  const double k = std::ceil((a.lo - margin - c) / period);
  return c + k * period <= a.hi + margin;
}

// sin (phase 0) or cos (phase pi/2): the values at the ends, widened to
// 1 or -1 where the range holds a maximum or a minimum.
Range sine(const Range& a, bool cosine) {
  if (!std::isfinite(a.lo) || !std::isfinite(a.hi) || a.hi - a.lo >= 2.0 * kPi)
    return {-1.0, 1.0};
  const auto f = [cosine](double v) { return cosine ? std::cos(v) : std::sin(v); };
  Range r = outward(std::min(f(a.lo), f(a.hi)), std::max(f(a.lo), f(a.hi)), 4.0);
  const double max_at = cosine ? 0.0 : 0.5 * kPi, min_at = cosine ? kPi : -0.5 * kPi;
  if (holds_periodic(a, max_at, 2.0 * kPi)) r.hi = 1.0;
  if (holds_periodic(a, min_at, 2.0 * kPi)) r.lo = -1.0;
  return {std::max(r.lo, -1.0), std::min(r.hi, 1.0)};
}

Range tangent(const Range& a) {
  if (!std::isfinite(a.lo) || !std::isfinite(a.hi) || a.hi - a.lo >= kPi ||
      holds_periodic(a, 0.5 * kPi, kPi))
    return kWhole;
  return increasing(a, [](double v) { return std::tan(v); }, 4.0);
}

Range hyperbolic_cosine(const Range& a) {
  const auto f = [](double v) { return std::cosh(v); };
  if (a.lo >= 0.0) return increasing(a, f, 4.0);
  if (a.hi <= 0.0) return decreasing(a, f, 4.0);
  return outward(1.0, std::max(f(a.lo), f(a.hi)), 4.0);
}

Range absolute(const Range& a) {
  if (a.lo >= 0.0) return a;
  if (a.hi <= 0.0) return {-a.hi, -a.lo};
  return {0.0, std::max(-a.lo, a.hi)};
}

// A function defined on [lower, upper] only: NaN where the range lies
// outside, the whole line (may be NaN) where it reaches outside.
template <class F>
Range within(const Range& a, double lower, double upper, F f, bool rising) {
  if (a.hi < lower || a.lo > upper) return kNaN;
  if (a.lo < lower || a.hi > upper) return kWhole;
  return rising ? increasing(a, f, 4.0) : decreasing(a, f, 4.0);
}

Range power(const Range& a, const Range& b) {
  if (b.lo == b.hi && std::isfinite(b.lo) && b.lo == std::trunc(b.lo) &&
      std::fabs(b.lo) <= 1 << 20)
    return integer_power(a, static_cast<int>(b.lo));
  if (!(a.lo > 0.0)) return kWhole;  // a negative base or 0^-b
  // a^b = exp(b log a) moves with the sign of b and log a: its range is
  // spanned by the four corners; pow is within 1 ulp.
  double v[4] = {std::pow(a.lo, b.lo), std::pow(a.lo, b.hi), std::pow(a.hi, b.lo),
                 std::pow(a.hi, b.hi)};
  return outward(*std::min_element(v, v + 4), *std::max_element(v, v + 4), 4.0);
}

// The truth of a condition's value: decided true (all non-zero, NaN
// included), decided false (exactly 0), or either.
Range truth(const Range& a) {
  if (a.lo == 0.0 && a.hi == 0.0) return kFalse;
  if (a.lo > 0.0 || a.hi < 0.0) return kTrue;
  return kEither;
}

Range decided(bool always, bool never) { return always ? kTrue : never ? kFalse : kEither; }

Range comparison(Op op, const Range& a, const Range& b) {
  switch (op) {
    case Op::lt: return decided(a.hi < b.lo, a.lo >= b.hi);
    case Op::le: return decided(a.hi <= b.lo, a.lo > b.hi);
    case Op::gt: return decided(a.lo > b.hi, a.hi <= b.lo);
    case Op::ge: return decided(a.lo >= b.hi, a.hi < b.lo);
    case Op::eq:
      return decided(a.lo == a.hi && b.lo == b.hi && a.lo == b.lo, a.hi < b.lo || b.hi < a.lo);
    default:  // ne
      return decided(a.hi < b.lo || b.hi < a.lo, a.lo == a.hi && b.lo == b.hi && a.lo == b.lo);
  }
}

Range logical(Op op, const Range& a, const Range& b) {
  const Range ta = truth(a), tb = truth(b);
  switch (op) {
    case Op::logical_not: return {1.0 - ta.hi, 1.0 - ta.lo};
    case Op::logical_and: return {std::min(ta.lo, tb.lo), std::min(ta.hi, tb.hi)};
    default: return {std::max(ta.lo, tb.lo), std::max(ta.hi, tb.hi)};  // logical_or
  }
}

Range unary_range(Op op, const Range& a, int n) {
  const auto up = [&](double (*f)(double)) { return increasing(a, f, 4.0); };
  switch (op) {
    case Op::neg: return {-a.hi, -a.lo};
    case Op::exp: return up(std::exp);
    case Op::log: return a.hi < 0.0 ? kNaN : a.lo < 0.0 ? kWhole : up(std::log);
    case Op::log10: return a.hi < 0.0 ? kNaN : a.lo < 0.0 ? kWhole : up(std::log10);
    case Op::sqrt:
      if (a.hi < 0.0) return kNaN;
      return a.lo < 0.0 ? kWhole : increasing(a, [](double v) { return std::sqrt(v); }, 0.0);
    case Op::sin: return sine(a, false);
    case Op::cos: return sine(a, true);
    case Op::tan: return tangent(a);
    case Op::sinh: return up(std::sinh);
    case Op::cosh: return hyperbolic_cosine(a);
    case Op::tanh: return up(std::tanh);
    case Op::asin: return within(a, -1.0, 1.0, [](double v) { return std::asin(v); }, true);
    case Op::acos: return within(a, -1.0, 1.0, [](double v) { return std::acos(v); }, false);
    case Op::atan: return up(std::atan);
    case Op::floor: return {std::floor(a.lo), std::floor(a.hi)};
    case Op::ceil: return {std::ceil(a.lo), std::ceil(a.hi)};
    case Op::abs: return absolute(a);
    case Op::powi: return integer_power(a, n);
    case Op::logical_not: return logical(op, a, a);
    default: return kWhole;  // factorial: meant for integers, not enclosed
  }
}

// An operation with an operand that is NaN at every t, as the evaluators
// compute it: comparisons fail (but !=), NaN is true as a condition,
// min(a, NaN) is NaN and min(NaN, b) is b (ops.def), NaN^0 is 1, and the
// other functions are NaN.
Range with_nan_operand(Op op, const Range& a, const Range& b, const Range& c, int n) {
  switch (op) {
    case Op::lt: case Op::le: case Op::gt: case Op::ge: case Op::eq: return kFalse;
    case Op::ne: return kTrue;
    case Op::logical_not: return all_nan(a) ? kFalse : range_of(op, a, a, a, 0);
    case Op::logical_and: return range_of(op, all_nan(a) ? kTrue : a, all_nan(b) ? kTrue : b, c, 0);
    case Op::logical_or: return kTrue;
    case Op::select: return all_nan(a) ? b : range_of(op, a, b, c, 0);
    case Op::min: case Op::max: return all_nan(b) ? kNaN : b;
    case Op::pow: return kWhole;  // pow(NaN, 0) and pow(1, NaN) are 1
    case Op::powi: return n == 0 ? kTrue : kNaN;
    default: return kNaN;
  }
}

}  // namespace

Range range_of(Op op, const Range& a, const Range& b, const Range& c, int n) {
  const int m = arity(op);
  // NaN at every t: as the evaluators take it. A select's branches are
  // only its value.
  if (all_nan(a) || (m > 1 && op != Op::select && all_nan(b)))
    return with_nan_operand(op, a, b, c, n);
  // The whole line may stand for NaN, which a function carries on (abs,
  // exp) or not (min(1, NaN) is NaN, min(NaN, 1) is 1): the whole line
  // again. Conditions and select read it as undecided.
  const bool whole_operand = whole(a) || (m > 1 && whole(b));
  if (whole_operand && !is_condition(op) && op != Op::select) return kWhole;
  switch (op) {
    case Op::add: return outward(a.lo + b.lo, a.hi + b.hi, 0.0);
    case Op::sub: return outward(a.lo - b.hi, a.hi - b.lo, 0.0);
    case Op::mul: return product(a, b);
    case Op::div: return quotient(a, b);
    case Op::pow: return power(a, b);
    // min and max pick an operand: no rounding.
    case Op::min: return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
    case Op::max: return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
    case Op::lt: case Op::le: case Op::gt: case Op::ge: case Op::eq: case Op::ne:
      return comparison(op, a, b);
    case Op::logical_and: case Op::logical_or: return logical(op, a, b);
    case Op::select: {
      const Range t = truth(a);
      if (t.lo == 1.0) return b;
      if (t.hi == 0.0) return c;
      return all_nan(b) || all_nan(c) ? kWhole : hull(b, c);
    }
    default: return arity(op) == 1 ? unary_range(op, a, n) : kWhole;
  }
}

TimeEnclosure::TimeEnclosure(const Graph& graph, NodeId value) {
  // The nodes value needs, in id order (a topological order), renumbered.
  std::vector<NodeId> stack{value}, needed;
  std::unordered_map<NodeId, NodeId> index;
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    if (index.count(id)) continue;
    const Node& n = graph.node(id);
    if (n.op == Op::state) return;  // not a value of t alone: not usable
    index[id] = 0;
    needed.push_back(id);
    const int k = is_leaf(n.op) ? 0 : arity(n.op);
    if (k > 0) stack.push_back(n.a);
    if (k > 1) stack.push_back(n.b);
    if (k > 2) stack.push_back(n.c);
  }
  std::sort(needed.begin(), needed.end());
  for (std::size_t k = 0; k < needed.size(); ++k) index[needed[k]] = static_cast<NodeId>(k);
  nodes_.reserve(needed.size());
  for (NodeId id : needed) {
    Node n = graph.node(id);
    const int k = is_leaf(n.op) ? 0 : arity(n.op);
    if (k > 0) n.a = index[n.a];
    if (k > 1) n.b = index[n.b];
    if (k > 2) n.c = index[n.c];
    nodes_.push_back(n);
  }
}

Range TimeEnclosure::over(double ta, double tb, const double* p,
                          std::vector<Range>& scratch) const {
  if (nodes_.empty()) return kWhole;
  scratch.resize(nodes_.size());
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    const Node& n = nodes_[k];
    switch (n.op) {
      case Op::constant: scratch[k] = {n.value, n.value}; break;
      case Op::param: scratch[k] = {p[n.index], p[n.index]}; break;
      case Op::time: scratch[k] = {ta, tb}; break;
      default: {
        const int m = arity(n.op);
        const Range& a = scratch[n.a];
        const Range& b = m > 1 ? scratch[n.b] : a;
        const Range& c = m > 2 ? scratch[n.c] : a;
        scratch[k] = range_of(n.op, a, b, c, n.index);
      }
    }
  }
  return scratch.back();
}

}  // namespace odesens::expr
