// MPFR-rounded transcendental functions and the rounding-mode scope of
// interval.hpp.
#include "arith/interval.hpp"

#include <mpfr.h>

#include <cfenv>
#include <cmath>

#include "odesens/status.hpp"

namespace odesens::arith {
namespace {

// One double-precision MPFR evaluation of fn at x, rounded in direction rnd,
// returned as the double MPFR rounds in the same direction (exact: the
// precision is a double's, except below the normal range where the second
// rounding keeps the direction).
template <class Fn>
double rounded_by_mpfr(Fn fn, double x, mpfr_rnd_t rnd) {
  mpfr_t v;
  mpfr_init2(v, 53);
  mpfr_set_d(v, x, MPFR_RNDN);  // exact: x is a double
  fn(v, v, rnd);
  const double r = mpfr_get_d(v, rnd);
  mpfr_clear(v);
  return r;
}

}  // namespace

#define ODESENS_VERIFIED_FUNCTION(fn)                                                   \
  double VerifiedRounding::fn##_down(double x) { return rounded_by_mpfr(mpfr_##fn, x, MPFR_RNDD); } \
  double VerifiedRounding::fn##_up(double x) { return rounded_by_mpfr(mpfr_##fn, x, MPFR_RNDU); }
ODESENS_VERIFIED_FUNCTIONS(ODESENS_VERIFIED_FUNCTION)
#undef ODESENS_VERIFIED_FUNCTION

UpwardRounding::UpwardRounding() {
  if (std::fegetround() != FE_TONEAREST)
    throw Error(Status::internal_error,
                "interval evaluation started with the FPU not rounding to nearest");
  std::fesetround(FE_UPWARD);
}

UpwardRounding::~UpwardRounding() { std::fesetround(FE_TONEAREST); }

void release_thread_caches() noexcept { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }

bool rounding_is_upward() noexcept { return std::fegetround() == FE_UPWARD; }

Interval log10(const Interval& x) {
  VerifiedRounding rnd;
  return Interval(rnd.log10_down(x.lower()), rnd.log10_up(x.upper()));
}

Interval pow_real(const Interval& x, double c) {
  return boost::numeric::exp(Interval(c, c) * boost::numeric::log(x));
}

Interval pi_interval() {
  return Interval(boost::numeric::interval_lib::constants::pi_lower<double>(),
                  boost::numeric::interval_lib::constants::pi_upper<double>());
}

double magnitude(const Interval& x) { return std::fmax(std::fabs(x.lower()), std::fabs(x.upper())); }

}  // namespace odesens::arith
