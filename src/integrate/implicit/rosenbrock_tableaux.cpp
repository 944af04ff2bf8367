// The coefficients of the Rosenbrock methods, as data.
#include "integrate/implicit/rosenbrock_tableau.hpp"

namespace odesens::integrate {
namespace {

// GRK4A: P. Kaps & P. Rentrop, "Generalized Runge–Kutta methods of order
// four with stepsize control for stiff ordinary differential equations",
// Numer. Math. 33 (1979) 55–68; tabulated in HNW II §IV.7, the
// method behind Franz & Kiehl's GRK4AS. α_4j = α_3j and α_43 = 0, so stage
// 4 reuses f of stage 3: three evaluations of f per step.
constexpr RosenbrockTableau kGrk4a = make_rosenbrock_tableau(RosenbrockTableau{
    "grk4a",
    4,
    4,
    3,
    0.395,
    {{0.0},
     {0.438},
     {0.796920457938, 0.0730795420615},
     {0.796920457938, 0.0730795420615, 0.0}},
    {{0.0},
     {-0.767672395484},
     {-0.851675323742, 0.522967289188},
     {0.288463109545, 0.0880214273381, -0.337389840627}},
    {0.199293275701, 0.482645235674, 0.0680614886256, 0.25},
    {0.346325833758, 0.285693175712, 0.367980990530, 0.0},
    {},
    {},
    {},
    {}});

static_assert(kGrk4a.same_point_as_previous[3] && !kGrk4a.same_point_as_previous[2],
              "GRK4A evaluates f three times per step");

}  // namespace

const RosenbrockTableau& grk4a() { return kGrk4a; }

}  // namespace odesens::integrate
