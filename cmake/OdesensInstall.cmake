# Install rules, the exported CMake package and the pkg-config files.
# Included once from the top-level CMakeLists.txt, after every target exists.
#
#   <prefix>/lib/libodesens.a                    odesens::odesens (C++ API)
#   <prefix>/lib/libodesens.so{,.0,.0.x.y}       odesens::c (C ABI)
#   <prefix>/include/odesens/*.hpp               C++ headers
#   <prefix>/include/odesens.h                   C header (#include "odesens.h",
#                                                as in docs/c-api.md)
#   <prefix>/bin/odesens                         the command-line tool
#   <prefix>/share/odesens/odesens.f90, ODESens.jl   the Fortran and Julia
#   <prefix>/share/odesens/generated/odesens_raw.{f90,jl}  modules and the raw
#                                                layers they use (same layout
#                                                as capi/)
#   <prefix>/lib/cmake/odesens/                  odesensConfig.cmake & co., plus
#                                                the find modules of the
#                                                dependencies (modules/)
#   <prefix>/lib/pkgconfig/odesens.pc            C ABI (shared)
#   <prefix>/lib/pkgconfig/odesens-cpp.pc        C++ API (static, with deps)
#
# Everything is relocatable: cmake --install BUILD --prefix ANYWHERE works.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ODESENS_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/odesens)

# Consumers see the targets as odesens::odesens and odesens::c.
set_target_properties(odesens_static PROPERTIES EXPORT_NAME odesens)
set_target_properties(odesens_shared PROPERTIES EXPORT_NAME c)
target_compile_features(odesens_static INTERFACE cxx_std_17)
# PUBLIC_HEADER (capi/CMakeLists.txt) names odesens.h relative to capi/,
# but install(TARGETS) here would resolve it relative to this directory.
get_target_property(_odesens_c_headers odesens_shared PUBLIC_HEADER)
if(_odesens_c_headers)
  list(TRANSFORM _odesens_c_headers REPLACE "^([^/].*)$" "${PROJECT_SOURCE_DIR}/capi/\\1")
  set_target_properties(odesens_shared PROPERTIES PUBLIC_HEADER "${_odesens_c_headers}")
endif()
target_include_directories(odesens_shared PUBLIC
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

install(TARGETS odesens_static odesens_shared
  EXPORT odesensTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
          NAMELINK_COMPONENT dev
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
if(TARGET odesens_cli)
  install(TARGETS odesens_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()
if(TARGET odesens_mpi)
  install(TARGETS odesens_mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/odesens
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
  FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_SOURCE_DIR}/capi/odesens.f90 ${PROJECT_SOURCE_DIR}/capi/ODESens.jl
  DESTINATION ${CMAKE_INSTALL_DATADIR}/odesens COMPONENT dev)
# ODESens.jl includes generated/odesens_raw.jl relative to itself.
install(FILES ${PROJECT_SOURCE_DIR}/capi/generated/odesens_raw.f90
              ${PROJECT_SOURCE_DIR}/capi/generated/odesens_raw.jl
  DESTINATION ${CMAKE_INSTALL_DATADIR}/odesens/generated COMPONENT dev)

# --- CMake package -----------------------------------------------------------
install(EXPORT odesensTargets
  NAMESPACE odesens::
  DESTINATION ${ODESENS_INSTALL_CMAKEDIR}
  COMPONENT dev)
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/odesensConfig.cmake.in
  ${PROJECT_BINARY_DIR}/odesensConfig.cmake
  INSTALL_DESTINATION ${ODESENS_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/odesensConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/odesensConfig.cmake
              ${PROJECT_BINARY_DIR}/odesensConfigVersion.cmake
  DESTINATION ${ODESENS_INSTALL_CMAKEDIR} COMPONENT dev)
# The project's own find modules for the link dependencies of libodesens.a
# (not Xbyak: header-only and private to the library).
install(FILES
  ${PROJECT_SOURCE_DIR}/cmake/FindSUNDIALS.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindOdesensBlasLapack.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindSLEEF.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindLIBSBML.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindKLU.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindMPFR.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindLBFGSB.cmake
  DESTINATION ${ODESENS_INSTALL_CMAKEDIR}/modules COMPONENT dev)

# --- pkg-config ----------------------------------------------------------------
# prefix is computed from the .pc file's own location, so the files stay
# right wherever the tree is installed (cmake --install --prefix ...).
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(ODESENS_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(ODESENS_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(ODESENS_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH _up "/_root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/_root")
  string(REGEX REPLACE "/$" "" _up "${_up}")
  set(ODESENS_PC_PREFIX "\${pcfiledir}/${_up}")
  set(ODESENS_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(ODESENS_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()

# Absolute paths of the libraries behind the imported dependency targets,
# for odesens-cpp.pc (SUNDIALS and SuiteSparse ship no .pc files on Debian).
function(_odesens_collect_libs out)
  set(libs "")
  set(stack ${ARGN})
  set(seen "")
  while(stack)
    list(POP_FRONT stack item)
    # Ceres' static library lists its dependencies as $<LINK_ONLY:target>.
    if(item MATCHES "^\\$<LINK_ONLY:(.+)>$")
      set(item "${CMAKE_MATCH_1}")
    endif()
    if(item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${item}")
    if(TARGET "${item}")
      get_target_property(loc "${item}" IMPORTED_LOCATION)
      if(NOT loc)
        # Debian's yaml-cpp names its library for the build type it was made with.
        get_target_property(configs "${item}" IMPORTED_CONFIGURATIONS)
        if(configs)
          list(GET configs 0 config)
          get_target_property(loc "${item}" IMPORTED_LOCATION_${config})
        endif()
      endif()
      if(loc)
        list(APPEND libs "${loc}")
      endif()
      get_target_property(deps "${item}" INTERFACE_LINK_LIBRARIES)
      if(deps)
        list(APPEND stack ${deps})
      endif()
    elseif(item)
      list(APPEND libs "${item}")
    endif()
  endwhile()
  list(REMOVE_DUPLICATES libs)
  set(${out} "${libs}" PARENT_SCOPE)
endfunction()
_odesens_collect_libs(_dep_libs ${ODESENS_EXTERNAL_LIBRARIES})
set(ODESENS_PC_CPP_DEPS "")
foreach(lib IN LISTS _dep_libs)
  if(lib MATCHES "^-")
    string(APPEND ODESENS_PC_CPP_DEPS " ${lib}")
  elseif(IS_ABSOLUTE "${lib}")
    string(APPEND ODESENS_PC_CPP_DEPS " ${lib}")
  else()
    string(APPEND ODESENS_PC_CPP_DEPS " -l${lib}")
  endif()
endforeach()

configure_file(${PROJECT_SOURCE_DIR}/cmake/odesens.pc.in
  ${PROJECT_BINARY_DIR}/pkgconfig/odesens.pc @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/odesens-cpp.pc.in
  ${PROJECT_BINARY_DIR}/pkgconfig/odesens-cpp.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/odesens.pc
              ${PROJECT_BINARY_DIR}/pkgconfig/odesens-cpp.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
