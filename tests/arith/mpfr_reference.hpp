// Shared by the tests of the verified arithmetic: 200-bit MPFR references for the univariate
// functions, so that enclosures are checked against values far more
// accurate than a double.
#pragma once

#include <mpfr.h>

#include <cfenv>

#include "arith/interval.hpp"
#include "arith/poly_model.hpp"

namespace odesens::arith::test {

constexpr mpfr_prec_t kPrecision = 200;

// An mpfr_t with RAII.
struct Mp {
  mpfr_t v;
  Mp() { mpfr_init2(v, kPrecision); }
  explicit Mp(double x) : Mp() { mpfr_set_d(v, x, MPFR_RNDN); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

// out = f(x) at 200 bits.
inline void mpfr_apply(UnaryFunction f, mpfr_t out, const mpfr_t x) {
  switch (f) {
    case UnaryFunction::exp: mpfr_exp(out, x, MPFR_RNDN); return;
    case UnaryFunction::log: mpfr_log(out, x, MPFR_RNDN); return;
    case UnaryFunction::log10: mpfr_log10(out, x, MPFR_RNDN); return;
    case UnaryFunction::sqrt: mpfr_sqrt(out, x, MPFR_RNDN); return;
    case UnaryFunction::sin: mpfr_sin(out, x, MPFR_RNDN); return;
    case UnaryFunction::cos: mpfr_cos(out, x, MPFR_RNDN); return;
    case UnaryFunction::tan: mpfr_tan(out, x, MPFR_RNDN); return;
    case UnaryFunction::sinh: mpfr_sinh(out, x, MPFR_RNDN); return;
    case UnaryFunction::cosh: mpfr_cosh(out, x, MPFR_RNDN); return;
    case UnaryFunction::tanh: mpfr_tanh(out, x, MPFR_RNDN); return;
    case UnaryFunction::asin: mpfr_asin(out, x, MPFR_RNDN); return;
    case UnaryFunction::acos: mpfr_acos(out, x, MPFR_RNDN); return;
    case UnaryFunction::atan: mpfr_atan(out, x, MPFR_RNDN); return;
    case UnaryFunction::inv: mpfr_ui_div(out, 1, x, MPFR_RNDN); return;
  }
}

// x in [lo, hi], compared exactly.
inline bool contains(const Interval& r, const mpfr_t x) {
  return mpfr_cmp_d(x, r.lower()) >= 0 && mpfr_cmp_d(x, r.upper()) <= 0;
}

}  // namespace odesens::arith::test
