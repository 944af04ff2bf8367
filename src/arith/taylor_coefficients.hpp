// Enclosures of the Taylor coefficients g^(k)(x) / k!, k = 0..K, of a
// univariate function g for every x in an interval X, by automatic
// differentiation on truncated power series with interval coefficients
// (Moore, Kearfott and Cloud, "Introduction to Interval Analysis", 2009,
// section 9.2; Griewank and Walther, "Evaluating Derivatives", 13.2): the
// series of g(x(t)) with x(t) = X + t follows from the differential equation
// each g satisfies (exp: u' = u x'; log: x u' = x'; x^c: x u' = c u x'; ...).
// Every operation is an interval operation valid for each x in X, so the
// results enclose the coefficients over all of X. Must run inside an
// UpwardRounding scope.
#pragma once

#include "arith/interval.hpp"
#include "arith/poly_model.hpp"

namespace odesens::arith {

// Highest K supported (order 12 needs K = 13 for the remainder).
inline constexpr int kMaxTaylorOrder = 15;

// out[k] encloses g^(k)(x)/k! for x in X, k = 0..K (K <= kMaxTaylorOrder).
// The caller checks that X lies in the domain where g is smooth.
void taylor_coefficients(UnaryFunction g, const Interval& X, int K, Interval* out);
// The same for g(x) = x^c (X > 0).
void power_taylor_coefficients(const Interval& X, double c, int K, Interval* out);

// ln 10, rounded outward by MPFR.
Interval ln10_interval();

}  // namespace odesens::arith
