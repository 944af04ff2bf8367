# BLAS and LAPACK for odesens. Defines OdesensBlasLapack::blaslapack.
#
# Dense linear algebra inside a solve must run on the calling thread:
# parallelism comes from running many solves at once, and a threaded BLAS
# inside each small solve only spins and fights them (OpenBLAS' threaded
# build sends even a 21 x 21 dgetrs to its worker threads). So odesens links
# a private copy of OpenBLAS as a static archive and holds it to one thread
# (openblas_set_num_threads(1) before its first call, src/linalg/dense.cpp).
# In libodesens.so its symbols stay private (the version script exports only
# odesens_*), so the BLAS the rest of a host process uses, and its
# threading, are untouched.
#
# Why Debian's threaded build (libopenblas-pthread-dev) and not its serial
# one: the serial build (compiled without USE_LOCKING) shares its buffer
# pool between threads without a lock, so two solves in two threads
# silently corrupt each other's products (seen: 229 of 40000 concurrent
# 21 x 21 LU solves wrong). The threaded build locks its pool, and with one
# thread it computes on the caller's thread. BLIS' serial build is safe but
# was 5x slower on those small products.
#
# ODESENS_BLAS selects:
#   openblas-private (default)  Debian's threaded OpenBLAS archive, as above
#   system                      whatever BLAS/LAPACK CMake finds (for other
#                               platforms; set its threading to one thread)
set(ODESENS_BLAS "openblas-private" CACHE STRING "BLAS/LAPACK for odesens: openblas-private or system")
set_property(CACHE ODESENS_BLAS PROPERTY STRINGS openblas-private system)

set(_odesens_blas_libs "")
if(ODESENS_BLAS STREQUAL "openblas-private")
  find_library(ODESENS_PRIVATE_OPENBLAS_ARCHIVE NAMES libopenblas.a
    PATHS /usr/lib/x86_64-linux-gnu/openblas-pthread /usr/lib/aarch64-linux-gnu/openblas-pthread
          /usr/lib64/openblas-pthread
    NO_DEFAULT_PATH)
  find_path(CBLAS_INCLUDE_DIR cblas.h
    PATHS /usr/include/x86_64-linux-gnu/openblas-pthread /usr/include/aarch64-linux-gnu/openblas-pthread
    NO_DEFAULT_PATH)
  # The archive holds LAPACK compiled from Fortran.
  find_library(ODESENS_GFORTRAN_LIBRARY NAMES gfortran libgfortran.so.5
    HINTS /usr/lib/gcc/x86_64-linux-gnu/12 /usr/lib/x86_64-linux-gnu)
  find_package(Threads REQUIRED)
  if(ODESENS_PRIVATE_OPENBLAS_ARCHIVE AND CBLAS_INCLUDE_DIR AND ODESENS_GFORTRAN_LIBRARY)
    set(_odesens_blas_libs "${ODESENS_PRIVATE_OPENBLAS_ARCHIVE};${ODESENS_GFORTRAN_LIBRARY};m;Threads::Threads")
    set(OdesensBlasLapack_PRIVATE_OPENBLAS TRUE)
  else()
    message(FATAL_ERROR "ODESENS_BLAS=openblas-private needs Debian's libopenblas-pthread-dev "
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
    PATH_SUFFIXES x86_64-linux-gnu/openblas-pthread x86_64-linux-gnu/openblas-serial
                  openblas x86_64-linux-gnu)
  if(BLAS_FOUND AND LAPACK_FOUND)
    set(_odesens_blas_libs "${LAPACK_LIBRARIES};${BLAS_LIBRARIES}")
  endif()
  set(OdesensBlasLapack_PRIVATE_OPENBLAS FALSE)
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
