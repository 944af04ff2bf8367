# Finds the SUNDIALS 6 components odesens uses (Debian: libsundials-dev) and
# defines one imported target per component: SUNDIALS::cvodes, ::nvecserial,
# ::sunmatrixdense, ::sunmatrixsparse, ::sunlinsoldense, ::sunlinsolklu.
# Finds the libraries directly rather than through SUNDIALSConfig.cmake, whose
# Debian build drags in configuration for every optional back end.
find_path(SUNDIALS_INCLUDE_DIR cvodes/cvodes.h)
# sunlinsol_klu.h includes <klu.h>, which SuiteSparse installs in a subfolder.
find_path(SUNDIALS_KLU_INCLUDE_DIR klu.h PATH_SUFFIXES suitesparse)
set(_sundials_components cvodes nvecserial sunmatrixdense sunmatrixsparse
    sunlinsoldense sunlinsolklu)
set(_sundials_vars SUNDIALS_INCLUDE_DIR SUNDIALS_KLU_INCLUDE_DIR)
foreach(c IN LISTS _sundials_components)
  find_library(SUNDIALS_${c}_LIBRARY NAMES sundials_${c})
  list(APPEND _sundials_vars SUNDIALS_${c}_LIBRARY)
endforeach()

if(SUNDIALS_INCLUDE_DIR AND EXISTS "${SUNDIALS_INCLUDE_DIR}/sundials/sundials_config.h")
  file(STRINGS "${SUNDIALS_INCLUDE_DIR}/sundials/sundials_config.h" _v
       REGEX "^#define SUNDIALS_VERSION \"")
  string(REGEX REPLACE ".*\"([0-9.]+)\".*" "\\1" SUNDIALS_VERSION "${_v}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SUNDIALS REQUIRED_VARS ${_sundials_vars}
                                  VERSION_VAR SUNDIALS_VERSION)
if(SUNDIALS_FOUND AND SUNDIALS_VERSION VERSION_LESS 6.0)
  message(FATAL_ERROR "odesens needs SUNDIALS 6 or newer, found ${SUNDIALS_VERSION}")
endif()

if(SUNDIALS_FOUND)
  foreach(c IN LISTS _sundials_components)
    if(NOT TARGET SUNDIALS::${c})
      add_library(SUNDIALS::${c} UNKNOWN IMPORTED)
      set_target_properties(SUNDIALS::${c} PROPERTIES
        IMPORTED_LOCATION "${SUNDIALS_${c}_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${SUNDIALS_INCLUDE_DIR};${SUNDIALS_KLU_INCLUDE_DIR}")
    endif()
  endforeach()
endif()
