// solve_ensemble: every method gives, bit for bit, the results of K separate
// solve() calls whatever the number of threads; failed members keep their
// status and message without touching the others; per-member initial
// states and output times; the callback runs once per member, never two at
// once; cancellation and the errors of the call itself. Run under
// ThreadSanitizer by scripts/test.sh.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "ensemble/member_codec.hpp"
#include "odesens/odesens.hpp"

namespace odesens {
namespace {

// Nonlinear, with exact first and second derivatives (every method takes it).
const char* kModel = R"(
param k1 = 0.8
param k2 = 1.7
param km = 0.4
state a = 1.0
state b = 0.2
state c = 0.0
da/dt = -k1 * a / (km + a) + 0.1 * c
db/dt = k1 * a / (km + a) - k2 * b
dc/dt = k2 * b - 0.1 * c
)";

Problem base_problem() {
  Problem p;
  p.model = load_ode_text(kModel, "ensemble.ode");
  p.output_times = {0.5, 1.0, 2.0};
  return p;
}

std::vector<std::vector<double>> parameter_sets(std::size_t k) {
  std::vector<std::vector<double>> sets;
  for (std::size_t i = 0; i < k; ++i)
    sets.push_back({0.8 + 0.05 * static_cast<double>(i), 1.7 - 0.1 * static_cast<double>(i),
                    0.4 + 0.02 * static_cast<double>(i % 3)});
  return sets;
}

// Every number of a result that a method computes (not the wall time).
void expect_same_numbers(const Result& a, const Result& b, const std::string& where) {
  // Every array of the result's table, the enclosures' included.
  const auto arrays_a = result_arrays(a), arrays_b = result_arrays(b);
  for (std::size_t k = 0; k < arrays_a.size(); ++k)
    EXPECT_EQ(*arrays_a[k].data, *arrays_b[k].data) << where << ": " << arrays_a[k].spec->name;
  EXPECT_EQ(a.stats.steps, b.stats.steps) << where;
}

class EveryMethod : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryMethod, MembersEqualSeparateSolvesWithOneTwoAndFourThreads) {
  const std::string method = GetParam();
  Problem base = base_problem();
  // A set-valued solve encloses one box, whatever a member's parameters:
  // the ensemble refuses it (Ensemble.EnclosingOneBoxIsTheCallsError).
  if (method_info(method).capabilities.parameter_box) GTEST_SKIP() << "one box, no members";
  const auto sets = parameter_sets(6);
  std::vector<Result> separate;
  for (const auto& p : sets) {
    Problem q = base;
    q.params = p;
    separate.push_back(solve(q, method));
  }
  for (unsigned threads : {1u, 2u, 4u}) {
    EnsembleOptions options;
    options.threads = threads;
    const auto members = solve_ensemble(base, method, sets, options);
    ASSERT_EQ(members.size(), sets.size());
    for (std::size_t k = 0; k < sets.size(); ++k) {
      const std::string where = method + ", " + std::to_string(threads) + " threads, member " +
                                std::to_string(k);
      EXPECT_TRUE(members[k].ran) << where;
      ASSERT_EQ(members[k].status, Status::ok) << where << ": " << members[k].message;
      EXPECT_TRUE(members[k].message.empty()) << where;
      EXPECT_EQ(members[k].result.method, method) << where;
      expect_same_numbers(members[k].result, separate[k], where);
    }
  }
}

