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

TEST(ProblemValidation, BadTolerancesAndTimesAreRejected) {
  auto p = valid();
  p.rtol = 0.0;
  expect_rejected(p, Status::invalid_argument, "rtol must be positive");
  p.rtol = -1e-6;
  expect_rejected(p, Status::invalid_argument, "rtol must be positive");
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

}  // namespace
}  // namespace odesens
