// Ctrl-C, kill and a closed terminal as a request to stop: while an
// Interrupt exists, the first SIGINT, SIGTERM or SIGHUP sets requested()
// (the flag solve_ensemble's cancel reads) and says on standard error that
// the run stops after the work in progress, and what a second signal does
// (the constructor's words: "leaving the .partial file"). A second one ends the tool at
// once, with status 128 + its number, but never while an OutputWrite
// exists: then the tool ends as soon as the write is over, so that the
// file it leaves is the one the last complete write left (a signal's
// default action could land in the middle of HDF5 writing a dataset).
#pragma once

#include <atomic>
#include <string>

namespace odesens::cli {

class Interrupt {
 public:
  explicit Interrupt(const char* second_signal);  // installs the handlers
  ~Interrupt();  // restores the handlers there were before
  Interrupt(const Interrupt&) = delete;
  Interrupt& operator=(const Interrupt&) = delete;

  const std::atomic<bool>* requested() const;
  // The signal that asked to stop, 0 when none did.
  int signal() const;

 private:
  std::string note_;  // the first signal's line, read by the handler
};

// A write to an output file in progress (from any thread): a second signal
// waits for its end.
class OutputWrite {
 public:
  OutputWrite();
  ~OutputWrite();
  OutputWrite(const OutputWrite&) = delete;
  OutputWrite& operator=(const OutputWrite&) = delete;
};

}  // namespace odesens::cli
