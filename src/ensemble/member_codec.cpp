#include "ensemble/member_codec.hpp"

#include <cstdint>
#include <string>

#include "ensemble/byte_codec.hpp"
#include "odesens/result_arrays.hpp"
#include "odesens/status.hpp"

namespace odesens::ensemble {

void encode_member(std::size_t index, const EnsembleMember& member, std::vector<char>& out) {
  ByteWriter w(out);
  const Result& r = member.result;
  w.u64(index);
  w.u64(member.ran ? 1 : 0);
  w.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(member.status)));
  w.text(member.message);
  w.text(r.method);
  w.u64(r.nx);
  w.u64(r.np);
  w.u64(r.ns);
  // Every array of the result's table (bounds included), in its order.
  for (const auto& view : result_arrays(r)) w.doubles(*view.data);
  const Stats& s = r.stats;
  for (std::int64_t v :
       {s.steps, s.rhs_evals, s.jac_evals, s.linear_setups, s.error_test_failures})
    w.u64(static_cast<std::uint64_t>(v));
  w.f64(s.wall_seconds);
  w.u64(s.extra.size());
  for (const auto& [name, value] : s.extra) {
    w.text(name);
    w.f64(value);
  }
  w.u64(r.warnings.size());
  for (const auto& warning : r.warnings) w.text(warning);
  // Set-valued methods' enclosures.
  const BoundsResult& b = r.bounds;
  w.text(b.basis);
  w.text(b.remainder);
  w.u64(static_cast<std::uint64_t>(b.order));
  w.u64(b.n_monomials);
  std::vector<double> exponents(b.exponents.begin(), b.exponents.end());  // small integers
  w.doubles(exponents);
}

EnsembleMember decode_member(const char* data, std::size_t size, std::size_t* index) {
  ByteReader in(data, size, "ensemble member");
  EnsembleMember m;
  Result& r = m.result;
  *index = static_cast<std::size_t>(in.u64());
  m.ran = in.u64() != 0;
  m.status = static_cast<Status>(static_cast<std::int64_t>(in.u64()));
  m.message = in.text();
  r.method = in.text();
  r.nx = static_cast<std::size_t>(in.u64());
  r.np = static_cast<std::size_t>(in.u64());
  r.ns = static_cast<std::size_t>(in.u64());
  for (const auto& spec : result_array_specs()) spec.storage(r) = in.doubles();
  Stats& s = r.stats;
  for (std::int64_t* v :
       {&s.steps, &s.rhs_evals, &s.jac_evals, &s.linear_setups, &s.error_test_failures})
    *v = static_cast<std::int64_t>(in.u64());
  s.wall_seconds = in.f64();
  const std::uint64_t extras = in.u64();
  for (std::uint64_t k = 0; k < extras; ++k) {
    std::string name = in.text();
    s.extra[name] = in.f64();
  }
  const std::uint64_t warnings = in.u64();
  for (std::uint64_t k = 0; k < warnings && !in.done(); ++k) r.warnings.push_back(in.text());
  BoundsResult& b = r.bounds;
  b.basis = in.text();
  b.remainder = in.text();
  b.order = static_cast<int>(in.u64());
  b.n_monomials = static_cast<std::size_t>(in.u64());
  for (double e : in.doubles()) b.exponents.push_back(static_cast<std::int64_t>(e));
  if (!in.done() || r.warnings.size() != warnings)
    throw Error(Status::internal_error, "a received ensemble member has trailing or missing bytes");
  return m;
}

}  // namespace odesens::ensemble
