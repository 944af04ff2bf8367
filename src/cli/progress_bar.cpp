#include "cli/progress_bar.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace odesens::cli {
namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

std::size_t terminal_width() {
  struct winsize size {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

// h:mm:ss
std::string clock_text(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::min(seconds, 359999999.0)));
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  return text;
}

}  // namespace

ProgressBar::ProgressBar(std::size_t total, bool enabled)
    : total_(total), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

std::string ProgressBar::line(std::size_t done, std::size_t total, std::size_t failed,
                              double seconds, std::size_t width) {
  char counts[160];
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
  std::string tail = "  " + std::to_string(done) + "/" + std::to_string(total) + " members";
  if (done > 0 && seconds > 0) {
    std::snprintf(counts, sizeof counts, "  %.3g/s", rate);
    tail += counts;
  }
  if (failed > 0) tail += "  " + std::to_string(failed) + " failed";
  if (done > 0 && done < total && rate > 0)
    tail += "  " + clock_text(static_cast<double>(total - done) / rate) + " left";
  else if (done == total)
    tail += "  done in " + clock_text(seconds);
  // 30 columns of bar, or what the numbers leave on a narrow terminal (none
  // below 10).
  const std::size_t room = width > tail.size() + 2 ? width - tail.size() - 2 : 0;
  const std::size_t bar = std::min<std::size_t>(room, 30);
  if (bar < 10) return tail.substr(2, width > 1 ? width - 1 : 0);
  const auto filled = total > 0 ? bar * done / total : bar;
  return "[" + std::string(filled, '#') + std::string(bar - filled, '.') + "]" + tail;
}

void ProgressBar::update(std::size_t done, std::size_t failed) {
  done_ = done;
  failed_ = failed;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < kRedrawInterval) return;
  last_ = now;
  draw();
}

void ProgressBar::finish() {
  if (!enabled_) return;
  draw();
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

void ProgressBar::draw() {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  // Carriage return, the line, erase what a longer line left.
  const std::string text =
      "\r" + line(done_, total_, failed_, seconds, terminal_width() - 1) + "\x1b[K";
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace odesens::cli
