// Values as bytes and back, for messages between the processes of one MPI
// run: native byte order and sizes, since both ends are the same program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "odesens/status.hpp"

namespace odesens::ensemble {

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<char>& out) : out_(out) {}
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

// Reads what a ByteWriter wrote; Error(internal_error) "a received WHAT is
// truncated or malformed" when the bytes run out or a length does not fit.
class ByteReader {
 public:
  ByteReader(const char* data, std::size_t size, const char* what)
      : at_(data), end_(data + size), what_(what) {}
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
  [[noreturn]] void fail() const {
    throw Error(Status::internal_error,
                std::string("a received ") + what_ + " is truncated or malformed");
  }
  const char* at_;
  const char* end_;
  const char* what_;
};

}  // namespace odesens::ensemble
