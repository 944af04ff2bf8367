// bounds_fsa: enclosures of x, S and dF/dp over a parameter box (set-valued
// sensitivity paper), checked against point solutions of cvodes_fsa at
// sampled parameters, for the paper's case studies; the paper's widths on
// the cubic oscillator; convergence in the box size; errors.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "methods/bounds/bounds_check.hpp"
#include "odesens/expr_model.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

// Under the sanitizers (a Debug build, 20-50x slower here) the containment
// tests take fewer samples and the paper-width runs (t = 100 at q = 8) are
// left to the Release run.
#ifdef ODESENS_SANITIZED
constexpr int kSampleDivisor = 4;
constexpr bool kSanitized = true;
#else
constexpr int kSampleDivisor = 1;
constexpr bool kSanitized = false;
#endif

using testing::Containment;
using testing::model_value;
using testing::scaled;
using testing::within;

std::string shared_model(const std::string& file) {
  const char* env = std::getenv("ODESENS_SHARED_DIR");
  return std::string(env ? env : ODESENS_DEFAULT_SHARED_DIR) + "/models/ode/" + file;
}

std::string test_model(const std::string& file) {
  return std::string(ODESENS_TEST_MODELS_DIR) + "/" + file;
}

struct CaseStudy {
  std::string name;
  std::shared_ptr<const Model> model;
  std::vector<double> lower, upper, tout;
  std::vector<double> weights;  // n_t x nx, or empty with data
  std::vector<double> data;     // n_t x nx, NaN unobserved
};

CaseStudy cubic_oscillator(double t_end = 100.0) {
  CaseStudy c;
  c.name = "cubic oscillator";
  c.model = load_ode_file(shared_model("cubic_oscillator.ode"));
  c.lower = {1.5, -0.5};
  c.upper = {2.5, 0.5};
  c.tout = {t_end / 2, t_end};
  c.weights = {0, 0, 0, 0, 0, 1};  // F = q(T) = integral of x1^2
  return c;
}

CaseStudy digester() {
  CaseStudy c;
  c.name = "anaerobic digester";
  c.model = load_ode_file(test_model("digester.ode"));
  c.lower = {0.46, 0.92, 36.8};
  c.upper = {0.54, 1.08, 43.2};
  // Table 2: S1, S2, C every 0.25 day; X1, X2, Z unobserved.
  const double s1[] = {0.74, 0.63, 0.61, 0.58, 0.59, 0.60, 0.61, 0.63, 0.64, 0.66, 0.67, 0.70};
  const double s2[] = {2.3, 2.2, 2.2, 2.1, 2.2, 2.3, 2.3, 2.3, 2.4, 2.4, 2.4, 2.5};
  const double cm[] = {51.1, 53.4, 54.0, 54.0, 54.0, 54.0, 53.9, 53.9, 53.8, 53.8, 53.8, 53.7};
  const double nan = std::nan("");
  for (int k = 0; k < 12; ++k) {
    c.tout.push_back(0.25 * (k + 1));
    c.data.insert(c.data.end(), {nan, nan, s1[k], s2[k], nan, cm[k]});
  }
  return c;
}

CaseStudy batch_reactor() {
  CaseStudy c;
  c.name = "batch reactor N=2";
  c.model = load_ode_file(test_model("batch_reactor_n2.ode"));
  c.lower = {350, 290, 290};
  c.upper = {370, 310, 310};
  c.tout = {450, 900};  // the stage boundary is an output time
  c.weights = {0, 0, 1, 0};  // F = X(900)
  return c;
}

Problem bounds_problem(const CaseStudy& c, int order, const std::string& remainder,
                       const std::string& basis = "chebyshev") {
  Problem pr;
  pr.model = c.model;
  pr.output_times = c.tout;
  pr.param_lower = c.lower;
  pr.param_upper = c.upper;
  pr.adjoint_weights = c.weights;
  pr.objective_data = c.data;
  pr.options.set("order", order);
  pr.options.set("remainder", remainder);
  pr.options.set("basis", basis);
  return pr;
}

// x, S and dF/dp at p from cvodes_fsa at rtol 1e-10.
struct PointValues {
  std::vector<double> x, s, gradient;
};

