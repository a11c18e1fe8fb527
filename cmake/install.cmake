# Install rules: headers, libraries, tools, a relocatable CMake package (limberConfig.cmake with
# limber::limber and limber::io) and pkg-config files (limber.pc, limber-io.pc).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/limber)
set(LB_IO_HEADERS import.h metrics.h scenario.h)

set(LB_INSTALL_TARGETS limber)
if(TARGET limber_io)
  list(APPEND LB_INSTALL_TARGETS limber_io)
endif()
install(TARGETS ${LB_INSTALL_TARGETS} EXPORT limberTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The io layer's headers go with the io layer.
if(TARGET limber_io)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/limber DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
else()
  set(LB_EXCLUDE "")
  foreach(h ${LB_IO_HEADERS})
    list(APPEND LB_EXCLUDE PATTERN ${h} EXCLUDE)
  endforeach()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/limber DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h" ${LB_EXCLUDE})
endif()
foreach(tool limber_cli limber_viewer)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

install(EXPORT limberTargets NAMESPACE limber:: DESTINATION ${LB_INSTALL_CMAKEDIR})
get_target_property(LB_CORE_TYPE limber TYPE)
set(LB_STATIC_IO OFF)
if(TARGET limber_io AND NOT LB_CORE_TYPE STREQUAL "SHARED_LIBRARY")
  set(LB_STATIC_IO ON)
endif()
set(LB_HAS_IO OFF)
if(TARGET limber_io)
  set(LB_HAS_IO ON)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/limberConfig.cmake.in
  ${PROJECT_BINARY_DIR}/limberConfig.cmake INSTALL_DESTINATION ${LB_INSTALL_CMAKEDIR})
# 0.x: a minor release may break the API, so only the same minor version is compatible.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(LB_COMPAT SameMinorVersion)
else()
  set(LB_COMPAT SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/limberConfigVersion.cmake COMPATIBILITY ${LB_COMPAT})
install(FILES ${PROJECT_BINARY_DIR}/limberConfig.cmake ${PROJECT_BINARY_DIR}/limberConfigVersion.cmake
  DESTINATION ${LB_INSTALL_CMAKEDIR})

# pkg-config files find their prefix from their own place (${pcfiledir}), so the tree can move.
set(LB_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH LB_PC_TO_PREFIX /${LB_PC_DIR} /)
string(REGEX REPLACE "/$" "" LB_PC_TO_PREFIX "${LB_PC_TO_PREFIX}")
set(LB_PC_CFLAGS "")
if(WIN32 AND LB_CORE_TYPE STREQUAL "SHARED_LIBRARY")
  set(LB_PC_CFLAGS " -DLB_DLL")
endif()
set(LB_PC_LIBM "")
if(UNIX)
  set(LB_PC_LIBM " -lm")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/limber.pc.in ${PROJECT_BINARY_DIR}/limber.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/limber.pc DESTINATION ${LB_PC_DIR})
if(TARGET limber_io)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/limber-io.pc.in ${PROJECT_BINARY_DIR}/limber-io.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/limber-io.pc DESTINATION ${LB_PC_DIR})
endif()
