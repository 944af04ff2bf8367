# ODESENS_SANITIZE=ON instruments everything built here with ASan + UBSan.
# UBSan is made fatal so that a report fails the test that triggered it.
if(ODESENS_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
  # Tests that would take minutes in this Debug build scale themselves down.
  add_compile_definitions(ODESENS_SANITIZED)
endif()

# ODESENS_SANITIZE_THREAD=ON instruments everything with ThreadSanitizer, for
# the tests of models shared by threads (scripts/test.sh runs them).
option(ODESENS_SANITIZE_THREAD "Build with ThreadSanitizer" OFF)
if(ODESENS_SANITIZE_THREAD)
  if(ODESENS_SANITIZE)
    message(FATAL_ERROR "ODESENS_SANITIZE and ODESENS_SANITIZE_THREAD exclude each other")
  endif()
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=thread)
endif()

# ODESENS_FUZZ=ON (clang) instruments everything for libFuzzer as well as
# ASan + UBSan and builds the fuzz targets of tests/fuzz; configure it in a
# tree of its own (tests/fuzz/run_fuzz_lib.sh uses build-fuzz-lib/).
option(ODESENS_FUZZ "Build the libFuzzer targets (clang; ASan + UBSan)" OFF)
if(ODESENS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ODESENS_FUZZ needs clang: configure with -DCMAKE_C_COMPILER=clang "
                        "-DCMAKE_CXX_COMPILER=clang++")
  endif()
  if(ODESENS_SANITIZE OR ODESENS_SANITIZE_THREAD)
    message(FATAL_ERROR "ODESENS_FUZZ brings its own sanitizers: leave ODESENS_SANITIZE* off")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                      -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
