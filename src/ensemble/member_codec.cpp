#include "ensemble/member_codec.hpp"

#include <array>

#include <cstdint>
#include <cstring>
#include <string>

#include "odesens/status.hpp"

namespace odesens::ensemble {
namespace {

// Native byte order and sizes: both ends are processes of one MPI run of
// the same program, so the layout is theirs alike.
class Writer {
 public:
  explicit Writer(std::vector<char>& out) : out_(out) {}
  void u64(std::uint64_t v) { raw(&v, sizeof v); }
  void f64(double v) { raw(&v, sizeof v); }
  void text(const std::string& s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
  void doubles(const std::vector<double>& v) {
    u64(v.size());
    raw(v.data(), v.size() * sizeof(double));
  }

 private:
  void raw(const void* p, std::size_t n) {
    if (n == 0) return;
    const char* c = static_cast<const char*>(p);
    out_.insert(out_.end(), c, c + n);
  }
  std::vector<char>& out_;
};

class Reader {
 public:
  Reader(const char* data, std::size_t size) : at_(data), end_(data + size) {}
  std::uint64_t u64() {
    std::uint64_t v;
    raw(&v, sizeof v);
    return v;
  }
  double f64() {
    double v;
    raw(&v, sizeof v);
    return v;
  }
  std::string text() {
    const std::uint64_t n = count(1);
    std::string s(at_, at_ + n);
    at_ += n;
    return s;
  }
  std::vector<double> doubles() {
    const std::uint64_t n = count(sizeof(double));
    std::vector<double> v(n);
    raw(v.data(), n * sizeof(double));
    return v;
  }
  bool done() const { return at_ == end_; }

 private:
  // A length that fits in what is left, each element `width` bytes.
  std::uint64_t count(std::size_t width) {
    const std::uint64_t n = u64();
    if (n > static_cast<std::uint64_t>(end_ - at_) / width) fail();
    return n;
  }
  void raw(void* p, std::size_t n) {
    if (static_cast<std::size_t>(end_ - at_) < n) fail();
    if (n == 0) return;  // p may be an empty vector's null data()
    std::memcpy(p, at_, n);
    at_ += n;
  }
  [[noreturn]] static void fail() {
    throw Error(Status::internal_error, "a received ensemble member is truncated or malformed");
  }
  const char* at_;
  const char* end_;
};

}  // namespace

// Every array of a BoundsResult, in one order for both directions.
template <class B>
auto bounds_arrays(B& b) {
  return std::array{&b.box_lower, &b.box_upper, &b.box_mid, &b.box_rad, &b.x_coef, &b.x_rem,
                    &b.x_hull, &b.x_shape, &b.s_coef, &b.s_rem, &b.s_hull, &b.gradient_coef,
                    &b.gradient_rem, &b.gradient_hull};
}

void encode_member(std::size_t index, const EnsembleMember& member, std::vector<char>& out) {
  Writer w(out);
  const Result& r = member.result;
  w.u64(index);
  w.u64(member.ran ? 1 : 0);
  w.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(member.status)));
  w.text(member.message);
  w.text(r.method);
  w.u64(r.nx);
  w.u64(r.np);
  w.u64(r.ns);
  for (const auto* v : {&r.times, &r.x, &r.s_times, &r.s, &r.sr, &r.gradient, &r.gradient_x0,
                        &r.objective_values})
    w.doubles(*v);
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
  for (const auto* v : bounds_arrays(b)) w.doubles(*v);
}

EnsembleMember decode_member(const char* data, std::size_t size, std::size_t* index) {
  Reader in(data, size);
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
  for (auto* v : {&r.times, &r.x, &r.s_times, &r.s, &r.sr, &r.gradient, &r.gradient_x0,
                  &r.objective_values})
    *v = in.doubles();
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
  for (auto* v : bounds_arrays(b)) *v = in.doubles();
  if (!in.done() || r.warnings.size() != warnings)
    throw Error(Status::internal_error, "a received ensemble member has trailing or missing bytes");
  return m;
}

}  // namespace odesens::ensemble
