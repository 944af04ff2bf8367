#include "core/usable_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>

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

}  // namespace odesens