PointValues point_values(const CaseStudy& c, const std::vector<double>& p) {
  Problem pr;
  pr.model = c.model;
  pr.params = p;
  pr.output_times = c.tout;
  pr.rtol = 1e-10;
  pr.atol = {1e-12};
  const Result r = solve(pr, "cvodes_fsa");
  const std::size_t nx = r.nx, np = r.np;
  PointValues v{r.x, r.s, std::vector<double>(np, 0.0)};
  for (std::size_t j = 0; j < np; ++j)
    for (std::size_t k = 0; k < c.tout.size(); ++k)
      for (std::size_t i = 0; i < nx; ++i) {
        const double s = r.s_at(k, i, j);
        if (c.data.empty()) {
          v.gradient[j] += c.weights[i + k * nx] * s;
        } else {
          const double d = c.data[i + k * nx];
          if (!std::isnan(d)) v.gradient[j] += 2.0 * (r.x_at(k, i) - d) * s;
        }
      }
  return v;
}

// Every value of `point` inside the models' hulls and inside the models
// evaluated at xi(p) plus their remainders.
void check_models(const BoundsResult& b, const std::vector<double>& xi,
                  const std::vector<double>& values, const std::vector<double>& coef,
                  const std::vector<double>& rem, const std::vector<double>& hull,
                  const std::string& what, Containment& out) {
  for (std::size_t m = 0; m < values.size(); ++m) {
    const double v = values[m];
    const double centre = model_value(b, coef, m, xi);
    out.check(within(v, hull[2 * m], hull[2 * m + 1]),
              what + "[" + std::to_string(m) + "] = " + std::to_string(v) + " outside its hull");
    // The polynomial is evaluated in doubles here: allow its rounding.
    const double slack = 1e-12 * (1.0 + std::fabs(centre)) * static_cast<double>(b.n_monomials);
    out.check(within(v, centre + rem[2 * m] - slack, centre + rem[2 * m + 1] + slack),
              what + "[" + std::to_string(m) + "] = " + std::to_string(v) +
                  " outside its model");
  }
}

// Corners of the box plus `samples` uniform points.
Containment containment(const CaseStudy& c, const Result& r, int samples, unsigned seed) {
  const BoundsResult& b = r.bounds;
  std::vector<std::vector<double>> points;
  const std::size_t np = c.lower.size();
  for (std::size_t corner = 0; corner < (std::size_t{1} << np); ++corner) {
    std::vector<double> p(np);
    for (std::size_t j = 0; j < np; ++j) p[j] = (corner >> j) & 1u ? c.upper[j] : c.lower[j];
    points.push_back(p);
  }
  std::mt19937 rng(seed);
  for (int s = 0; s < samples; ++s) {
    std::vector<double> p(np);
    for (std::size_t j = 0; j < np; ++j)
      p[j] = std::uniform_real_distribution<double>(c.lower[j], c.upper[j])(rng);
    points.push_back(p);
  }
  Containment out;
  for (const auto& p : points) {
    const PointValues v = point_values(c, p);
    const std::vector<double> xi = scaled(b, p);
    check_models(b, xi, v.x, b.x_coef, b.x_rem, b.x_hull, "x", out);
    check_models(b, xi, v.s, b.s_coef, b.s_rem, b.s_hull, "S", out);
    check_models(b, xi, v.gradient, b.gradient_coef, b.gradient_rem, b.gradient_hull, "dF/dp",
                 out);
  }
  return out;
}

void expect_contained(const CaseStudy& c, int order, const std::string& remainder,
                      const std::string& basis, int samples) {
  SCOPED_TRACE(c.name + ", q = " + std::to_string(order) + ", " + remainder + ", " + basis);
  const Result r = solve(bounds_problem(c, order, remainder, basis), "bounds_fsa");
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  const Containment k =
      containment(c, r, samples / kSampleDivisor, 1234u + static_cast<unsigned>(order));
  EXPECT_GT(k.checked, 0u);
  EXPECT_EQ(k.violations, 0u) << k.first;
}

double width(const std::vector<double>& hull, std::size_t m) {
  return hull[2 * m + 1] - hull[2 * m];
}

// --- x' = A x, x(0) = p: the order-1 model is exact -------------------------

