// Verified intervals: Boost.Interval on doubles with outward rounding.
//
// Arithmetic (+ - * / sqrt) uses the hardware's directed rounding through
// Boost's "opposite" trick: everything runs with the FPU rounding upward,
// and a lower bound is -fl_up(-x). The rounding mode is therefore set once
// per evaluation, by an UpwardRounding scope, not per operation; outside a
// scope Interval arithmetic is NOT outward rounded. Scopes reset the mode to
// nearest when they end, also by exception, so CVODES and everything else
// always see round-to-nearest.
//
// The transcendental bounds (exp, log, sin, ...) come from MPFR, correctly
// rounded down and up: glibc's libm does not promise correct (or even
// faithful) results in directed rounding modes, so Boost's default policy,
// which calls libm, would not be a guarantee.
//
// Files using Interval are compiled with -frounding-math (CMakeLists.txt),
// so the compiler neither folds nor reorders floating point across a change
// of rounding mode.
#pragma once

#include <boost/numeric/interval.hpp>

namespace odesens::arith {

// The functions MPFR rounds for the intervals, once for the declarations
// below and the definitions in interval.cpp: X(name) for mpfr_name.
#define ODESENS_VERIFIED_FUNCTIONS(X) \
  X(exp) X(log) X(log10) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) \
  X(tanh) X(asinh) X(acosh) X(atanh)

// Transcendental functions rounded down and up by MPFR, on top of Boost's
// upward-mode arithmetic. Each function is correctly rounded (the nearest
// double below / above the exact value), whatever the FPU's rounding mode.
struct VerifiedRounding : boost::numeric::interval_lib::rounded_arith_opp<double> {
#define ODESENS_VERIFIED_FUNCTION(fn) \
  double fn##_down(double x);         \
  double fn##_up(double x);
  ODESENS_VERIFIED_FUNCTIONS(ODESENS_VERIFIED_FUNCTION)
#undef ODESENS_VERIFIED_FUNCTION
};

using IntervalPolicies = boost::numeric::interval_lib::policies<
    boost::numeric::interval_lib::save_state_nothing<VerifiedRounding>,
    boost::numeric::interval_lib::checking_base<double>>;

using Interval = boost::numeric::interval<double, IntervalPolicies>;

// Sets the FPU to round upward for its lifetime and back to nearest after
// (it requires nearest on entry: scopes do not nest). Interval arithmetic is
// only valid inside one.
class UpwardRounding {
 public:
  UpwardRounding();
  ~UpwardRounding();
  UpwardRounding(const UpwardRounding&) = delete;
  UpwardRounding& operator=(const UpwardRounding&) = delete;
};

// Frees MPFR's caches of the calling thread (constants such as pi and
// log 2 it keeps per thread): called when a solve ends, so that a thread
// that exits after solving leaves nothing behind.
void release_thread_caches() noexcept;

// True while the FPU rounds upward (an UpwardRounding scope is active).
bool rounding_is_upward() noexcept;

// Functions Boost.Interval does not have, with the same guarantee.
Interval log10(const Interval& x);  // x > 0 (the caller checks the domain)
Interval pow_real(const Interval& x, double c);  // x^c = exp(c log x), x > 0
Interval pi_interval();
// [lo, hi] enclosing the real number nearest the decimal/binary value v as
// given (a double is exact: the point interval).
inline Interval point(double v) { return Interval(v, v); }

// |x| as an interval's magnitude: max(|lo|, |hi|).
double magnitude(const Interval& x);

}  // namespace odesens::arith
