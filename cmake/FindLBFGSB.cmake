# L-BFGS-B 3.0 (Debian: liblbfgsb-dev) as the imported target LBFGSB::lbfgsb,
# the bounded quasi-Newton of `odesens fit --optimizer lbfgsb`. The library
# is Fortran with no header (src/fit/lbfgsb.cpp declares its setulb).
# src/fit/lbfgsb.cpp flushes Fortran's standard output unit itself, so the
# gfortran runtime liblbfgsb links is linked directly too.
find_library(LBFGSB_LIBRARY NAMES lbfgsb)
find_library(LBFGSB_GFORTRAN_LIBRARY NAMES gfortran libgfortran.so.5)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LBFGSB REQUIRED_VARS LBFGSB_LIBRARY LBFGSB_GFORTRAN_LIBRARY)
if(LBFGSB_FOUND AND NOT TARGET LBFGSB::lbfgsb)
  add_library(LBFGSB::lbfgsb INTERFACE IMPORTED)
  set_target_properties(LBFGSB::lbfgsb PROPERTIES
    INTERFACE_LINK_LIBRARIES "${LBFGSB_LIBRARY};${LBFGSB_GFORTRAN_LIBRARY}")
endif()
