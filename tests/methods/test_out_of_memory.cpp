// Memory running out inside a solve: support/allocation_counter.cpp fails
// one allocation of this thread, at points spread over a whole solve (set-up, steps, events, the backward pass, the
// result). Every method ends with out_of_memory and a message, never a
// crash, a leak (LeakSanitizer in the sanitized build) or another status.
// cvodes_asa's forward pass keeps a record per segment between events,
// the memory that grows with the events: its message says so.
#include <gtest/gtest.h>

#include <string>

#include "odesens/odesens.hpp"
#include "support/allocation_counter.hpp"

namespace odesens {
namespace {

// x decays and is dosed every 0.01: 200 events over [0, 2], each the end
// of one of cvodes_asa's forward segments.
const char* kDosing = R"(
param k = 1
param dose = 0.01
state x = 1
state next = 0.01
dx/dt = -k * x
dnext/dt = 0
event dosing when t >= next: x = x + dose; next = next + 0.01
)";

Problem dosing_problem() {
  Problem problem;
  problem.model = load_ode_text(kDosing, "dosing.ode");
  problem.output_times = {0.0, 1.0, 2.0};
  return problem;
}

struct Outcome {
  Status status = Status::ok;
  std::string message;
};

// The solve with allocation number `which` failing (-1: none).
Outcome solve_failing_at(const Problem& problem, const std::string& method, long which) {
  Outcome outcome;
  allocations = 0;
  failing_at = which;
  counting = true;
  bool escaped = false;
  try {
    solve(problem, method);
  } catch (const Error& e) {
    counting = false;
    outcome = {e.status(), e.what()};
  } catch (...) {  // not an Error: a failure in itself (said after counting stops)
    escaped = true;
  }
  counting = false;
  failing_at = -1;
  if (escaped) outcome = {Status::internal_error, "an exception other than Error escaped"};
  return outcome;
}

TEST(OutOfMemory, EveryMethodEndsWithItsStatusWhereverMemoryRunsOut) {
  const Problem problem = dosing_problem();
  for (const char* method : {"cvodes_fsa", "cvodes_asa", "pbsr", "exp", "odesd", "dopri8s",
                             "grk4as", "erk_adjoint"}) {
    // The first solve also fills the model's caches (tapes made on first
    // use): the second counts what every later solve allocates.
    ASSERT_EQ(solve_failing_at(problem, method, -1).status, Status::ok) << method;
    ASSERT_EQ(solve_failing_at(problem, method, -1).status, Status::ok) << method;
    const long total = allocations;
    ASSERT_GT(total, 200) << method;  // at least one per event
    for (int i = 0; i < 16; ++i) {
      const long which = total * i / 16;
      const Outcome o = solve_failing_at(problem, method, which);
      EXPECT_EQ(o.status, Status::out_of_memory)
          << method << ", allocation failing: " << which << " of " << total << ": "
          << o.message;
      EXPECT_FALSE(o.message.empty()) << method;
    }
  }
}

TEST(OutOfMemory, CvodesAdjointSaysWhatItsEventSegmentsKeep) {
  const Problem problem = dosing_problem();
  const Result r = solve(problem, "cvodes_asa");
  ASSERT_EQ(r.stats.extra.at("segments"), 200.0);  // the events split [0, 2]
  ASSERT_EQ(solve_failing_at(problem, "cvodes_asa", -1).status, Status::ok);
  const long total = allocations;
  int naming_segments = 0;
  for (int i = 1; i < 20; ++i) {
    const Outcome o = solve_failing_at(problem, "cvodes_asa", total * i / 20);
    ASSERT_EQ(o.status, Status::out_of_memory) << o.message;
    if (o.message.find("segments between events") == std::string::npos) continue;
    ++naming_segments;
    EXPECT_NE(o.message.find("start state and the instant that ends it"), std::string::npos)
        << o.message;
    EXPECT_NE(o.message.find("bytes each"), std::string::npos) << o.message;
  }
  // Most of a solve's allocations are the forward pass's records.
  EXPECT_GE(naming_segments, 5);
}

}  // namespace
}  // namespace odesens
