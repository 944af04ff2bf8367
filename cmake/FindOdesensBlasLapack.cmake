# BLAS and LAPACK, preferring OpenBLAS (Debian: libopenblas-dev), plus the
# directory of OpenBLAS' cblas.h. Defines OdesensBlasLapack::blaslapack.
set(BLA_VENDOR OpenBLAS)
find_package(BLAS QUIET)
find_package(LAPACK QUIET)
if(NOT BLAS_FOUND OR NOT LAPACK_FOUND)
  unset(BLA_VENDOR)
  find_package(BLAS)
  find_package(LAPACK)
endif()
find_path(CBLAS_INCLUDE_DIR cblas.h
  PATH_SUFFIXES x86_64-linux-gnu/openblas-pthread x86_64-linux-gnu/openblas64-pthread
                openblas x86_64-linux-gnu)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(OdesensBlasLapack
  REQUIRED_VARS BLAS_FOUND LAPACK_FOUND CBLAS_INCLUDE_DIR)
if(OdesensBlasLapack_FOUND AND NOT TARGET OdesensBlasLapack::blaslapack)
  add_library(OdesensBlasLapack::blaslapack INTERFACE IMPORTED)
  set_target_properties(OdesensBlasLapack::blaslapack PROPERTIES
    INTERFACE_LINK_LIBRARIES "${LAPACK_LIBRARIES};${BLAS_LIBRARIES}"
    INTERFACE_INCLUDE_DIRECTORIES "${CBLAS_INCLUDE_DIR}")
endif()
