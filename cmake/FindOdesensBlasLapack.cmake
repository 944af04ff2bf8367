# BLAS and LAPACK for odesens. Defines OdesensBlasLapack::blaslapack.
#
# Dense linear algebra inside a solve must run on the calling thread:
# parallelism comes from running many solves at once, and a threaded BLAS
# inside each small solve only spins and fights them (OpenBLAS' pthread
# build sends even a 21 x 21 dgetrs to its worker threads). So odesens links
# the single-threaded build of OpenBLAS (Debian: libopenblas-serial-dev) as a
# static archive. In libodesens.so its symbols stay private (the version
# script exports only odesens_*), so the BLAS the rest of a host process
# uses, and its threading, are untouched. The serial build serialises its
# buffer allocation with a lock, so concurrent calls from several threads
# are safe.
#
# ODESENS_BLAS selects:
#   serial-static (default)  Debian's serial OpenBLAS archive, as above
#   system                   whatever BLAS/LAPACK CMake finds (for other
#                            platforms; threading is then the library's)
set(ODESENS_BLAS "serial-static" CACHE STRING "BLAS/LAPACK for odesens: serial-static or system")
set_property(CACHE ODESENS_BLAS PROPERTY STRINGS serial-static system)

set(_odesens_blas_libs "")
if(ODESENS_BLAS STREQUAL "serial-static")
  find_library(ODESENS_SERIAL_OPENBLAS_ARCHIVE NAMES libopenblas.a
    PATHS /usr/lib/x86_64-linux-gnu/openblas-serial /usr/lib/aarch64-linux-gnu/openblas-serial
          /usr/lib64/openblas-serial
    NO_DEFAULT_PATH)
  find_path(CBLAS_INCLUDE_DIR cblas.h
    PATHS /usr/include/x86_64-linux-gnu/openblas-serial /usr/include/aarch64-linux-gnu/openblas-serial
    NO_DEFAULT_PATH)
  # The archive holds LAPACK compiled from Fortran.
  find_library(ODESENS_GFORTRAN_LIBRARY NAMES gfortran libgfortran.so.5
    HINTS /usr/lib/gcc/x86_64-linux-gnu/12 /usr/lib/x86_64-linux-gnu)
  find_package(Threads REQUIRED)
  if(ODESENS_SERIAL_OPENBLAS_ARCHIVE AND CBLAS_INCLUDE_DIR AND ODESENS_GFORTRAN_LIBRARY)
    set(_odesens_blas_libs "${ODESENS_SERIAL_OPENBLAS_ARCHIVE};${ODESENS_GFORTRAN_LIBRARY};m;Threads::Threads")
    set(OdesensBlasLapack_SERIAL TRUE)
  else()
    message(FATAL_ERROR "ODESENS_BLAS=serial-static needs Debian's libopenblas-serial-dev "
                        "(and gfortran); install it (scripts/setup.sh does) or configure with "
                        "-DODESENS_BLAS=system")
  endif()
else()
  set(BLA_VENDOR OpenBLAS)
  find_package(BLAS QUIET)
  find_package(LAPACK QUIET)
  if(NOT BLAS_FOUND OR NOT LAPACK_FOUND)
    unset(BLA_VENDOR)
    find_package(BLAS)
    find_package(LAPACK)
  endif()
  find_path(CBLAS_INCLUDE_DIR cblas.h
    PATH_SUFFIXES x86_64-linux-gnu/openblas-serial x86_64-linux-gnu/openblas-pthread
                  openblas x86_64-linux-gnu)
  if(BLAS_FOUND AND LAPACK_FOUND)
    set(_odesens_blas_libs "${LAPACK_LIBRARIES};${BLAS_LIBRARIES}")
  endif()
  set(OdesensBlasLapack_SERIAL FALSE)
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(OdesensBlasLapack
  REQUIRED_VARS _odesens_blas_libs CBLAS_INCLUDE_DIR)
if(OdesensBlasLapack_FOUND AND NOT TARGET OdesensBlasLapack::blaslapack)
  add_library(OdesensBlasLapack::blaslapack INTERFACE IMPORTED)
  set_target_properties(OdesensBlasLapack::blaslapack PROPERTIES
    INTERFACE_LINK_LIBRARIES "${_odesens_blas_libs}"
    INTERFACE_INCLUDE_DIRECTORIES "${CBLAS_INCLUDE_DIR}")
endif()
