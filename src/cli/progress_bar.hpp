// A progress line on standard error for many members:
//
//   [###############...............]  512/1024 members  84.2/s  2 failed  0:00:06 left
//
// drawn only when standard error is a terminal, redrawn at most ten times a
// second (and once more at the end), fitted to the terminal's width.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace odesens::cli {

class ProgressBar {
 public:
  // enabled: draw at all (the tool passes whether stderr is a terminal).
  ProgressBar(std::size_t total, bool enabled);

  // `done` members finished, `failed` of them with an error; redraws when
  // the last drawing is at least 0.1 s old.
  void update(std::size_t done, std::size_t failed);
  // The last state drawn, and a line break: what follows starts on a line
  // of its own.
  void finish();

  // The line for `done` of `total` after `seconds`, `width` columns at most.
  static std::string line(std::size_t done, std::size_t total, std::size_t failed,
                          double seconds, std::size_t width);

 private:
  void draw();

  std::size_t total_, done_ = 0, failed_ = 0;
  bool enabled_, drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace odesens::cli
