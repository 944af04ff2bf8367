// A fresh folder for the files of one test, removed with everything in it.
#pragma once

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace odesens::io::testing {

class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "odesens_io_XXXXXX").string();
    if (::mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  bool made() const { return !path_.empty(); }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // The names of the files in it, sorted, separated by spaces.
  std::string listing() const {
    std::string names;
    std::vector<std::string> sorted;
    for (const auto& e : std::filesystem::directory_iterator(path_))
      sorted.push_back(e.path().filename().string());
    std::sort(sorted.begin(), sorted.end());
    for (const auto& n : sorted) names += (names.empty() ? "" : " ") + n;
    return names;
  }

 private:
  std::string path_;
};

inline std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace odesens::io::testing
