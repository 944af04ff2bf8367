// Ctrl-C, kill and a closed terminal as a request to stop: while an
// Interrupt exists, the first SIGINT, SIGTERM or SIGHUP sets requested()
// (the flag solve_ensemble's cancel reads) and says on standard error that
// the run stops after the members in progress; the signal's default action
// is then back, so a second one ends the tool at once.
#pragma once

#include <atomic>

namespace odesens::cli {

class Interrupt {
 public:
  Interrupt();   // installs the handlers
  ~Interrupt();  // restores the handlers there were before
  Interrupt(const Interrupt&) = delete;
  Interrupt& operator=(const Interrupt&) = delete;

  const std::atomic<bool>* requested() const;
  // The signal that asked to stop, 0 when none did.
  int signal() const;
};

}  // namespace odesens::cli
