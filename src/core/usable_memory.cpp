#include "core/usable_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>

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

void require_fits_in_memory(double bytes, const std::string& what, const std::string& remedy) {
  if (fits_in_memory(bytes)) return;
  throw Error(Status::out_of_memory,
              "out of memory: " + what + " would take about " + rounded_number_text(bytes / 1e9) +
                  " GB, more than half of the " + rounded_number_text(usable_memory_bytes() / 1e9) +
                  " GB this process may use; " + remedy);
}

}  // namespace odesens