TEST(BoundsFsa, LinearSystemIsEnclosedExactlyAtOrderOne) {
  auto model = load_ode_text(
      "param p1 = 1\nparam p2 = 0\nstate x1 = p1\nstate x2 = p2\n"
      "dx1/dt = -0.3*x1 + 2*x2\ndx2/dt = -2*x1 - 0.3*x2\n",
      "linear.ode");
  for (const std::string remainder : {"interval", "ellipsoid"}) {
    SCOPED_TRACE(remainder);
    Problem pr;
    pr.model = model;
    pr.output_times = {0.5, 1.0, 2.0};
    pr.param_lower = {0.9, -0.1};
    pr.param_upper = {1.1, 0.1};
    pr.options.set("order", 1);
    pr.options.set("remainder", remainder);
    const Result r = solve(pr, "bounds_fsa");
    const BoundsResult& b = r.bounds;
    ASSERT_EQ(b.n_monomials, 3u);
    for (double p1 : {0.9, 1.0, 1.1})
      for (double p2 : {-0.1, 0.03, 0.1})
        for (std::size_t k = 0; k < 3; ++k) {
          const double t = pr.output_times[k];
          const double e = std::exp(-0.3 * t), c = std::cos(2 * t), s = std::sin(2 * t);
          const double x[2] = {e * (c * p1 + s * p2), e * (-s * p1 + c * p2)};
          const std::vector<double> xi = scaled(b, {p1, p2});
          for (std::size_t i = 0; i < 2; ++i) {
            const std::size_t m = i + k * 2;
            const double v = model_value(b, b.x_coef, m, xi);
            EXPECT_NEAR(v, x[i], 1e-6) << "t = " << t;
            EXPECT_LE(b.x_rem[2 * m + 1] - b.x_rem[2 * m], 1e-6);
            EXPECT_TRUE(within(x[i], b.x_hull[2 * m], b.x_hull[2 * m + 1]));
          }
        }
  }
}

// --- the case studies: containment ------------------------------------------

TEST(BoundsFsa, CubicOscillatorContainsSampledSolutions) {
  expect_contained(cubic_oscillator(10.0), 4, "ellipsoid", "chebyshev", 40);
  expect_contained(cubic_oscillator(10.0), 4, "ellipsoid", "taylor", 20);
  // Interval remainders wrap on this rotation (the paper's point): a
  // shorter span.
  expect_contained(cubic_oscillator(3.0), 4, "interval", "chebyshev", 20);
}

TEST(BoundsFsa, DigesterContainsSampledSolutions) {
  expect_contained(digester(), 2, "ellipsoid", "chebyshev", 30);
}

TEST(BoundsFsa, BatchReactorContainsSampledSolutions) {
  expect_contained(batch_reactor(), 2, "interval", "chebyshev", 30);
}

// The full matrix: case studies x remainders x bases, 1000 samples. On the
// cubic oscillator only Chebyshev models with ellipsoidal remainders (the
// paper's choice) stay bounded to t = 100 at q = 4; Taylor models with
// ellipsoids run to t = 10, interval remainders wrap without bound sooner
// (Chebyshev to t = 9: by t = 10 the enclosures of S pass max_width; Taylor
// to t = 5: they overflow near t = 7.6).
TEST(BoundsFsaSlow, CaseStudiesContainSampledSolutions) {
  for (const std::string remainder : {"ellipsoid", "interval"})
    for (const std::string basis : {"chebyshev", "taylor"}) {
      const bool ellipsoid = remainder == "ellipsoid", chebyshev = basis == "chebyshev";
      const double t_end = ellipsoid ? (chebyshev ? 100.0 : 10.0) : (chebyshev ? 9.0 : 5.0);
      for (const CaseStudy& c : {cubic_oscillator(t_end), digester(), batch_reactor()})
        expect_contained(c, c.name == "anaerobic digester" ? 3 : 4, remainder, basis, 1000);
    }
}

// --- widths -------------------------------------------------------------------

TEST(BoundsFsa, CubicOscillatorWidthsShrinkWithOrderAndMeetThePaper) {
  if (kSanitized) GTEST_SKIP() << "t = 100 at q = 8: checked in the Release run";
  const CaseStudy c = cubic_oscillator();
  // The paper's FSA enclosures of dF/dp (Chebyshev, ellipsoidal remainders).
  const struct {
    int q;
    double w1, w2;
  } paper[] = {{4, 4.438 - 1.454, 3.566 + 1.553},
               {5, 3.806 - 2.085, 2.417 + 0.406},
               {8, 3.639 - 2.252, 2.123 + 0.111}};
  double previous[2] = {INFINITY, INFINITY};
  for (const auto& row : paper) {
    SCOPED_TRACE("q = " + std::to_string(row.q));
    const Result r = solve(bounds_problem(c, row.q, "ellipsoid"), "bounds_fsa");
    const double w[2] = {width(r.bounds.gradient_hull, 0), width(r.bounds.gradient_hull, 1)};
    EXPECT_LE(w[0], 2.0 * row.w1);
    EXPECT_LE(w[1], 2.0 * row.w2);
    EXPECT_LT(w[0], previous[0]);
    EXPECT_LT(w[1], previous[1]);
    previous[0] = w[0];
    previous[1] = w[1];
    // The true range (dense sampling) lies inside.
    EXPECT_LE(r.bounds.gradient_hull[0], 2.4606);
    EXPECT_GE(r.bounds.gradient_hull[1], 3.5918);
    EXPECT_LE(r.bounds.gradient_hull[2], -0.0485);
    EXPECT_GE(r.bounds.gradient_hull[3], 1.8938);
  }
}

