# SPDX-License-Identifier: MIT
# The libfabric transport, built when pkg-config finds libfabric (Debian:
# libfabric-dev); without it a job spanning nodes fails with a clear message.
# Included from the top-level CMakeLists.txt after the rdmx_objects target.
pkg_check_modules(LIBFABRIC IMPORTED_TARGET libfabric)
if(LIBFABRIC_FOUND)
  file(GLOB RDMX_OFI_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.c)
  target_sources(rdmx_objects PRIVATE ${RDMX_OFI_SOURCES})
  target_compile_definitions(rdmx_objects PRIVATE RDMX_HAVE_OFI)
  target_include_directories(rdmx_objects PRIVATE ${LIBFABRIC_INCLUDE_DIRS})
  foreach(t rdmx rdmx_static)
    target_link_libraries(${t} PRIVATE PkgConfig::LIBFABRIC ${CMAKE_DL_LIBS})
  endforeach()
  message(STATUS "rdmx: libfabric ${LIBFABRIC_VERSION}: network transport enabled")
else()
  message(STATUS "rdmx: libfabric not found: no network transport (single-node jobs only)")
endif()
