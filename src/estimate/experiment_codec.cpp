// An experiment's outcome as bytes and back (experiment_codec.hpp).
#include "estimate/experiment_codec.hpp"

#include <array>
#include <cstdint>

#include "ensemble/byte_codec.hpp"

namespace odesens::petab {
namespace {

// Every array of a solution, in one order for both directions.
template <class S>
auto arrays(S& s) {
  return std::array{&s.params, &s.times, &s.x, &s.S, &s.x_steady, &s.S_steady, &s.model_gradient};
}

template <class S>
auto counters(S& s) {
  return std::array{&s.steps, &s.rhs_evals, &s.jac_evals, &s.linear_setups,
                    &s.error_test_failures};
}

}  // namespace

void encode_outcome(const ExperimentOutcome& outcome, std::vector<char>& out) {
  ensemble::ByteWriter w(out);
  w.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(outcome.status)));
  w.text(outcome.message);
  const ExperimentSolution& s = outcome.solution;
  for (const auto* v : arrays(s)) w.doubles(*v);
  for (const auto* c : counters(s.stats)) w.u64(static_cast<std::uint64_t>(*c));
  w.f64(s.stats.wall_seconds);
  w.u64(s.warnings.size());
  for (const std::string& text : s.warnings) w.text(text);
}

ExperimentOutcome decode_outcome(const char* data, std::size_t size) {
  ensemble::ByteReader in(data, size, "PEtab experiment");
  ExperimentOutcome outcome;
  outcome.status = static_cast<Status>(static_cast<std::int64_t>(in.u64()));
  outcome.message = in.text();
  ExperimentSolution& s = outcome.solution;
  for (auto* v : arrays(s)) *v = in.doubles();
  for (auto* c : counters(s.stats)) *c = static_cast<std::int64_t>(in.u64());
  s.stats.wall_seconds = in.f64();
  const std::uint64_t warnings = in.u64();
  for (std::uint64_t k = 0; k < warnings && !in.done(); ++k) s.warnings.push_back(in.text());
  if (!in.done() || s.warnings.size() != warnings)
    throw Error(Status::internal_error, "a received PEtab experiment has trailing or missing bytes");
  return outcome;
}

}  // namespace odesens::petab
