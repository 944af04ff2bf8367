#include "core/usable_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
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

// Bytes the process has mapped (its virtual size); 0 when unknown.
double mapped_bytes() {
  std::ifstream statm("/proc/self/statm");
  double pages = 0.0;
  if (!(statm >> pages)) return 0.0;
  const long page = sysconf(_SC_PAGE_SIZE);
  return page > 0 ? pages * static_cast<double>(page) : 0.0;
}

// The machine's available memory (MemAvailable); 0 when unknown.
double available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0.0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024.0;
  return 0.0;
}

}  // namespace

void require_allocatable(double bytes, const std::string& what, const std::string& remedy) {
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
