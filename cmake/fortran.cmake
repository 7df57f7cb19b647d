# SPDX-License-Identifier: MIT
# Fortran: the bindings (src/fortran), their tests and example, the rdmx-fort
# wrapper. Built whenever a Fortran compiler is found; scripts/packages names
# gfortran, so CI always has one. Included from the top-level CMakeLists.txt
# because enable_language must run in the directory above every Fortran target.
include(CheckLanguage)
check_language(Fortran)
set(RDMX_HAVE_FORTRAN FALSE)
if(NOT CMAKE_Fortran_COMPILER)
  message(STATUS "rdmx: no Fortran compiler found: the Fortran bindings are not built")
  return()
endif()
enable_language(Fortran)
set(RDMX_HAVE_FORTRAN TRUE)
# the bindings are generated from include/mpi.h by src/fortran/gen_bindings.py
find_package(Python3 REQUIRED COMPONENTS Interpreter)
# mpif.h and the .mod files share one directory: what rdmx-fort's -I names
set(RDMX_FORTRAN_INCLUDE_DIR ${CMAKE_BINARY_DIR}/fortran)
add_subdirectory(src/fortran)
# pkg-config: rdmx-fort.pc beside rdmx.pc (relocatable in the same way)
string(REGEX REPLACE "[^/]+" ".." RDMX_FORT_PC_UP "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(${CMAKE_SOURCE_DIR}/cmake/rdmx-fort.pc.in ${CMAKE_BINARY_DIR}/rdmx-fort.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/rdmx-fort.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
