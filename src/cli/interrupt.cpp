#include "cli/interrupt.hpp"

#include <unistd.h>

#include <csignal>
#include <iterator>
#include <string>

namespace odesens::cli {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");
std::atomic<bool> stop_requested{false};
std::atomic<int> stop_signal{0};
// Writes in progress, and the signal that asked to end at once.
std::atomic<int> writes_in_progress{0};
std::atomic<int> exit_signal{0};
struct sigaction previous[std::size(kSignals)];
// The line the first signal writes (Interrupt's argument), set before the
// handlers are installed.
std::atomic<const char*> first_note{nullptr};
std::atomic<std::size_t> first_note_size{0};

// Async-signal-safe: atomics, write and _exit only. The exit signal is
// stored before the writes are counted, and ~OutputWrite counts before it
// reads the signal, so one of the two sees the other and the tool ends.
extern "C" void on_signal(int sig) {
  if (!stop_requested.exchange(true)) {
    stop_signal = sig;
    const ssize_t ignored = ::write(STDERR_FILENO, first_note, first_note_size);
    (void)ignored;
    return;
  }
  exit_signal = sig;
  if (writes_in_progress == 0) ::_exit(128 + sig);
}

}  // namespace

Interrupt::Interrupt(const char* second_signal) {
  note_ = std::string("\nodesens: stopping after the work in progress (again to stop at once, ") +
          second_signal + ")\n";
  first_note = note_.c_str();
  first_note_size = note_.size();
  stop_requested = false;
  stop_signal = 0;
  exit_signal = 0;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (std::size_t k = 0; k < std::size(kSignals); ++k) {
    sigaction(kSignals[k], nullptr, &previous[k]);
    // Ignored by whoever started the tool (nohup: SIGHUP): it stays so.
    if (previous[k].sa_handler == SIG_IGN) continue;
    sigaction(kSignals[k], &action, nullptr);
  }
}

Interrupt::~Interrupt() {
  for (std::size_t k = 0; k < std::size(kSignals); ++k)
    sigaction(kSignals[k], &previous[k], nullptr);
}

const std::atomic<bool>* Interrupt::requested() const { return &stop_requested; }

int Interrupt::signal() const { return stop_signal; }

OutputWrite::OutputWrite() { ++writes_in_progress; }

OutputWrite::~OutputWrite() {
  if (--writes_in_progress == 0 && exit_signal != 0) ::_exit(128 + exit_signal);
}

}  // namespace odesens::cli
