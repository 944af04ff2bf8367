// The lines of a text file, read in blocks so that no line longer than a
// limit is ever held whole.
#pragma once

#include <array>
#include <cstddef>
#include <string>

namespace odesens::io {

class LineReader {
 public:
  // Reads the open descriptor `fd` of PATH (not owned). `flag` introduces
  // PATH in the message of a failed read ("--params").
  LineReader(int fd, const std::string& path, const std::string& flag, std::size_t max_line_bytes);

  // The next line into `line`, without its '\n' (and '\r'); false at the end
  // of the file. Error(invalid_argument) naming PATH and the line for a line
  // longer than max_line_bytes, Error(io_error) when reading fails.
  bool next(std::string& line);
  std::size_t number() const { return number_; }  // of the line last returned, from 1

 private:
  bool fill();

  int fd_;
  const std::string& path_;
  const std::string& flag_;
  std::size_t max_line_bytes_;
  std::array<char, 1 << 16> buffer_;
  std::size_t pos_ = 0, end_ = 0, number_ = 0;
};

}  // namespace odesens::io
