#include "cli/parameter_table.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <unordered_map>

#include "cli/arguments.hpp"
#include "core/file_kind.hpp"
#include "core/quoted_text.hpp"
#include "odesens/status.hpp"

namespace odesens::cli {
namespace {

// A cell or name as shown in a message: at most 40 bytes of it, bytes that
// are not printable ASCII as \xNN.
std::string shown(const std::string& text) {
  return printable_text(text.size() <= 40 ? text : text.substr(0, 37)) +
         (text.size() <= 40 ? "" : "...");
}

char separator_of(const std::string& path, const std::string& flag) {
  std::string ext = path.size() >= 4 ? path.substr(path.size() - 4) : "";
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".csv") return ',';
  if (ext == ".tsv") return '\t';
  throw UsageError{flag + ": '" + path +
                   "' must end in .csv (comma-separated) or .tsv (tab-separated)"};
}

// The lines of a file descriptor, each without its '\n' (and '\r'), read
// in blocks so that no line longer than max_line_bytes is ever held.
class LineReader {
 public:
  LineReader(int fd, const std::string& path, const std::string& flag)
      : fd_(fd), path_(path), flag_(flag) {}

  // The next line into `line`; false at the end of the file.
  bool next(std::string& line) {
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
      if (line.size() + n > max_line_bytes)
        throw UsageError{path_ + ":" + std::to_string(number_ + 1) + ": line longer than " +
                         std::to_string(max_line_bytes >> 20) + " MiB"};
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
  std::size_t number() const { return number_; }  // of the line last returned, from 1

 private:
  bool fill() {
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

  int fd_;
  const std::string& path_;
  const std::string& flag_;
  std::array<char, 1 << 16> buffer_;
  std::size_t pos_ = 0, end_ = 0, number_ = 0;
};

struct FileDescriptor {
  int fd;
  ~FileDescriptor() { ::close(fd); }
};

// Spaces around a cell, and tabs when they do not separate cells.
bool blank(char c, char separator) { return c == ' ' || (c == '\t' && separator != '\t'); }

// The cells of `line` into `cells` (whose strings keep their storage from
// line to line).
void split_cells(const std::string& line, char separator, std::vector<std::string>& cells) {
  std::size_t count = 0, start = 0;
  while (true) {
    const auto pos = line.find(separator, start);
    std::size_t begin = start, end = pos == std::string::npos ? line.size() : pos;
    while (begin < end && blank(line[begin], separator)) ++begin;
    while (end > begin && blank(line[end - 1], separator)) --end;
    if (count == cells.size()) cells.emplace_back();
    cells[count++].assign(line, begin, end - begin);
    if (pos == std::string::npos) break;
    start = pos + 1;
  }
  cells.resize(count);
}

bool skipped(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  return first == std::string::npos || line[first] == '#';
}

enum class Cell { number, empty, not_a_number, out_of_range };

// A cell's value: any number strtod reads whole, NaN and Inf included
// (that member then fails with its own status), but not a finite number
// too large for a double, nor one too small to be told from 0 (1e-400
// would silently become 0; the .ode parser refuses both too).
Cell read_cell(const std::string& cell, double& value) {
  if (cell.empty()) return Cell::empty;
  errno = 0;
  char* end = nullptr;
  value = std::strtod(cell.c_str(), &end);
  if (end != cell.c_str() + cell.size()) return Cell::not_a_number;
  const bool underflow = errno == ERANGE && value == 0.0;
  return errno == ERANGE && (std::isinf(value) || underflow) ? Cell::out_of_range
                                                               : Cell::number;
}

}  // namespace

ParameterTable read_parameter_table(const std::string& path,
                                    const std::vector<std::string>& model_names,
                                    const std::string& model_name) {
  TableSchema schema;
  schema.flag = "--params";
  schema.column = "parameter";
  schema.names = model_names;
  schema.owner = "model " + model_name;
  schema.row = "member";
  schema.max_rows = max_members;
  schema.too_many = "parameter sets (members); at most " + std::to_string(max_members) +
                    " per run: split the file";
  return read_table(path, schema);
}

ParameterTable read_table(const std::string& path, const TableSchema& schema) {
  const std::string& flag = schema.flag;
  const std::vector<std::string>& model_names = schema.names;
  const char separator = separator_of(path, flag);
  // O_NONBLOCK: opening a FIFO does not wait for a writer (and is refused below).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw UsageError{flag + ": cannot read '" + path + "': " + std::strerror(errno)};
  const FileDescriptor file{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0)
    throw Error(Status::io_error, flag + ": cannot read '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(info.st_mode))
    throw UsageError{flag + ": cannot read '" + path + "': it is " + kind_of_file(info.st_mode) +
                     ", not a regular file"};
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);

  LineReader lines(fd, path, flag);
  std::string line;
  std::vector<std::string> cells;
  ParameterTable table;
  while (lines.next(line)) {
    if (lines.number() == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
    if (skipped(line)) continue;
    split_cells(line, separator, cells);
    const auto at = [&] { return path + ":" + std::to_string(lines.number()) + ": "; };
    if (table.header_line == 0) {
      table.header_line = lines.number();
      std::unordered_map<std::string, std::size_t> seen;
      for (std::size_t c = 0; c < cells.size(); ++c) {
        if (cells[c].empty())
          throw UsageError{at() + "column " + std::to_string(c + 1) +
                           " of the header is empty (expected a " + schema.column + " name)"};
        const auto [it, fresh] = seen.emplace(cells[c], c);
        if (!fresh)
          throw UsageError{at() + schema.column + " '" + shown(cells[c]) +
                           "' appears twice in the header (columns " +
                           std::to_string(it->second + 1) + " and " + std::to_string(c + 1) + ")"};
        const auto known = std::find(model_names.begin(), model_names.end(), cells[c]);
        if (known == model_names.end())
          throw UsageError{at() + schema.owner + " has no " + schema.column + " '" +
                           shown(cells[c]) + "' (column " + std::to_string(c + 1) + ")"};
        table.columns.push_back(static_cast<std::size_t>(known - model_names.begin()));
      }
      table.names = cells;
      continue;
    }
    if (cells.size() != table.names.size())
      throw UsageError{at() + std::to_string(cells.size()) +
                       (cells.size() == 1 ? " cell" : " cells") + ", but the header (line " +
                       std::to_string(table.header_line) + ") has " +
                       std::to_string(table.names.size())};
    if (table.rows == schema.max_rows)
      throw UsageError{at() + "more than " + std::to_string(schema.max_rows) + " " +
                       schema.too_many};
    for (std::size_t c = 0; c < cells.size(); ++c) {
      double value = 0.0;
      Cell cell = read_cell(cells[c], value);
      if (cell == Cell::empty && schema.empty_is_nan) {
        cell = Cell::number;
        value = std::numeric_limits<double>::quiet_NaN();
      }
      if (cell != Cell::number) {
        const std::string column =
            "column " + std::to_string(c + 1) + " (" + shown(table.names[c]) + ")";
        if (cell == Cell::empty) throw UsageError{at() + column + " is empty"};
        throw UsageError{at() + column + ": '" + shown(cells[c]) + "' is " +
                         (cell == Cell::out_of_range ? "out of the range of doubles"
                                                     : "not a number")};
      }
      table.values.push_back(value);
    }
    ++table.rows;
  }
  if (table.header_line == 0)
    throw UsageError{path + ": " +
                     (lines.number() == 0 ? "empty file" : "only blank and comment lines") +
                     ": expected a header row of " + schema.column + " names, then one row per " +
                     schema.row};
  if (table.rows == 0)
    throw UsageError{path + ": no data rows after the header (line " +
                     std::to_string(table.header_line) + "): expected one row of values per " +
                     schema.row};
  return table;
}

std::vector<std::vector<double>> parameter_sets(const ParameterTable& table,
                                                const std::vector<double>& nominal,
                                                std::size_t first, std::size_t count) {
  const std::size_t columns = table.columns.size();
  std::vector<std::vector<double>> sets(count, nominal);
  for (std::size_t k = 0; k < count; ++k)
    for (std::size_t c = 0; c < columns; ++c)
      sets[k][table.columns[c]] = table.values[(first + k) * columns + c];
  return sets;
}

}  // namespace odesens::cli
