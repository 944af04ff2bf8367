# ODESENS_SANITIZE=ON instruments everything built here with ASan + UBSan.
# UBSan is made fatal so that a report fails the test that triggered it.
# The flags go to C and C++ only: Fortran (the bindings' tests) is compiled
# by gfortran, which links its own runtimes.
# Debug information of the sanitized builds: the line tables the reports'
# stack traces need and no more (clang -gline-tables-only, gcc -g1); full
# -g made every compile about a third slower and every link larger. A
# debugging session can add -g through CMAKE_CXX_FLAGS.
set(ODESENS_SANITIZER_DEBUG_INFO "$<IF:$<CXX_COMPILER_ID:Clang>,-gline-tables-only,-g1>")
if(ODESENS_SANITIZE)
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=address,undefined;-fno-sanitize-recover=undefined;-fno-omit-frame-pointer;${ODESENS_SANITIZER_DEBUG_INFO}>")
  add_link_options(-fsanitize=address,undefined)
  # Tests that would take minutes in this unoptimized build scale themselves down.
  add_compile_definitions(ODESENS_SANITIZED)
endif()

# ODESENS_SANITIZE_THREAD=ON instruments everything with ThreadSanitizer, for
# the tests of models shared by threads (scripts/test.sh runs them).
option(ODESENS_SANITIZE_THREAD "Build with ThreadSanitizer" OFF)
if(ODESENS_SANITIZE_THREAD)
  if(ODESENS_SANITIZE)
    message(FATAL_ERROR "ODESENS_SANITIZE and ODESENS_SANITIZE_THREAD exclude each other")
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=thread;-fno-omit-frame-pointer;${ODESENS_SANITIZER_DEBUG_INFO}>")
  add_link_options(-fsanitize=thread)
endif()

# ODESENS_FUZZ=ON (clang, with ODESENS_SANITIZE) also builds the libFuzzer
# targets of tests/fuzz, in the same tree as the sanitized tests: one
# sanitizer build serves both (scripts/test.sh, build-san/). The code of
# the layers the fuzzers reach through a model's text (core, expr, sources,
# model: parsing, import, expression compilation) carries libFuzzer's
# coverage instrumentation; the numerical layers do not, so that the tests
# in this tree do not pay for comparison hooks in every inner loop.
option(ODESENS_FUZZ "Build the libFuzzer targets (clang; needs ODESENS_SANITIZE)" OFF)
if(ODESENS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ODESENS_FUZZ needs clang: configure with -DCMAKE_C_COMPILER=clang "
                        "-DCMAKE_CXX_COMPILER=clang++")
  endif()
  if(NOT ODESENS_SANITIZE)
    message(FATAL_ERROR "ODESENS_FUZZ runs the fuzzers under ASan + UBSan: set ODESENS_SANITIZE=ON")
  endif()
endif()

# odesens_fuzz_coverage(TARGET): libFuzzer's coverage for TARGET's sources
# when ODESENS_FUZZ is on.
function(odesens_fuzz_coverage target)
  if(ODESENS_FUZZ)
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>")
  endif()
endfunction()

# True when the sanitizer runtimes are linked into executables only (clang),
# so that a shared library has undefined sanitizer symbols until loaded.
if(ODESENS_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(ODESENS_STATIC_SANITIZER_RUNTIME ON)
  # C programs that load libodesens.so need UBSan's C++ part (vptr checks)
  # and the C++ library it is written against.
  add_link_options("$<$<LINK_LANGUAGE:C>:-fsanitize-link-c++-runtime>")
  string(APPEND CMAKE_C_STANDARD_LIBRARIES " -lstdc++")
else()
  set(ODESENS_STATIC_SANITIZER_RUNTIME OFF)
endif()
