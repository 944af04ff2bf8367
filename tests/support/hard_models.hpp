// Models whose solutions defeat a solver at some tolerances, shared by the
// tests of the checks that must then speak.
#pragma once

namespace odesens::testing {

// Predator and prey where the predator falls to about 1e-34 and grows back
// (a random model of the differential tests). BDF cannot solve its states
// at rtol 1e-6 over [0, 30] (near t = 1.3, "the solution may blow up"), and
// dopri8s finds it stiff near t = 5.
inline const char* const kCollapsingPredator = R"(
param p0 = 0.653
param p1 = 2.0
param p2 = 9.078
param p3 = 1204.0
param p4 = 1.326
state X0 = 0.247
state X1 = 0.143
state X2 = 0.0
state X3 = 0.0
state X4 = 0.0
state X5 = 3.019
dX0/dt = 0.945*X0 - 1.53*X0*X1 + 185.3*X2^p1/(2.348^p1 + X2^p1)
dX1/dt = 1.53*X0*X1 - p0*X1 - 244.3*X1
dX2/dt = -1.435*X2*X2 + 37.64*X5/(2.155 + X5) + 1.904*exp(-p4*t)
dX3/dt = 943.2 - 4.906*X3
dX4/dt = piecewise(96.03, t < p2, 0) - p3*X4
dX5/dt = 1.435*X2*X2 - 37.64*X5/(2.155 + X5)
)";

}  // namespace odesens::testing
