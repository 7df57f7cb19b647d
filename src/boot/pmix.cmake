# SPDX-License-Identifier: MIT
# The PMIx bootstrap client (src/boot/pmix_client.c), built when pkg-config
# finds PMIx (Debian: libpmix-dev); ranks started by a PMIx launcher (Open MPI's
# mpirun, srun --mpi=pmix) then use it. Without it the file compiles to nothing.
pkg_check_modules(PMIX IMPORTED_TARGET pmix)
if(PMIX_FOUND)
  target_compile_definitions(rdmx_objects PRIVATE RDMX_HAVE_PMIX)
  target_include_directories(rdmx_objects PRIVATE ${PMIX_INCLUDE_DIRS})
  foreach(t rdmx rdmx_static)
    target_link_libraries(${t} PRIVATE PkgConfig::PMIX)
  endforeach()
  message(STATUS "rdmx: PMIx ${PMIX_VERSION}: PMIx bootstrap client enabled")
else()
  message(STATUS "rdmx: PMIx not found: ranks start under rdmx-run or PMI-1 launchers only")
endif()