// Every result says what is not enclosed; loose enclosures say so too.
TEST(BoundsFsa, WarningsNameTheLimitAndLooseEnclosures) {
  auto has = [](const Result& r, const std::string& text) {
    for (const auto& w : r.warnings)
      if (w.find(text) != std::string::npos) return true;
    return false;
  };
  const Result tight = solve(bounds_problem(cubic_oscillator(3.0), 4, "ellipsoid"), "bounds_fsa");
  EXPECT_TRUE(has(tight, "not enclosed"));
  EXPECT_FALSE(has(tight, "loose"));
  // Interval remainders wrap on this rotation: by t = 9 they dwarf the
  // polynomials (by t = 10 the enclosures of S pass max_width).
  const Result loose = solve(bounds_problem(cubic_oscillator(9.0), 4, "interval"), "bounds_fsa");
  EXPECT_TRUE(has(loose, "loose"));
}

// Halving the box shrinks the remainders like rad^(q+1): slope >= 2.5 at q = 2.
TEST(BoundsFsa, RemaindersConvergeWithTheBoxSize) {
  CaseStudy c = cubic_oscillator(10.0);
  std::vector<double> widths;
  for (double radius : {0.2, 0.1, 0.05}) {
    c.lower = {2.0 - radius, -radius};
    c.upper = {2.0 + radius, radius};
    const Result r = solve(bounds_problem(c, 2, "ellipsoid"), "bounds_fsa");
    const std::size_t m = 0 + 1 * 3;  // x1 at t = 10
    widths.push_back(r.bounds.x_rem[2 * m + 1] - r.bounds.x_rem[2 * m]);
  }
  for (std::size_t k = 1; k < widths.size(); ++k)
    EXPECT_GE(std::log2(widths[k - 1] / widths[k]), 2.5) << widths[k - 1] << " " << widths[k];
}

// --- errors -------------------------------------------------------------------

Status status_of(const Problem& pr, std::string* message = nullptr) {
  try {
    solve(pr, "bounds_fsa");
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.status();
  }
  return Status::ok;
}

