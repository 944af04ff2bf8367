# The linker: LLVM's lld when the compiler can use it (Debian package lld).
# Linking is a large part of a build from scratch here: every test program
# and tool links the whole static library (tens of MB), and lld links one
# in about a fifth of the CPU time of the default GNU ld (test_model:
# 1.0 s against 5.2 s). ODESENS_LINKER=default keeps the compiler's own.
set(ODESENS_LINKER "lld" CACHE STRING "Linker: lld (when available) or default")
set_property(CACHE ODESENS_LINKER PROPERTY STRINGS lld default)

if(ODESENS_LINKER STREQUAL "lld")
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" ODESENS_HAVE_LLD)
  if(ODESENS_HAVE_LLD)
    add_link_options("-fuse-ld=lld")
  else()
    message(STATUS "odesens: lld not usable by ${CMAKE_CXX_COMPILER_ID}; the default linker links")
  endif()
endif()
