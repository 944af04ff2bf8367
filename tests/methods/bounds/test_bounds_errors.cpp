// The set-valued methods' errors: bad boxes and options, models that
// cannot be enclosed over the box, too much work, callback models; the
// same for bounds_fsa and bounds_asa (whose backward pass reports through
// the same paths), plus a backward pass that cannot be bounded.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <string>
#include <vector>

#include "methods/bounds/bounds_check.hpp"
#include "support/bounds_case_studies.hpp"
#include "odesens/expr_model.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

using testing::bounds_problem;
using testing::CaseStudy;
using testing::cubic_oscillator;
using testing::within;

// --- errors -------------------------------------------------------------------

// Both set-valued methods refuse and report alike; bounds_asa's backward
// pass reports through the same paths.
class BoundsMethods : public ::testing::TestWithParam<std::string> {};

Status status_of(const std::string& method, const Problem& pr, std::string* message = nullptr) {
  try {
    solve(pr, method);
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.status();
  }
  return Status::ok;
}

TEST_P(BoundsMethods, RefusesBadBoxesAndOptions) {
  const CaseStudy c = cubic_oscillator(1.0);
  Problem pr = bounds_problem(c, 2, "ellipsoid");
  Problem no_box = pr;
  no_box.param_lower.clear();
  no_box.param_upper.clear();
  EXPECT_EQ(status_of(GetParam(), no_box), Status::invalid_argument);
  Problem short_box = pr;
  short_box.param_lower.pop_back();
  EXPECT_EQ(status_of(GetParam(), short_box), Status::invalid_argument);
  Problem reversed = pr;
  reversed.param_lower[1] = 0.6;
  std::string message;
  EXPECT_EQ(status_of(GetParam(), reversed, &message), Status::invalid_argument);
  EXPECT_NE(message.find("p2"), std::string::npos) << message;
  Problem nan_box = pr;
  nan_box.param_upper[0] = std::nan("");
  EXPECT_EQ(status_of(GetParam(), nan_box), Status::not_finite);
  Problem inf_box = pr;
  inf_box.param_lower[0] = -INFINITY;
  EXPECT_EQ(status_of(GetParam(), inf_box), Status::not_finite);
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
  EXPECT_EQ(status_of(GetParam(), large, &message), Status::invalid_argument) << message;
  EXPECT_NE(message.find("coefficients"), std::string::npos) << message;
  for (int order : {-1, 13}) {
    Problem bad = pr;
    bad.options.set("order", order);
    EXPECT_EQ(status_of(GetParam(), bad), Status::option_type) << order;
  }
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

// Work, not only storage: 20 box parameters at order 6 fit in memory
// (230,230 coefficients per model) but one evaluation of the bounding
// system would take about 1e12 products of coefficients. Refused before
// the solve, naming the estimate and an order within option max_work; the
// estimate is products of models x n_mon^2, reported by solves it allows.
TEST_P(BoundsMethods, WorkBeyondMaxWorkIsRefusedNamingAnOrderWithinIt) {
  std::string text, sum;
  for (int j = 0; j < 20; ++j) {
    text += "param p" + std::to_string(j) + " = 0.01\n";
    sum += (j ? " + p" : "p") + std::to_string(j);
  }
  Problem pr;
  pr.model = load_ode_text(text + "state x = 1\ndx/dt = -(" + sum + ") * x\n", "box20.ode");
  pr.output_times = {1.0};
  pr.param_lower.assign(20, 0.009);
  pr.param_upper.assign(20, 0.011);
  pr.options.set("order", 6);
  std::string message;
  EXPECT_EQ(status_of(GetParam(), pr, &message), Status::invalid_argument) << message;
  EXPECT_NE(message.find("products of coefficients"), std::string::npos) << message;
  EXPECT_NE(message.find("max_work"), std::string::npos) << message;
  // The order it names is allowed, and the one above it is not.
  const std::size_t at = message.find("): order ");
  ASSERT_NE(at, std::string::npos) << message;
  const int lower = std::stoi(message.substr(at + 9));
  ASSERT_GE(lower, 1);
  ASSERT_LT(lower, 6);
  pr.options.set("order", lower + 1);
  EXPECT_EQ(status_of(GetParam(), pr), Status::invalid_argument) << lower;

  // Small enough to run: the estimate, C(n + q, q)^2 per product of models.
  Problem small = pr;
  small.param_lower.assign(20, 0.01);  // three of the parameters vary
  small.param_upper.assign(20, 0.01);
  for (int j = 0; j < 3; ++j) small.param_upper[j] = 0.011;
  small.options.set("order", 2);
  const Result r = solve(small, GetParam());
  const double n_mon = 10.0;  // C(3 + 2, 2)
  const double work = r.stats.extra.at("products_per_evaluation");
  EXPECT_GT(work, 0.0);
  EXPECT_EQ(std::fmod(work, n_mon * n_mon), 0.0) << work;
  small.options.set("max_work", work / 2);
  EXPECT_EQ(status_of(GetParam(), small, &message), Status::invalid_argument);
  small.options.set("max_work", work);
  EXPECT_EQ(status_of(GetParam(), small), Status::ok);
}

// Models that cannot be enclosed over the box end in `unbounded`, with the
// operation named, never in a result.
// atol 0: the polynomial models' coefficients start at 0, where CVODES'
// weights are infinite. Refused before the solve with the reason; CVODES'
// CV_ILL_INPUT used to be read as an enclosure growing too fast.
TEST_P(BoundsMethods, ZeroAtolIsRefusedWithTheReason) {
  const CaseStudy c = cubic_oscillator(1.0);
  Problem pr = bounds_problem(c, 2, "ellipsoid");
  pr.atol = {0.0};
  std::string message;
  EXPECT_EQ(status_of(GetParam(), pr, &message), Status::invalid_argument);
  EXPECT_NE(message.find("atol is 0"), std::string::npos) << message;
  EXPECT_EQ(message.find("growing too fast"), std::string::npos) << message;
}

TEST_P(BoundsMethods, UnboundableModelsEndInUnbounded) {
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
    EXPECT_EQ(status_of(GetParam(), pr, &message), Status::unbounded) << message;
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
  EXPECT_EQ(status_of(GetParam(), wide, &wide_message), Status::unbounded) << wide_message;
  EXPECT_NE(wide_message.find("max_width"), std::string::npos) << wide_message;
  EXPECT_NE(wide_message.find("x at t = 1"), std::string::npos) << wide_message;
  // x' = x^2 from [1, 2] blows up at t = 1/x0 in [0.5, 1].
  Problem blow_up;
  blow_up.model = load_ode_text("param p = 1.5\nstate x = p\ndx/dt = x^2\n", "blowup.ode");
  blow_up.output_times = {1.0};
  blow_up.param_lower = {1.0};
  blow_up.param_upper = {2.0};
  const Status s = status_of(GetParam(), blow_up);
  EXPECT_TRUE(s == Status::unbounded || s == Status::solver_failed || s == Status::too_much_work)
      << status_string(s);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

TEST_P(BoundsMethods, TooMuchWorkAndUnknownOptionsAreReported) {
  Problem pr = bounds_problem(cubic_oscillator(10.0), 2, "ellipsoid");
  pr.max_steps = 10;
  std::string message;
  EXPECT_EQ(status_of(GetParam(), pr, &message), Status::too_much_work) << message;
  EXPECT_NE(message.find("max_steps"), std::string::npos) << message;
  pr = bounds_problem(cubic_oscillator(1.0), 2, "ellipsoid");
  pr.options.set("no_such_option", 1);
  EXPECT_EQ(status_of(GetParam(), pr), Status::unknown_option);
  pr = bounds_problem(cubic_oscillator(1.0), 2, "ellipsoid");
  pr.options.set("basis", "legendre");
  EXPECT_EQ(status_of(GetParam(), pr), Status::option_type);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

// A model without parameters has the empty box: a point enclosure.
TEST_P(BoundsMethods, ModelsWithoutParametersGiveAPointEnclosure) {
  Problem pr;
  pr.model = load_ode_text("state x = 1\ndx/dt = -x\n", "noparam.ode");
  pr.output_times = {1.0};
  const Result r = solve(pr, GetParam());
  ASSERT_EQ(r.bounds.n_monomials, 1u);
  EXPECT_TRUE(within(std::exp(-1.0), r.bounds.x_hull[0], r.bounds.x_hull[1]));
  EXPECT_LT(r.bounds.x_hull[1] - r.bounds.x_hull[0], 1e-8);
  EXPECT_TRUE(r.gradient.empty());
  // bounds_fsa's S (empty columns) is at every output time, as for
  // cvodes_fsa; bounds_asa keeps none.
  if (GetParam() == "bounds_fsa")
    EXPECT_EQ(r.s_times, pr.output_times);
  else
    EXPECT_TRUE(r.s_times.empty());
}

TEST_P(BoundsMethods, CallbackModelsAreRefused) {
  Problem pr;
  pr.model = load_model("builtin:linear:2");
  pr.output_times = {1.0};
  const std::size_t np = pr.model->np();
  pr.param_lower.assign(np, 0.0);
  pr.param_upper.assign(np, 0.1);
  std::string message;
  EXPECT_EQ(status_of(GetParam(), pr, &message), Status::unsupported);
  EXPECT_NE(message.find("expressions"), std::string::npos) << message;
}

// The adjoint of x' = p x grows backward like e^(T - t): from a weight of
// 1e308 it overflows, although x is bounded; the backward pass ends in
// `unbounded`, not a result.
TEST(BoundsAsa, BackwardPassThatCannotBeBoundedEndsInUnbounded) {
  Problem pr;
  pr.model = load_ode_text("param p = 1\nstate x = 1\ndx/dt = p*x\n", "grow.ode");
  pr.output_times = {0.5, 1.0};
  pr.param_lower = {0.9};
  pr.param_upper = {1.1};
  pr.adjoint_weights = {0.0, 1e308};
  std::string message;
  try {
    solve(pr, "bounds_asa");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unbounded) << e.what();
    message = e.what();
  }
  EXPECT_NE(message.find("t = "), std::string::npos) << message;
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  pr.adjoint_weights = {0.0, 1.0};
  EXPECT_NO_THROW(solve(pr, "bounds_asa"));
}

INSTANTIATE_TEST_SUITE_P(BothVariants, BoundsMethods,
                         ::testing::Values(std::string("bounds_fsa"), std::string("bounds_asa")));

}  // namespace
}  // namespace odesens
