# SuiteSparse KLU (Debian: libsuitesparse-dev) as the imported target
# KLU::klu, for the sparse Newton matrices the library factors itself
# (CVODES' own KLU linear solver comes with SUNDIALS::sunlinsolklu).
find_path(KLU_INCLUDE_DIR klu.h PATH_SUFFIXES suitesparse)
find_library(KLU_LIBRARY NAMES klu)
find_library(KLU_AMD_LIBRARY NAMES amd)
find_library(KLU_COLAMD_LIBRARY NAMES colamd)
find_library(KLU_BTF_LIBRARY NAMES btf)
find_library(KLU_CONFIG_LIBRARY NAMES suitesparseconfig)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(KLU REQUIRED_VARS KLU_INCLUDE_DIR KLU_LIBRARY KLU_AMD_LIBRARY
                                  KLU_COLAMD_LIBRARY KLU_BTF_LIBRARY KLU_CONFIG_LIBRARY)
if(KLU_FOUND AND NOT TARGET KLU::klu)
  add_library(KLU::klu INTERFACE IMPORTED)
  set_target_properties(KLU::klu PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${KLU_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES
      "${KLU_LIBRARY};${KLU_AMD_LIBRARY};${KLU_COLAMD_LIBRARY};${KLU_BTF_LIBRARY};${KLU_CONFIG_LIBRARY}")
endif()
