// Every malformed problem is rejected with a specific status and message.
#include <gtest/gtest.h>

#include <cmath>

#include "odesens/odesens.hpp"

namespace odesens {
namespace {

Problem valid() {
  Problem p;
  p.model = make_builtin_model("chua");
  p.output_times = {1.0, 2.0};
  p.rtol = 1e-6;
  p.atol = {1e-8};
  return p;
}

void expect_rejected(const Problem& p, Status status, const char* fragment) {
  try {
    validate_problem(p);
    ADD_FAILURE() << "accepted; expected " << fragment;
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(ProblemValidation, ValidProblemPasses) { EXPECT_NO_THROW(validate_problem(valid())); }

TEST(ProblemValidation, WrongSizesAreRejected) {
  auto p = valid();
  p.params = {1.0};
  expect_rejected(p, Status::invalid_argument, "parameter vector has 1 entries, expected 2");
  p = valid();
  p.initial_state = {1.0, 2.0};
  expect_rejected(p, Status::invalid_argument, "initial state has 2 entries, expected 3");
  p = valid();
  p.atol = {1e-8, 1e-8};
  expect_rejected(p, Status::invalid_argument, "atol has 2 entries");
  p = valid();
  p.adjoint_weights = {1.0, 2.0, 3.0};
  expect_rejected(p, Status::invalid_argument, "adjoint weights");
  p = valid();
  p.model = nullptr;
  expect_rejected(p, Status::invalid_argument, "no model");
}

TEST(ProblemValidation, NonFiniteInputsAreRejected) {
  auto p = valid();
  p.params = {NAN, 15.0};
  expect_rejected(p, Status::not_finite, "parameter[0] is NaN or Inf");
  p = valid();
  p.params = {7.0, INFINITY};
  expect_rejected(p, Status::not_finite, "parameter[1]");
  p = valid();
  p.initial_state = {0.0, NAN, 0.0};
  expect_rejected(p, Status::not_finite, "initial state[1]");
  p = valid();
  p.output_times = {1.0, NAN};
  expect_rejected(p, Status::not_finite, "output time[1]");
  p = valid();
  p.rtol = NAN;
  expect_rejected(p, Status::not_finite, "rtol");
  p = valid();
  p.t0 = INFINITY;
  expect_rejected(p, Status::not_finite, "t0");
}

// R is (nx + np) x n_s: chua has 3 states and 2 parameters, so 5 rows.
TEST(ProblemValidation, SensitivityDirectionsNeedWholeFiniteColumns) {
  auto p = valid();
  p.sens_directions = std::vector<double>(10, 0.5);  // two directions
  EXPECT_NO_THROW(validate_problem(p));
  p.sens_directions.resize(7);
  expect_rejected(p, Status::invalid_argument,
                  "sensitivity directions has 7 entries, expected a multiple of nx + np = 5");
  p.sens_directions = std::vector<double>(5, 0.0);
  p.sens_directions[4] = NAN;
  expect_rejected(p, Status::not_finite, "sensitivity direction entry[4] is NaN or Inf");
}

TEST(ProblemValidation, BadTolerancesAndTimesAreRejected) {
  auto p = valid();
  p.rtol = 0.0;
  expect_rejected(p, Status::invalid_argument, "rtol must be in (0, 1), got 0");
  p.rtol = -1e-6;
  expect_rejected(p, Status::invalid_argument, "rtol must be in (0, 1), got -1e-06");
  p = valid();
  p.atol = {-1.0};
  expect_rejected(p, Status::invalid_argument, "atol must not be negative");
  p = valid();
  p.output_times = {2.0, 1.0};
  expect_rejected(p, Status::invalid_argument, "strictly increasing");
  p.output_times = {1.0, 1.0};
  expect_rejected(p, Status::invalid_argument, "strictly increasing");
  p = valid();
  p.output_times = {};
  expect_rejected(p, Status::invalid_argument, "no output times");
  p = valid();
  p.output_times = {-1.0, 1.0};
  expect_rejected(p, Status::invalid_argument, "before t0");
  p = valid();
  p.output_times = {0.0};
  expect_rejected(p, Status::invalid_argument, "last output time must be after t0");
  p = valid();
  p.max_steps = 0;
  expect_rejected(p, Status::invalid_argument, "max_steps");
}

// rtol >= 1 asks for no correct digit: with rtol 1e300 the solve ran and
// gave S with the wrong sign.
TEST(ProblemValidation, RelativeToleranceOfOneOrMoreIsRejected) {
  auto p = valid();
  p.rtol = 1.0;
  expect_rejected(p, Status::invalid_argument, "rtol must be in (0, 1), got 1");
  p.rtol = 1e300;
  expect_rejected(p, Status::invalid_argument, "rtol must be in (0, 1), got 1e+300");
  p.rtol = 0.5;
  EXPECT_NO_THROW(validate_problem(p));
}

// Spans from about 1e306 on made CVODES loop forever inside one step.
TEST(ProblemValidation, TimeSpansBeyondTheLimitAreRejected) {
  auto p = valid();
  p.output_times = {1e306};
  expect_rejected(p, Status::invalid_argument,
                  "the time span from t0 = 0 to the last output time 1e+306 is 1e+306, at most "
                  "1e+300");
  p.t0 = -1e308;
  p.output_times = {1e308};
  expect_rejected(p, Status::invalid_argument, "is inf, at most 1e+300");
  p.t0 = 1e307;
  p.output_times = {1.0000001e307};  // large times, short span: fine
  EXPECT_NO_THROW(validate_problem(p));
}

// A model that claims sizes it never allocates (as a C caller's could).
class HugeModel final : public Model {
 public:
  HugeModel(std::size_t nx, std::size_t np) : nx_(nx), np_(np) {}
  std::size_t nx() const override { return nx_; }
  std::size_t np() const override { return np_; }
  const std::vector<std::string>& state_names() const override { return none_; }
  const std::vector<std::string>& param_names() const override { return none_; }
  std::vector<double> nominal_params() const override {
    ADD_FAILURE() << "read before the sizes were checked";
    return {};
  }
  std::string name() const override { return "huge"; }
  void initial_state(const double*, double*, Workspace*) const override {}
  void rhs(double, const double*, const double*, double*, Workspace*) const override {}

 private:
  std::size_t nx_, np_;
  std::vector<std::string> none_;
};

// n_times x nx x np wrapped around size_t: a result of a few values would
// have been allocated and written far past its end.
TEST(ProblemValidation, SizesWhoseProductCannotBeAddressedAreRejected) {
  Problem p = valid();
  p.model = std::make_shared<HugeModel>(std::size_t{1} << 32, std::size_t{1} << 32);
  expect_rejected(p, Status::invalid_argument,
                  "the result would hold n_times x nx x (np + 1) = 2 x 4294967296 x 4294967297 "
                  "values, far more than any memory holds");
}

}  // namespace
}  // namespace odesens
