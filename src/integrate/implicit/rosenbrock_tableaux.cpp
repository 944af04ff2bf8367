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

// ROS4, L-stable: the coefficient set of Hairer & Wanner's ROS4 with γ =
// 0.57282 (HNW II §IV.7, Table 7.2, "L-stable"; the set of Hairer's ros4.f),
// given there in the transformed variables of the implementation (a_ij,
// c_ij, m_i and the error weights e_i) and converted to the α_ij, γ_ij,
// b_i, b̂_i of this struct by Γ = (diag(1/γ) − C)⁻¹, α = A Γ, bᵀ = mᵀ Γ,
// b̂ᵀ = bᵀ − eᵀ Γ (b_3 comes out as 3e-17: 0). R(∞) = 0 up to the rounding
// of γ (1.5e-5), where GRK4A's is 0.995: GRK4A leaves the components of
// very stiff modes nearly undamped from step to step, and its error
// estimate (whose R differs from the method's by 0.68 at ∞) then holds the
// step near h |λ_max| ≈ 10 on stiff models (tests/integrate/
// test_rosenbrock_tableau.cpp). Like GRK4A, stage 4 reuses stage 3's f.
constexpr RosenbrockTableau kRos4 = make_rosenbrock_tableau(RosenbrockTableau{
    "ros4",
    4,
    4,
    3,
    0.57282,
    {{0.0},
     {1.14564},
     {0.5209220954472235, 0.13429476836836646},
     {0.5209220954472235, 0.13429476836836646, 0.0}},
    {{0.0},
     {-2.342013891319233},
     {-0.027359803566461893, 0.21380314735850997},
     {-0.2590906221644878, -0.19059462272996713, -0.22803686381558994}},
    {0.3245357476283174, 0.04908429214666615, 0.0, 0.6263799602250169},
    {0.02912267883482189, -0.09451413788424029, -0.18736846140061475, 1.2527599204500337},
    {},
    {},
    {},
    {}});

static_assert(kRos4.same_point_as_previous[3] && !kRos4.same_point_as_previous[2],
              "ROS4 evaluates f three times per step");

// RODAS4: Hairer & Wanner's stiffly accurate Rosenbrock method of order
// 4(3), 6 stages (HNW II §VI.4; the coefficients of Hairer's rodas.f, given
// there in the transformed variables and converted as ROS4's above, which
// reproduces its α_i = 0, 0.386, 0.21, 0.63, 1, 1 and γ_i = 0.25, −0.1043,
// 0.1035, −0.0362, 0, 0). Both the method and its embedded formula are
// stiffly accurate (b_i = α_6i + γ_6i, b̂_i = α_6i): L-stable, and without
// the order reduction of GRK4A and ROS4 on very stiff problems, whose
// stages have order 1 (HNW II §VI.4).
constexpr RosenbrockTableau kRodas4 = make_rosenbrock_tableau(RosenbrockTableau{
    "rodas4",
    6,
    4,
    3,
    0.25,
    {{0.0},
     {0.386},
     {0.1460747075254179, 0.0639252924745821},
     {-0.33081150366773004, 0.7111510251682847, 0.24966047849944542},
     {-4.552557186318031, 1.710181363241332, 4.014347332103172, -0.17197150902647376},
     {2.428633765466988, -0.38274873376478435, -1.8557203309295804, 0.5598352992273763, 0.25}},
    {{0.0},
     {-0.3543},
     {-0.13360250526817558, -0.012897494731824468},
     {1.5268491730064673, -0.5336562887504572, -1.27939288425601},
     {6.9811909517850195, -2.0929300970061164, -5.870067663032753, 0.73180680825385},
     {-2.080189494180937, 0.5957623556766833, 1.7016177982672627, -0.08851451983588055,
      -0.3786761399271284}},
    {0.34844427128605115, 0.213013621911899, -0.15410253266231777, 0.47132077939149575,
     -0.1286761399271284, 0.25},
    {2.428633765466988, -0.38274873376478435, -1.8557203309295804, 0.5598352992273763, 0.25,
     0.0},
    {},
    {},
    {},
    {}});

}  // namespace

const RosenbrockTableau& grk4a() { return kGrk4a; }
const RosenbrockTableau& rodas4() { return kRodas4; }
const RosenbrockTableau& ros4() { return kRos4; }

}  // namespace odesens::integrate
