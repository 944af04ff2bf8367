// phi_0..phi_3 of a scalar z (real or complex): phi_0 = e^z,
// phi_k(z) = (phi_{k-1}(z) - 1/(k-1)!) / z, the functions of the
// exponential integrators' forcing terms (Eq. 18 with a ramp). For the
// spectral outputs (one per eigenvalue) and the error estimate's kernel.
#pragma once

#include <cmath>
#include <complex>

namespace odesens::pbs {

template <class T>
struct PhiScalars {
  T e, p1, p2, p3;
};

// Near 0 phi_3 by its series (the closed forms' differences cancel there),
// the others by phi_k = 1/k! + z phi_{k+1}; elsewhere the closed forms.
template <class T>
PhiScalars<T> phi_scalars(T z) {
  PhiScalars<T> r;
  if (std::abs(z) < 1.0) {
    // phi_3(z) = sum_j z^j / (j + 3)!: 18 terms reach the unit roundoff.
    constexpr int kTerms = 18;
    double factorial = 1.0;  // (j + 3)! for j = kTerms - 1
    for (int i = 2; i <= kTerms + 2; ++i) factorial *= i;
    T p = 0.0;
    for (int j = kTerms - 1; j >= 0; --j) {
      p = 1.0 / factorial + z * p;
      factorial /= (j + 3);
    }
    r.p3 = p;
    r.p2 = 0.5 + z * r.p3;
    r.p1 = 1.0 + z * r.p2;
    r.e = 1.0 + z * r.p1;
    return r;
  }
  r.e = std::exp(z);
  r.p1 = (r.e - 1.0) / z;
  r.p2 = (r.p1 - 1.0) / z;
  r.p3 = (r.p2 - 0.5) / z;
  return r;
}

}  // namespace odesens::pbs
