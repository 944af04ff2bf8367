#include "sources/petab/petab_tsv.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/file_kind.hpp"
#include "core/quoted_text.hpp"
#include "odesens/status.hpp"
#include "sources/model_file.hpp"
#include "core/text_encoding.hpp"

namespace odesens::petab {

void fail(const Place& place, const std::string& rule) {
  throw Error(Status::parse_error, place.text() + ": " + rule);
}

void fail_unsupported(const Place& place, const std::string& what) {
  throw Error(Status::unsupported, place.text() + ": " + what);
}

std::string read_petab_file(const std::string& path, const std::string& role) {
  // read_model_file() would name its own size limit and the variable that
  // raises it; PEtab files are held to kFileSizeLimit, so the size is
  // checked here first.
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
      static_cast<std::uint64_t>(info.st_size) > kFileSizeLimit)
    throw Error(Status::io_error, "PEtab " + role + " '" + path +
                                      "' is larger than the PEtab file size limit of 256 MiB");
  try {
    return read_model_file(path, kFileSizeLimit, "file");
  } catch (const Error& e) {
    throw Error(e.status(), "PEtab " + role + ": " + e.what());
  }
}

namespace {

// A cell in double quotes that end at a tab or the line's end, as pandas
// and spreadsheets write one (a quote inside doubled): its text, and where
// the quoted text ends. Nothing where the cell is not so quoted (`"a"b` is
// read as written); an error where the quotes do not close on the line:
// pandas quotes a cell with a line break in it, which lines cannot hold.
std::optional<std::pair<std::string, std::size_t>> quoted_cell(std::string_view line,
                                                               std::size_t start,
                                                               const std::string& file,
                                                               std::size_t number,
                                                               std::size_t column) {
  if (start >= line.size() || line[start] != '"') return std::nullopt;
  std::string text;
  for (std::size_t j = start + 1; j < line.size(); ++j) {
    if (line[j] != '"') {
      text += line[j];
    } else if (j + 1 < line.size() && line[j + 1] == '"') {
      text += '"';
      ++j;
    } else {
      if (j + 1 < line.size() && line[j + 1] != '\t') return std::nullopt;
      return std::make_pair(std::move(text), j + 1);
    }
  }
  fail(Place{file, number, column},
       "a quoted cell runs to the end of its line: line breaks inside a cell are not supported "
       "(write the cell on one line)");
}

std::vector<std::string> split_line(std::string_view line, const std::string& file,
                                    std::size_t number) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  while (true) {
    std::size_t tab = 0;
    if (auto quoted = quoted_cell(line, start, file, number, cells.size() + 1)) {
      cells.push_back(std::move(quoted->first));
      tab = quoted->second < line.size() ? quoted->second : std::string_view::npos;
    } else {
      tab = line.find('\t', start);
      cells.emplace_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
    }
    if (tab == std::string_view::npos) return cells;
    start = tab + 1;
  }
}

// The lines of `text`, numbered from 1: ended by LF, CRLF or a lone CR (a
// spreadsheet's "Mac" text, which pandas reads too; it was one header line
// of the whole table).
template <class Visit>
void for_each_line(std::string_view text, Visit visit) {
  std::size_t number = 1, start = 0;
  while (start < text.size()) {
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    visit(number++, text.substr(start, end - start));
    start = end + 1;
    if (end < text.size() && text[end] == '\r' && start < text.size() && text[start] == '\n')
      ++start;
  }
}

}  // namespace

Tsv::Tsv(const std::string& file, const std::string& bytes) : file_(file) {
  const std::string_view text = model_text_as_utf8(bytes, file);
  require_utf8(text, file, "PEtab tables must be UTF-8");
  for_each_line(text, [&](std::size_t number, std::string_view line) {
    if (number == 1) {
      header_ = split_line(line, file_, number);
      return;
    }
    if (!line.empty()) rows_.push_back({number, split_line(line, file_, number)});
  });
  // A spreadsheet may leave a tab at the end of the header.
  while (!header_.empty() && header_.back().empty()) header_.pop_back();
  if (header_.empty()) fail(Place{file_, 1, 0}, "the header row is empty (or the file is)");
  for (std::size_t c = 0; c < header_.size(); ++c) {
    if (header_[c].empty()) fail(header_place(c), "empty column name in the header");
    for (std::size_t k = 0; k < c; ++k)
      if (header_[k] == header_[c])
        fail(header_place(c), "column " + quoted_text(header_[c]) + " appears twice");
  }
  for (std::size_t r = 0; r < rows_.size(); ++r)
    for (std::size_t c = header_.size(); c < rows_[r].cells.size(); ++c)
      if (!rows_[r].cells[c].empty())
        fail(place(r, c), "the row has more cells than the header has columns (" +
                              std::to_string(header_.size()) + ")");
}

const std::string& Tsv::cell(std::size_t r, std::size_t c) const {
  static const std::string empty;
  const auto& cells = rows_[r].cells;
  return c < cells.size() ? cells[c] : empty;
}

Place Tsv::place(std::size_t r, std::size_t c) const { return Place{file_, rows_[r].line, c + 1}; }

Place Tsv::row_place(std::size_t r) const { return Place{file_, rows_[r].line, 0}; }

std::optional<std::size_t> Tsv::column(const std::string& name) const {
  for (std::size_t c = 0; c < header_.size(); ++c)
    if (header_[c] == name) return c;
  return std::nullopt;
}

std::size_t Tsv::required_column(const std::string& name) const {
  if (auto c = column(name)) return *c;
  fail(Place{file_, 1, 0}, "the required column '" + name + "' is missing");
}

}  // namespace odesens::petab
