# Finds libsbml (Debian: libsbml5-dev), which reads SBML for the importer in
# src/expr/sbml/. Defines LIBSBML::sbml. The shared library carries its own
# dependencies (libxml2, zlib, bzip2), so nothing else is linked.
find_path(LIBSBML_INCLUDE_DIR sbml/SBMLTypes.h)
find_library(LIBSBML_LIBRARY NAMES sbml)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LIBSBML REQUIRED_VARS LIBSBML_LIBRARY LIBSBML_INCLUDE_DIR)
if(LIBSBML_FOUND AND NOT TARGET LIBSBML::sbml)
  add_library(LIBSBML::sbml UNKNOWN IMPORTED)
  set_target_properties(LIBSBML::sbml PROPERTIES
    IMPORTED_LOCATION "${LIBSBML_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LIBSBML_INCLUDE_DIR}")
endif()