std::vector<std::string> method_ids() {
  std::vector<std::string> ids;
  for (const auto& m : method_infos()) ids.push_back(m.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(Ensemble, EveryMethod, ::testing::ValuesIn(method_ids()),
                         [](const auto& param_info) { return param_info.param; });

// auto chooses and learns per session (it bounds odesd by its first run and
// leaves a method that failed twice in a row); in an ensemble every member
// is still solve(problem_k, "auto"), whichever worker solved what before it.
TEST(Ensemble, AutoMembersEqualSeparateSolvesWhateverRanBefore) {
  Problem base;
  base.model = load_ode_text("param w = 1\nstate x = 0\ndx/dt = -x + sin(w*t)\n", "forced.ode");
  base.output_times = {10.0, 20.0, 30.0, 40.0};
  base.options.set("probe_steps", 0);  // odesd: many more steps at w = 50 than at w = 1
  const std::vector<std::vector<double>> sets = {{1.0}, {50.0}, {50.0}, {1.0}, {50.0}, {1.0}};
  std::vector<Result> separate;
  for (const auto& p : sets) {
    Problem q = base;
    q.params = p;
    separate.push_back(solve(q, kAutomaticMethod));
  }
  for (unsigned threads : {1u, 2u}) {
    EnsembleOptions options;
    options.threads = threads;
    const auto members = solve_ensemble(base, kAutomaticMethod, sets, options);
    for (std::size_t k = 0; k < sets.size(); ++k) {
      const std::string where = std::to_string(threads) + " threads, member " + std::to_string(k);
      ASSERT_EQ(members[k].status, Status::ok) << where << ": " << members[k].message;
      EXPECT_EQ(members[k].result.method, separate[k].method) << where;
      EXPECT_EQ(members[k].result.method_choice, separate[k].method_choice) << where;
      expect_same_numbers(members[k].result, separate[k], where);
    }
  }
}

// A NaN parameter and a member that runs out of steps fail alone.
TEST(Ensemble, FailedMembersKeepTheirStatusAndTheOthersAreComplete) {
  Problem base = base_problem();
  base.max_steps = 200;
  auto sets = parameter_sets(5);
  sets[1][0] = NAN;
  sets[3] = {8e4, 1.7, 0.4};  // stiff: Adams-free explicit work explodes
  EnsembleOptions options;
  options.threads = 2;
  const auto members = solve_ensemble(base, "dopri8s", sets, options);
  EXPECT_EQ(members[1].status, Status::not_finite);
  EXPECT_NE(members[1].message.find("NaN"), std::string::npos) << members[1].message;
  EXPECT_EQ(members[3].status, Status::too_much_work) << members[3].message;
  for (std::size_t k : {0u, 2u, 4u}) {
    ASSERT_EQ(members[k].status, Status::ok) << k << ": " << members[k].message;
    EXPECT_EQ(members[k].result.x.size(), 3u * 3u);
  }
  EXPECT_TRUE(members[1].result.x.empty());
}

// A parameter vector of the wrong length is that member's error.
TEST(Ensemble, AWrongParameterCountIsTheMembersError) {
  auto sets = parameter_sets(3);
  sets[2].pop_back();
  const auto members = solve_ensemble(base_problem(), "cvodes_fsa", sets);
  EXPECT_EQ(members[0].status, Status::ok);
  EXPECT_EQ(members[2].status, Status::invalid_argument);
  EXPECT_FALSE(members[2].message.empty());
}

// What every member would fail for is the call's error, not K members'.
TEST(Ensemble, NoOutputTimesAtAllIsTheCallsError) {
  Problem base = base_problem();
  base.output_times.clear();
  try {
    solve_ensemble(base, "cvodes_fsa", parameter_sets(3));
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("no output times"), std::string::npos) << e.what();
  }
}

// A set-valued method encloses one box: every member got that box's
// enclosure whatever its parameters. The call refuses it.
TEST(Ensemble, EnclosingOneBoxIsTheCallsError) {
  Problem boxed = base_problem();
  for (double v : boxed.model->nominal_params()) {
    boxed.param_lower.push_back(0.99 * v);
    boxed.param_upper.push_back(1.01 * v);
  }
  const std::vector<std::pair<const char*, const Problem*>> cases = {
      {"bounds_fsa", &boxed}, {"bounds_asa", &boxed}, {kAutomaticMethod, &boxed}};
  for (const auto& [method, problem] : cases) {
    try {
      solve_ensemble(*problem, method, parameter_sets(2));
      ADD_FAILURE() << method << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::unsupported) << method;
      EXPECT_NE(std::string(e.what()).find("one box"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(solve_ensemble(base_problem(), kAutomaticMethod, parameter_sets(1))[0].status,
            Status::ok);
}

TEST(Ensemble, MembersTakeTheirOwnInitialStatesAndOutputTimes) {
  const Problem base = base_problem();
  const auto sets = parameter_sets(3);
  EnsembleOptions options;
  options.threads = 2;
  options.initial_states = {{}, {2.0, 0.0, 0.5}, {}};
  options.output_times = {{}, {}, {0.25, 3.0}};
  const auto members = solve_ensemble(base, "cvodes_fsa", sets, options);
  for (const auto& m : members) ASSERT_EQ(m.status, Status::ok) << m.message;
  EXPECT_EQ(members[0].result.times, base.output_times);
  EXPECT_EQ(members[2].result.times, (std::vector<double>{0.25, 3.0}));
  Problem one = base;
  one.params = sets[1];
  one.initial_state = {2.0, 0.0, 0.5};
  expect_same_numbers(members[1].result, solve(one, "cvodes_fsa"), "member 1");
  // An initial state given per member means dx0/dp = 0.
  EXPECT_NE(members[1].result.x[0], members[0].result.x[0]);
}

TEST(Ensemble, CallbackRunsOncePerMemberNeverTwoAtOnce) {
  const auto sets = parameter_sets(8);
  std::atomic<int> inside{0}, most_inside{0};
  std::vector<int> calls(sets.size(), 0);
  EnsembleOptions options;
  options.threads = 4;
  options.on_member_done = [&](std::size_t k, const EnsembleMember& m) {
    const int now = ++inside;
    if (now > most_inside) most_inside = now;
    EXPECT_EQ(m.status, Status::ok);
    ++calls[k];
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    --inside;
  };
  solve_ensemble(base_problem(), "cvodes_fsa", sets, options);
  EXPECT_EQ(most_inside.load(), 1);
  for (int c : calls) EXPECT_EQ(c, 1);
}

TEST(Ensemble, ACallbackErrorStopsTheEnsembleAndIsRethrown) {
  const auto sets = parameter_sets(20);
  std::atomic<int> calls{0};
  EnsembleOptions options;
  options.threads = 2;
  options.on_member_done = [&](std::size_t, const EnsembleMember&) {
    ++calls;
    throw Error(Status::io_error, "disk full");
  };
  try {
    solve_ensemble(base_problem(), "cvodes_fsa", sets, options);
    FAIL() << "expected the callback's error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::io_error);
    EXPECT_STREQ(e.what(), "disk full");
  }
  EXPECT_EQ(calls.load(), 1);
}

TEST(Ensemble, CancelledMembersAreMarkedNotRun) {
  const auto sets = parameter_sets(10);
  std::atomic<bool> cancel{false};
  EnsembleOptions options;
  options.threads = 1;
  options.cancel = &cancel;
  options.on_member_done = [&](std::size_t k, const EnsembleMember&) {
    if (k == 2) cancel = true;
  };
  const auto members = solve_ensemble(base_problem(), "cvodes_fsa", sets, options);
  for (std::size_t k = 0; k < members.size(); ++k) {
    EXPECT_EQ(members[k].ran, k <= 2) << k;
    if (k > 2) {
      EXPECT_EQ(members[k].status, Status::unsupported);
      EXPECT_NE(members[k].message.find("cancelled"), std::string::npos);
    }
  }
}

// keep_results = false: the callback sees each result, the returned
// members keep only their status and message.
TEST(Ensemble, ResultsReleasedAfterTheCallbackWhenNotKept) {
  auto sets = parameter_sets(4);
  sets[2][0] = NAN;
  std::vector<std::vector<double>> seen(sets.size());
  EnsembleOptions options;
  options.threads = 2;
  options.keep_results = false;
  options.on_member_done = [&](std::size_t k, const EnsembleMember& m) { seen[k] = m.result.x; };
  const auto members = solve_ensemble(base_problem(), "cvodes_fsa", sets, options);
  for (std::size_t k = 0; k < members.size(); ++k) {
    EXPECT_TRUE(members[k].ran) << k;
    EXPECT_TRUE(members[k].result.x.empty()) << k;
    EXPECT_TRUE(members[k].result.s.empty()) << k;
    if (k == 2) continue;
    EXPECT_EQ(members[k].status, Status::ok) << k;
    EXPECT_EQ(seen[k].size(), 3u * 3u) << k;
  }
  EXPECT_EQ(members[2].status, Status::not_finite);
  EXPECT_FALSE(members[2].message.empty());
}

TEST(Ensemble, ErrorsOfTheCallItself) {
  const auto sets = parameter_sets(3);
  try {
    solve_ensemble(base_problem(), "rk45", sets);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unknown_method);
  }
  EnsembleOptions options;
  options.output_times = {{1.0}};
  try {
    solve_ensemble(base_problem(), "cvodes_fsa", sets, options);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("one per member (3)"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(solve_ensemble(base_problem(), "cvodes_fsa", {}).empty());
}

// The bytes an MPI run sends for a member give back the same member.
TEST(EnsembleMemberCodec, RoundTripsEveryField) {
  Problem p = base_problem();
  p.options.set("directions", "all");
  EnsembleMember m;
  m.ran = true;
  m.result = solve(p, "dopri8s");
  m.result.warnings = {"first", "second"};
  m.result.gradient = {1.5, -2.0, 0.25};
  std::vector<char> bytes;
  ensemble::encode_member(17, m, bytes);
  std::size_t index = 0;
  const EnsembleMember back = ensemble::decode_member(bytes.data(), bytes.size(), &index);
  EXPECT_EQ(index, 17u);
  EXPECT_TRUE(back.ran);
  EXPECT_EQ(back.status, Status::ok);
  expect_same_numbers(back.result, m.result, "round trip");
  EXPECT_EQ(back.result.ns, m.result.ns);
  EXPECT_EQ(back.result.nx, m.result.nx);
  EXPECT_EQ(back.result.method, "dopri8s");
  EXPECT_EQ(back.result.stats.all(), m.result.stats.all());
  EXPECT_EQ(back.result.warnings, m.result.warnings);

  // A set-valued member: every array of its bounds.
  Problem box = base_problem();
  box.param_lower = {0.7, 1.5, 0.35};
  box.param_upper = {0.9, 1.8, 0.45};
  box.options.set("order", 2);
  EnsembleMember bounded;
  bounded.ran = true;
  bounded.result = solve(box, "bounds_fsa");
  bytes.clear();
  ensemble::encode_member(4, bounded, bytes);
  const Result decoded = ensemble::decode_member(bytes.data(), bytes.size(), &index).result;
  expect_same_numbers(decoded, bounded.result, "set-valued round trip");
  const BoundsResult& b = decoded.bounds;
  const BoundsResult& a = bounded.result.bounds;
  EXPECT_EQ(b.basis, a.basis);
  EXPECT_EQ(b.remainder, a.remainder);
  EXPECT_EQ(b.order, a.order);
  EXPECT_EQ(b.n_monomials, a.n_monomials);
  EXPECT_EQ(b.exponents, a.exponents);
  EXPECT_EQ(b.box_mid, a.box_mid);
  EXPECT_EQ(b.x_coef, a.x_coef);
  EXPECT_EQ(b.x_shape, a.x_shape);
  EXPECT_EQ(b.s_rem, a.s_rem);
  EXPECT_EQ(b.gradient_hull, a.gradient_hull);
  EXPECT_FALSE(a.x_coef.empty());

  EnsembleMember failed;
  failed.ran = true;
  failed.status = Status::too_much_work;
  failed.message = "max_steps (10) reached at t = 0.5";
  bytes.clear();
  ensemble::encode_member(3, failed, bytes);
  const EnsembleMember f = ensemble::decode_member(bytes.data(), bytes.size(), &index);
  EXPECT_EQ(f.status, Status::too_much_work);
  EXPECT_EQ(f.message, failed.message);
  // Truncated or padded bytes are refused, never read past.
  for (std::size_t cut : {std::size_t{0}, std::size_t{5}, bytes.size() - 1}) {
    EXPECT_THROW(ensemble::decode_member(bytes.data(), cut, &index), Error) << cut;
  }
  bytes.push_back('x');
  EXPECT_THROW(ensemble::decode_member(bytes.data(), bytes.size(), &index), Error);
}

}  // namespace
}  // namespace odesens
