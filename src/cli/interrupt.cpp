#include "cli/interrupt.hpp"

#include <unistd.h>

#include <csignal>
#include <iterator>

namespace odesens::cli {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
std::atomic<bool> stop_requested{false};
volatile std::sig_atomic_t stop_signal = 0;
struct sigaction previous[std::size(kSignals)];

extern "C" void request_stop(int sig) {
  stop_signal = sig;
  stop_requested = true;
  static const char note[] =
      "\nodesens: stopping after the members in progress (again to stop at once, leaving the "
      ".partial file)\n";
  const ssize_t ignored = ::write(STDERR_FILENO, note, sizeof note - 1);
  (void)ignored;
}

}  // namespace

Interrupt::Interrupt() {
  stop_requested = false;
  stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  // One signal is a request; the next takes its default course.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  for (std::size_t k = 0; k < std::size(kSignals); ++k)
    sigaction(kSignals[k], &action, &previous[k]);
}

Interrupt::~Interrupt() {
  for (std::size_t k = 0; k < std::size(kSignals); ++k)
    sigaction(kSignals[k], &previous[k], nullptr);
}

const std::atomic<bool>* Interrupt::requested() const { return &stop_requested; }

int Interrupt::signal() const { return stop_signal; }

}  // namespace odesens::cli
