// What the MPI runs send between ranks, without MPI: a fit's start and a
// PEtab experiment's outcome survive encoding bit for bit (NaN, empty and
// large arrays, text with any bytes), and every truncation of their bytes,
// or a byte too many, is refused with internal_error, never read past.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "estimate/experiment_codec.hpp"
#include "fit/start_codec.hpp"

namespace odesens {
namespace {

StartResult sample_start() {
  StartResult s;
  s.index = 7;
  s.start = {0.5, -1.25, 3.0};
  s.end = {0.25, std::numeric_limits<double>::quiet_NaN(), -0.0};
  s.nllh = 138.22199693517703;
  s.nlpost = std::numeric_limits<double>::infinity();
  s.gradient_norm = 1e-300;
  s.iterations = 42;
  s.evaluations = 97;
  s.status = Status::too_much_work;
  s.exit_reason = std::string("max steps\0with a zero byte", 26);
  s.seconds = 1.5;
  s.flat = {0, 2};
  s.flat_known = true;
  return s;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(StartCodec, RoundTripsEveryField) {
  const StartResult s = sample_start();
  std::vector<char> bytes;
  fitting::encode_start(s, bytes);
  const StartResult back = fitting::decode_start(bytes.data(), bytes.size());
  EXPECT_EQ(back.index, s.index);
  EXPECT_EQ(back.start, s.start);
  ASSERT_EQ(back.end.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(same_bits(back.end[i], s.end[i]));
  EXPECT_EQ(back.nllh, s.nllh);
  EXPECT_EQ(back.nlpost, s.nlpost);
  EXPECT_EQ(back.gradient_norm, s.gradient_norm);
  EXPECT_EQ(back.iterations, s.iterations);
  EXPECT_EQ(back.evaluations, s.evaluations);
  EXPECT_EQ(back.status, s.status);
  EXPECT_EQ(back.exit_reason, s.exit_reason);
  EXPECT_EQ(back.seconds, s.seconds);
  EXPECT_EQ(back.flat, s.flat);
  EXPECT_TRUE(back.flat_known);
}

petab::ExperimentOutcome sample_outcome() {
  petab::ExperimentOutcome o;
  petab::ExperimentSolution& s = o.solution;
  s.params = {1.0, 2.0};
  s.times = {0.0, 0.5, 10.0};
  s.x.assign(6000, 0.125);
  s.S = {std::numeric_limits<double>::quiet_NaN(), -3.5};
  s.model_gradient = {};
  s.stats.steps = 12;
  s.stats.rhs_evals = 345;
  s.stats.error_test_failures = 2;
  s.stats.wall_seconds = 0.01;
  s.warnings = {"first", "", "third"};
  return o;
}

TEST(ExperimentCodec, RoundTripsSolutionsAndFailures) {
  const petab::ExperimentOutcome o = sample_outcome();
  std::vector<char> bytes;
  petab::encode_outcome(o, bytes);
  const petab::ExperimentOutcome back = petab::decode_outcome(bytes.data(), bytes.size());
  EXPECT_EQ(back.status, Status::ok);
  EXPECT_EQ(back.solution.params, o.solution.params);
  EXPECT_EQ(back.solution.times, o.solution.times);
  EXPECT_EQ(back.solution.x, o.solution.x);
  ASSERT_EQ(back.solution.S.size(), 2u);
  EXPECT_TRUE(std::isnan(back.solution.S[0]));
  EXPECT_EQ(back.solution.S[1], -3.5);
  EXPECT_TRUE(back.solution.x_steady.empty() && back.solution.model_gradient.empty());
  EXPECT_EQ(back.solution.stats.steps, 12);
  EXPECT_EQ(back.solution.stats.rhs_evals, 345);
  EXPECT_EQ(back.solution.stats.error_test_failures, 2);
  EXPECT_EQ(back.solution.stats.wall_seconds, 0.01);
  EXPECT_EQ(back.solution.warnings, o.solution.warnings);

  petab::ExperimentOutcome failed;
  failed.status = Status::solver_failed;
  failed.message = "condition 'c1': CVode failed";
  bytes.clear();
  petab::encode_outcome(failed, bytes);
  const petab::ExperimentOutcome f = petab::decode_outcome(bytes.data(), bytes.size());
  EXPECT_EQ(f.status, Status::solver_failed);
  EXPECT_EQ(f.message, failed.message);
}

// Every prefix, and the bytes with one more, are refused.
template <class Decode>
void expect_every_damage_refused(const std::vector<char>& bytes, Decode decode) {
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    try {
      decode(bytes.data(), n);
      ADD_FAILURE() << "a prefix of " << n << " of " << bytes.size() << " bytes was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::internal_error);
    }
  }
  std::vector<char> longer = bytes;
  longer.push_back('x');
  EXPECT_THROW(decode(longer.data(), longer.size()), Error);
}

TEST(MessageCodecs, DamagedBytesAreRefused) {
  std::vector<char> start;
  fitting::encode_start(sample_start(), start);
  expect_every_damage_refused(start, fitting::decode_start);
  petab::ExperimentOutcome small = sample_outcome();
  small.solution.x.resize(3);
  std::vector<char> outcome;
  petab::encode_outcome(small, outcome);
  expect_every_damage_refused(outcome, petab::decode_outcome);
}

}  // namespace
}  // namespace odesens
