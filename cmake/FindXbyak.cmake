# Finds xbyak (Debian: libxbyak-dev), the header-only x86-64 assembler that
# generates the native code of value tapes (src/expr/native_tape.cpp).
# Defines Xbyak::xbyak.
find_path(Xbyak_INCLUDE_DIR xbyak/xbyak.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Xbyak REQUIRED_VARS Xbyak_INCLUDE_DIR)
if(Xbyak_FOUND AND NOT TARGET Xbyak::xbyak)
  add_library(Xbyak::xbyak INTERFACE IMPORTED)
  set_target_properties(Xbyak::xbyak PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${Xbyak_INCLUDE_DIR}")
endif()