TEST(BoundsFsa, RefusesBadBoxesAndOptions) {
  const CaseStudy c = cubic_oscillator(1.0);
  Problem pr = bounds_problem(c, 2, "ellipsoid");
  Problem no_box = pr;
  no_box.param_lower.clear();
  no_box.param_upper.clear();
  EXPECT_EQ(status_of(no_box), Status::invalid_argument);
  Problem short_box = pr;
  short_box.param_lower.pop_back();
  EXPECT_EQ(status_of(short_box), Status::invalid_argument);
  Problem reversed = pr;
  reversed.param_lower[1] = 0.6;
  std::string message;
  EXPECT_EQ(status_of(reversed, &message), Status::invalid_argument);
  EXPECT_NE(message.find("p2"), std::string::npos) << message;
  Problem nan_box = pr;
  nan_box.param_upper[0] = std::nan("");
  EXPECT_EQ(status_of(nan_box), Status::not_finite);
  Problem inf_box = pr;
  inf_box.param_lower[0] = -INFINITY;
  EXPECT_EQ(status_of(inf_box), Status::not_finite);
  // A box whose bounding systems would not fit in memory: refused at once.
  Problem large;
  std::string text;
  for (int j = 0; j < 60; ++j) text += "param p" + std::to_string(j) + " = 1\n";
  text += "state x = 1\ndx/dt = -p0*x\n";
  large.model = load_ode_text(text, "large.ode");
  large.output_times = {1.0};
  large.param_lower.assign(60, 0.9);
  large.param_upper.assign(60, 1.1);
  large.options.set("order", 8);
  EXPECT_EQ(status_of(large, &message), Status::invalid_argument) << message;
  EXPECT_NE(message.find("coefficients"), std::string::npos) << message;
  for (int order : {-1, 13}) {
    Problem bad = pr;
    bad.options.set("order", order);
    EXPECT_EQ(status_of(bad), Status::option_type) << order;
  }
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

// Models that cannot be enclosed over the box end in `unbounded`, with the
// operation named, never in a result.
TEST(BoundsFsa, UnboundableModelsEndInUnbounded) {
  const struct {
    const char* text;
    double lower, upper, t_end;
    const char* operation;
  } cases[] = {
      {"param p = 1\nstate x = p\ndx/dt = 1/(x - 1)\n", 0.5, 1.5, 1.0, "inv"},
      {"param p = 0\nstate x = p\ndx/dt = log(x)\n", -1.0, 1.0, 1.0, "log"},
      {"param p = 1\nstate x = 1\ndx/dt = piecewise(-x, p > 1, x)\n", 0.5, 1.5, 1.0, ">"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    Problem pr;
    pr.model = load_ode_text(c.text, "unbounded.ode");
    pr.output_times = {c.t_end};
    pr.param_lower = {c.lower};
    pr.param_upper = {c.upper};
    std::string message;
    EXPECT_EQ(status_of(pr, &message), Status::unbounded) << message;
    EXPECT_NE(message.find(c.operation), std::string::npos) << message;
    EXPECT_NE(message.find("t = "), std::string::npos) << message;
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  }
  // An enclosure wider than max_width.
  Problem wide;
  wide.model = load_ode_text("param p = 1\nstate x = p\ndx/dt = -x\n", "wide.ode");
  wide.output_times = {1.0};
  wide.param_lower = {0.0};
  wide.param_upper = {10.0};
  wide.options.set("max_width", 1.0);
  std::string wide_message;
  EXPECT_EQ(status_of(wide, &wide_message), Status::unbounded) << wide_message;
  EXPECT_NE(wide_message.find("max_width"), std::string::npos) << wide_message;
  EXPECT_NE(wide_message.find("x at t = 1"), std::string::npos) << wide_message;
  // x' = x^2 from [1, 2] blows up at t = 1/x0 in [0.5, 1].
  Problem blow_up;
  blow_up.model = load_ode_text("param p = 1.5\nstate x = p\ndx/dt = x^2\n", "blowup.ode");
  blow_up.output_times = {1.0};
  blow_up.param_lower = {1.0};
  blow_up.param_upper = {2.0};
  const Status s = status_of(blow_up);
  EXPECT_TRUE(s == Status::unbounded || s == Status::solver_failed || s == Status::too_much_work)
      << status_string(s);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST(BoundsFsa, TooMuchWorkAndUnknownOptionsAreReported) {
  Problem pr = bounds_problem(cubic_oscillator(10.0), 2, "ellipsoid");
  pr.max_steps = 10;
  std::string message;
  EXPECT_EQ(status_of(pr, &message), Status::too_much_work) << message;
  EXPECT_NE(message.find("max_steps"), std::string::npos) << message;
  pr = bounds_problem(cubic_oscillator(1.0), 2, "ellipsoid");
  pr.options.set("no_such_option", 1);
  EXPECT_EQ(status_of(pr), Status::unknown_option);
  pr = bounds_problem(cubic_oscillator(1.0), 2, "ellipsoid");
  pr.options.set("basis", "legendre");
  EXPECT_EQ(status_of(pr), Status::option_type);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

// A model without parameters has the empty box: a point enclosure.
TEST(BoundsFsa, ModelsWithoutParametersGiveAPointEnclosure) {
  Problem pr;
  pr.model = load_ode_text("state x = 1\ndx/dt = -x\n", "noparam.ode");
  pr.output_times = {1.0};
  const Result r = solve(pr, "bounds_fsa");
  ASSERT_EQ(r.bounds.n_monomials, 1u);
  EXPECT_TRUE(within(std::exp(-1.0), r.bounds.x_hull[0], r.bounds.x_hull[1]));
  EXPECT_LT(r.bounds.x_hull[1] - r.bounds.x_hull[0], 1e-8);
}

TEST(BoundsFsa, CallbackModelsAreRefused) {
  Problem pr;
  pr.model = load_model("builtin:linear:2");
  pr.output_times = {1.0};
  const std::size_t np = pr.model->np();
  pr.param_lower.assign(np, 0.0);
  pr.param_upper.assign(np, 0.1);
  std::string message;
  EXPECT_EQ(status_of(pr, &message), Status::unsupported);
  EXPECT_NE(message.find("expressions"), std::string::npos) << message;
}

}  // namespace
}  // namespace odesens
