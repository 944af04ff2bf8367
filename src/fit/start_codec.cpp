// A start result as bytes and back (start_codec.hpp).
#include "fit/start_codec.hpp"

#include <cstdint>

#include "ensemble/byte_codec.hpp"

namespace odesens::fitting {

void encode_start(const StartResult& s, std::vector<char>& out) {
  ensemble::ByteWriter w(out);
  w.u64(s.index);
  w.doubles(s.start);
  w.doubles(s.end);
  w.f64(s.nllh);
  w.f64(s.nlpost);
  w.f64(s.gradient_norm);
  w.u64(static_cast<std::uint64_t>(s.iterations));
  w.u64(static_cast<std::uint64_t>(s.evaluations));
  w.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(s.status)));
  w.text(s.exit_reason);
  w.f64(s.seconds);
  w.u64(s.flat_known ? 1 : 0);
  w.u64(s.flat.size());
  for (std::size_t i : s.flat) w.u64(i);
}

StartResult decode_start(const char* data, std::size_t size) {
  ensemble::ByteReader in(data, size, "fit start");
  StartResult s;
  s.index = static_cast<std::size_t>(in.u64());
  s.start = in.doubles();
  s.end = in.doubles();
  s.nllh = in.f64();
  s.nlpost = in.f64();
  s.gradient_norm = in.f64();
  s.iterations = static_cast<std::int64_t>(in.u64());
  s.evaluations = static_cast<std::int64_t>(in.u64());
  s.status = static_cast<Status>(static_cast<std::int64_t>(in.u64()));
  s.exit_reason = in.text();
  s.seconds = in.f64();
  s.flat_known = in.u64() != 0;
  const std::uint64_t n_flat = in.u64();
  if (n_flat > s.end.size())
    throw Error(Status::internal_error,
                "a received fit start has more flat parameters than parameters");
  for (std::uint64_t k = 0; k < n_flat; ++k) {
    const std::uint64_t i = in.u64();
    if (i >= s.end.size())
      throw Error(Status::internal_error, "a received fit start has a flat parameter out of range");
    s.flat.push_back(static_cast<std::size_t>(i));
  }
  if (!in.done()) throw Error(Status::internal_error, "a received fit start has trailing bytes");
  return s;
}

}  // namespace odesens::fitting
