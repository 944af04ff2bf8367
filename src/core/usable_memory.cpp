#include "core/usable_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/number_text.hpp"
#include "odesens/status.hpp"

namespace odesens {

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

double usable_memory_bytes() {
  double usable = physical_memory_bytes();
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const auto as = static_cast<double>(limit.rlim_cur);
    usable = usable > 0.0 ? std::min(usable, as) : as;
  }
  return usable;
}

bool fits_in_memory(double bytes) {
  const double usable = usable_memory_bytes();
  return !(usable > 0.0 && bytes > 0.5 * usable);
}

namespace {

// Read with C's stdio: a check before an allocation allocates nothing
// itself (an ifstream's buffer could fail, and the check pass unread).

// Bytes the process has mapped (its virtual size); 0 when unknown.
double mapped_bytes() {
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  if (!statm) return 0.0;
  double pages = 0.0;
  const bool read = std::fscanf(statm, "%lf", &pages) == 1;
  std::fclose(statm);
  const long page = sysconf(_SC_PAGE_SIZE);
  return read && page > 0 ? pages * static_cast<double>(page) : 0.0;
}

// The machine's available memory (MemAvailable); 0 when unknown.
double available_bytes() {
  std::FILE* meminfo = std::fopen("/proc/meminfo", "r");
  if (!meminfo) return 0.0;
  char key[64];
  double kib = 0.0, found = 0.0;
  while (std::fscanf(meminfo, "%63s %lf kB", key, &kib) == 2)
    if (std::strcmp(key, "MemAvailable:") == 0) {
      found = kib * 1024.0;
      break;
    }
  std::fclose(meminfo);
  return found;
}

}  // namespace

void require_allocatable(double bytes, const std::string& what, const std::string& remedy) {
  // Below this the reads of /proc (tens of microseconds) would cost small
  // solves more than they protect.
  if (bytes < kSmallAllocation) return;
  double left = available_bytes();
  bool known = left > 0.0;
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const double room = std::max(static_cast<double>(limit.rlim_cur) - mapped_bytes(), 0.0);
    left = known ? std::min(left, room) : room;
    known = true;
  }
  // A fifth is kept for what else the solve allocates (workspaces, the model's).
  if (!known || bytes <= 0.8 * left) return;
  throw Error(Status::out_of_memory,
              "out of memory: " + what + " would take about " + rounded_number_text(bytes / 1e9) +
                  " GB, more than the " + rounded_number_text(left / 1e9) +
                  " GB this process has left; " + remedy);
}

void require_fits_in_memory(double bytes, const std::string& what, const std::string& remedy) {
  if (fits_in_memory(bytes)) return;
  throw Error(Status::out_of_memory,
              "out of memory: " + what + " would take about " + rounded_number_text(bytes / 1e9) +
                  " GB, more than half of the " + rounded_number_text(usable_memory_bytes() / 1e9) +
                  " GB this process may use; " + remedy);
}

}  // namespace odesens
