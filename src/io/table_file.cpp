#include "io/table_file.hpp"

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

#include "core/file_kind.hpp"
#include "core/number_text.hpp"
#include "core/quoted_text.hpp"
#include "core/text_encoding.hpp"
#include "io/line_reader.hpp"
#include "odesens/status.hpp"

namespace odesens::io {
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
  throw Error(Status::invalid_argument,
              flag + ": '" + path + "' must end in .csv (comma-separated) or .tsv (tab-separated)");
}

// An open file, closed with this object.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  FileDescriptor& operator=(FileDescriptor&&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Refuses a file in UTF-16 or UTF-32 by its first bytes, read apart from
// its lines: split at '\n', a UTF-16 file whose first line is blank would
// show the NUL byte of that line end at the start of its second line only.
void refuse_other_unicode_file(int fd, const std::string& path) {
  char head[64];
  const ssize_t n = ::pread(fd, head, sizeof head, 0);
  if (n > 0) refuse_other_unicode(std::string_view(head, static_cast<std::size_t>(n)), path);
}

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

// A cell's value: any decimal number strtod reads whole, NaN and Inf included
// (that member then fails with its own status), but not a finite number
// too large for a double, nor one too small to be told from 0 (1e-400
// would silently become 0; the .ode parser refuses both too).
Cell read_cell(const std::string& cell, double& value) {
  if (cell.empty()) return Cell::empty;
  errno = 0;
  char* end = nullptr;
  value = std::strtod(cell.c_str(), &end);
  if (end != cell.c_str() + cell.size()) return Cell::not_a_number;
  if (!decimal_number_text(cell)) return Cell::not_a_number;
  const bool underflow = errno == ERANGE && value == 0.0;
  return errno == ERANGE && (std::isinf(value) || underflow) ? Cell::out_of_range : Cell::number;
}

// PATH opened for reading: a regular file, never waited on (O_NONBLOCK: a
// FIFO is refused without waiting for a writer).
FileDescriptor open_regular_file(const std::string& path, const std::string& flag) {
  FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (file.get() < 0)
    throw Error(Status::invalid_argument,
                flag + ": cannot read '" + path + "': " + std::strerror(errno));
  struct stat info {};
  if (::fstat(file.get(), &info) != 0)
    throw Error(Status::io_error, flag + ": cannot read '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(info.st_mode))
    throw Error(Status::invalid_argument, flag + ": cannot read '" + path + "': it is " +
                                              kind_of_file(info.st_mode) + ", not a regular file");
  ::fcntl(file.get(), F_SETFL, ::fcntl(file.get(), F_GETFL) & ~O_NONBLOCK);
  return file;
}

// A line of the file, as it begins a message about it: "PATH:LINE: " (made
// only when there is something to say).
struct Place {
  const std::string& path;
  std::size_t line;
  std::string text() const { return path + ":" + std::to_string(line) + ": "; }
};

// "a state", "an estimated parameter".
std::string with_article(const std::string& noun) {
  const bool vowel = !noun.empty() && std::strchr("aeiou", noun[0]) != nullptr;
  return (vowel ? "an " : "a ") + noun;
}

// The header's cells as the table's names, each matched to the schema's.
void read_header(const std::vector<std::string>& cells, const TableSchema& schema,
                 const Place& place, NumberTable& table) {
  const std::vector<std::string>& names = schema.names;
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    if (cells[c].empty())
      throw Error(Status::invalid_argument, place.text() + "column " + std::to_string(c + 1) +
                                                " of the header is empty (expected " +
                                                with_article(schema.column) + " name)");
    const auto [it, fresh] = seen.emplace(cells[c], c);
    if (!fresh)
      throw Error(Status::invalid_argument, place.text() + schema.column + " '" + shown(cells[c]) +
                                                "' appears twice in the header (columns " +
                                                std::to_string(it->second + 1) + " and " +
                                                std::to_string(c + 1) + ")");
    const auto known = std::find(names.begin(), names.end(), cells[c]);
    if (known == names.end())
      throw Error(Status::invalid_argument, place.text() + schema.owner + " has no " +
                                                schema.column + " '" + shown(cells[c]) +
                                                "' (column " + std::to_string(c + 1) + ")");
    table.columns.push_back(static_cast<std::size_t>(known - names.begin()));
  }
  table.names = cells;
}

// One data row's cells appended to the table's values.
void read_row(const std::vector<std::string>& cells, const TableSchema& schema, const Place& place,
              NumberTable& table) {
  if (cells.size() != table.names.size())
    throw Error(Status::invalid_argument, place.text() + std::to_string(cells.size()) +
                                              (cells.size() == 1 ? " cell" : " cells") +
                                              ", but the header (line " +
                                              std::to_string(table.header_line) + ") has " +
                                              std::to_string(table.names.size()));
  if (table.rows == schema.max_rows)
    throw Error(
        Status::invalid_argument,
        place.text() + "more than " + std::to_string(schema.max_rows) + " " + schema.too_many);
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
      if (cell == Cell::empty)
        throw Error(Status::invalid_argument, place.text() + column + " is empty");
      throw Error(
          Status::invalid_argument,
          place.text() + column + ": '" + shown(cells[c]) + "' is " +
              (cell == Cell::out_of_range ? "out of the range of doubles" : "not a number"));
    }
    table.values.push_back(value);
  }
  ++table.rows;
}

}  // namespace

NumberTable read_table(const std::string& path, const TableSchema& schema) {
  const char separator = separator_of(path, schema.flag);
  const FileDescriptor file = open_regular_file(path, schema.flag);
  refuse_other_unicode_file(file.get(), path);
  LineReader lines(file.get(), path, schema.flag, max_line_bytes);
  std::string line;
  std::vector<std::string> cells;
  NumberTable table;
  while (lines.next(line)) {
    if (lines.number() == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
    if (skipped(line)) continue;
    split_cells(line, separator, cells);
    const Place place{path, lines.number()};
    if (table.header_line == 0) {
      table.header_line = lines.number();
      read_header(cells, schema, place, table);
    } else {
      read_row(cells, schema, place, table);
    }
  }
  if (table.header_line == 0)
    throw Error(Status::invalid_argument,
                path + ": " +
                    (lines.number() == 0 ? "empty file" : "only blank and comment lines") +
                    ": expected a header row of " + schema.column + " names, then one row per " +
                    schema.row);
  if (table.rows == 0)
    throw Error(Status::invalid_argument, path + ": no data rows after the header (line " +
                                              std::to_string(table.header_line) +
                                              "): expected one row of values per " + schema.row);
  return table;
}

}  // namespace odesens::io
