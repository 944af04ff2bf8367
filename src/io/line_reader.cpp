#include "io/line_reader.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "odesens/status.hpp"

namespace odesens::io {

LineReader::LineReader(int fd, const std::string& path, const std::string& flag,
                       std::size_t max_line_bytes)
    : fd_(fd), path_(path), flag_(flag), max_line_bytes_(max_line_bytes) {}

bool LineReader::next(std::string& line) {
  line.clear();
  bool any = false;
  while (true) {
    if (pos_ == end_) {
      if (!fill()) {
        if (!any) return false;
        break;
      }
    }
    any = true;
    const char* start = buffer_.data() + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end_ - pos_));
    const std::size_t n = nl ? static_cast<std::size_t>(nl - start) : end_ - pos_;
    if (line.size() + n > max_line_bytes_)
      throw Error(Status::invalid_argument, path_ + ":" + std::to_string(number_ + 1) +
                                                ": line longer than " +
                                                std::to_string(max_line_bytes_ >> 20) + " MiB");
    line.append(start, n);
    pos_ += n;
    if (nl) {
      ++pos_;
      break;
    }
  }
  ++number_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

bool LineReader::fill() {
  while (true) {
    const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw Error(Status::io_error,
                  flag_ + ": reading '" + path_ + "' failed: " + std::strerror(errno));
    pos_ = 0;
    end_ = static_cast<std::size_t>(n);
    return n > 0;
  }
}

}  // namespace odesens::io
