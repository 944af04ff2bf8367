// The command-line check every benchmark program runs first: each argument
// is one of the program's flags, and a flag that takes a value has one. A
// mistyped flag (--repeat for --repeats) would otherwise be ignored, and
// the program would measure its defaults without a word. -h and --help
// print the usage.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace odesens::bench {

struct Flag {
  const char* name;
  bool takes_value;
};

// Exits with the usage on standard error (status 2) at the first argument
// that is no flag of `flags` or a flag without its value; with the usage
// on standard output (status 0) for -h or --help.
inline void check_flags(int argc, char** argv, std::initializer_list<Flag> flags,
                        const char* usage) {
  const char* program = argc > 0 ? argv[0] : "benchmark";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      std::printf("usage: %s %s\n", program, usage);
      std::exit(0);
    }
    const Flag* found = nullptr;
    for (const Flag& f : flags)
      if (!std::strcmp(argv[i], f.name)) found = &f;
    const char* problem = !found ? "unknown argument"
                          : found->takes_value && i + 1 >= argc ? "needs a value"
                                                                : nullptr;
    if (problem) {
      std::fprintf(stderr, "%s: %s: %s\nusage: %s %s\n", program, argv[i], problem, program,
                   usage);
      std::exit(2);
    }
    if (found->takes_value) ++i;
  }
}

}  // namespace odesens::bench
