// record(): a model defined by writing its right-hand side once, as generic
// C++ code, and recording it into an expression graph.
//
//   odesens::RecordOptions options;  // names, nominal p, x0 (optional)
//   options.nominal_params = {7, 15};
//   options.x0 = {0, 0, -0.1};
//   auto model = odesens::record(3, 2,
//       [](auto t, const auto* x, const auto* p, auto* dx) {
//         auto g = -8.0 / 7.0 * x[0] + 4.0 / 63.0 * pow(x[0], 3);
//         dx[0] = p[0] * (x[1] - x[0] - g);
//         dx[1] = x[0] - x[1] + x[2];
//         dx[2] = -p[1] * x[1];
//       },
//       options);
//
// The function runs once, with odesens::Expr in place of double: every
// operation on an Expr adds a node to the graph (operator overloading), and
// the result is an ExprModel with exact derivatives (expr_model.hpp). Write
// functions unqualified (exp(x), pow(x, 3), min(a, b)) so that they are
// found for Expr by argument-dependent lookup; if the same lambda is also
// called with double, add `using std::exp;` etc. for the double case (but
// not std::min/std::max, which would capture Expr arguments).
//
// Control flow must not depend on values (the function runs once, on
// symbols): use piecewise(v1, c1, v2, c2, ..., otherwise) with conditions
// built from < <= > >= == != && || ! instead of `if`.
//
// Expr values are valid only during the record() call that made them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "odesens/expr_model.hpp"

namespace odesens {

class Expr;
class Condition;

namespace detail {
class Recording;
struct ExprAccess;
}  // namespace detail

// A recorded scalar: a node of the graph being recorded, or a plain
// constant not yet attached to any graph.
class Expr {
 public:
  Expr() = default;                       // the constant 0
  Expr(double value) : value_(value) {}   // NOLINT: implicit, so 2.0 * x works

  Expr& operator+=(const Expr& o);
  Expr& operator-=(const Expr& o);
  Expr& operator*=(const Expr& o);
  Expr& operator/=(const Expr& o);

 private:
  friend struct detail::ExprAccess;
  detail::Recording* rec_ = nullptr;
  std::uint32_t id_ = 0;
  double value_ = 0.0;
};

// A recorded condition (value 1 or 0), usable only inside piecewise().
class Condition {
 private:
  friend struct detail::ExprAccess;
  detail::Recording* rec_ = nullptr;
  std::uint32_t id_ = 0;
  bool value_ = false;
};

Expr operator+(const Expr& a, const Expr& b);
Expr operator-(const Expr& a, const Expr& b);
Expr operator*(const Expr& a, const Expr& b);
Expr operator/(const Expr& a, const Expr& b);
Expr operator-(const Expr& a);
inline Expr operator+(const Expr& a) { return a; }

Expr exp(const Expr& a);
Expr log(const Expr& a);
Expr log10(const Expr& a);
Expr sqrt(const Expr& a);
Expr sin(const Expr& a);
Expr cos(const Expr& a);
Expr tan(const Expr& a);
Expr sinh(const Expr& a);
Expr cosh(const Expr& a);
Expr tanh(const Expr& a);
Expr asin(const Expr& a);
Expr acos(const Expr& a);
Expr atan(const Expr& a);
Expr abs(const Expr& a);
Expr fabs(const Expr& a);
// An integral constant exponent is computed by multiplications, exact for
// negative bases (pow(x, 3) with x < 0).
Expr pow(const Expr& a, const Expr& b);
Expr min(const Expr& a, const Expr& b);
Expr max(const Expr& a, const Expr& b);
// x^n / (K^n + x^n)
Expr hill(const Expr& x, const Expr& K, const Expr& n);

Condition operator<(const Expr& a, const Expr& b);
Condition operator<=(const Expr& a, const Expr& b);
Condition operator>(const Expr& a, const Expr& b);
Condition operator>=(const Expr& a, const Expr& b);
Condition operator==(const Expr& a, const Expr& b);
Condition operator!=(const Expr& a, const Expr& b);
Condition operator&&(const Condition& a, const Condition& b);
Condition operator||(const Condition& a, const Condition& b);
Condition operator!(const Condition& a);

namespace detail {
Expr select(const Condition& c, const Expr& if_true, const Expr& if_false);
inline Expr piecewise_tail(const Expr& otherwise) { return otherwise; }
template <class... Rest>
Expr piecewise_tail(const Expr& v, const Condition& c, const Rest&... rest) {
  return select(c, v, piecewise_tail(rest...));
}
}  // namespace detail

// piecewise(v1, c1, v2, c2, ..., otherwise): v1 where c1 holds, else v2
// where c2 holds, ..., else otherwise. Derivatives follow the taken branch.
template <class... Rest>
Expr piecewise(const Expr& v1, const Condition& c1, const Rest&... rest) {
  static_assert(sizeof...(Rest) % 2 == 1, "piecewise(value, condition, ..., otherwise)");
  return detail::select(c1, v1, detail::piecewise_tail(rest...));
}

struct RecordOptions {
  std::string name = "recorded";
  std::vector<std::string> state_names;  // default x1..xN
  std::vector<std::string> param_names;  // default p1..pN
  std::vector<double> nominal_params;    // default zeros
  std::vector<double> x0;                // default zeros; unused with initial_state
  // x0 as a function of p, recorded too (so dx0/dp is exact).
  std::function<void(const Expr* p, Expr* x0)> initial_state;
  double t0 = 0.0;
  double t_end = 1.0;
};

namespace detail {

// The graph being recorded and its leaves; finish() builds the model.
class RecordingScope {
 public:
  RecordingScope(std::size_t nx, std::size_t np);
  ~RecordingScope();
  RecordingScope(const RecordingScope&) = delete;
  RecordingScope& operator=(const RecordingScope&) = delete;

  const Expr& time() const { return t_; }
  const Expr* states() const { return x_.data(); }
  const Expr* params() const { return p_.data(); }
  // Throws Error(invalid_argument) for inconsistent options.
  std::shared_ptr<ExprModel> finish(const Expr* rhs, const Expr* x0, RecordOptions options);

 private:
  std::unique_ptr<Recording> rec_;
  Expr t_;
  std::vector<Expr> x_, p_;
};

}  // namespace detail

template <class Rhs>
std::shared_ptr<ExprModel> record(std::size_t nx, std::size_t np, Rhs&& rhs,
                                  RecordOptions options = {}) {
  detail::RecordingScope scope(nx, np);
  std::vector<Expr> dx(nx), x0(nx);
  rhs(scope.time(), scope.states(), scope.params(), dx.data());
  if (options.initial_state) {
    options.initial_state(scope.params(), x0.data());
  } else if (!options.x0.empty()) {
    for (std::size_t i = 0; i < nx && i < options.x0.size(); ++i) x0[i] = options.x0[i];
  }
  return scope.finish(dx.data(), x0.data(), std::move(options));
}

}  // namespace odesens
