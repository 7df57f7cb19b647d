# SPDX-License-Identifier: MIT
# One multi-rank test program, run through the launcher at several rank counts:
#   rdmx_rank_test(KIND NAME SOURCE NRANKS_LIST [TIMEOUT s] [SUFFIX s] [ENV VAR=VAL...]
#                  [ARGS a...] [RUN launcher-option...] [FAIL_REGEX re] [EXIT_CODE n] [TSAN])
# KIND is mpi (rdmx-run) or shmem (oshrun). Builds SOURCE against librdmx once per
# source (rx<KIND>_<source>) and adds KIND.NAME<SUFFIX>.npN per rank count, labelled
# KIND (and "oversubscribed" when N exceeds the cores of the configuring machine).
# TSAN: the program runs threads of its own or of the library's (MPI_THREAD_MULTIPLE,
# the offload thread): labelled "tsan", its program joins the target tsan-tests, and
# scripts/test.sh runs it under ThreadSanitizer.
# tests/mpi/rxcheck.sh runs the job: it passes on exit status 0 with "No Errors" in
# the output, or, with FAIL_REGEX, on a non-zero status with matching output.
cmake_host_system_information(RESULT RX_RANK_TEST_NCORES QUERY NUMBER_OF_LOGICAL_CORES)

function(rdmx_rank_test KIND NAME SOURCE NRANKS_LIST)
  cmake_parse_arguments(T "TSAN" "TIMEOUT;FAIL_REGEX;EXIT_CODE;SUFFIX" "ENV;ARGS;RUN" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()
  if(T_RUN MATCHES "offload-cores" AND RX_RANK_TEST_NCORES LESS 2)
    return() # needs a core besides the ranks'
  endif()
  set(launcher ${CMAKE_BINARY_DIR}/bin/rdmx-run)
  if(KIND STREQUAL shmem)
    set(launcher ${CMAKE_BINARY_DIR}/bin/oshrun)
  endif()
  get_filename_component(base ${SOURCE} NAME_WE)
  set(exe rx${KIND}_${base})
  if(NOT TARGET ${exe})
    add_executable(${exe} ${CMAKE_CURRENT_SOURCE_DIR}/${SOURCE})
    target_include_directories(${exe} PRIVATE ${CMAKE_SOURCE_DIR}/include
                                              ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(${exe} PRIVATE rdmx Threads::Threads m)
    set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  if(T_TSAN)
    set_property(GLOBAL APPEND PROPERTY RX_TSAN_TARGETS ${exe})
  endif()
  set(check ${CMAKE_SOURCE_DIR}/tests/mpi/rxcheck.sh)
  if(T_FAIL_REGEX)
    list(APPEND check --fail ${T_FAIL_REGEX})
  endif()
  if(DEFINED T_EXIT_CODE AND NOT T_EXIT_CODE STREQUAL "")
    list(APPEND check --rc ${T_EXIT_CODE})
  endif()
  set(envflags)
  foreach(e ${T_ENV})
    list(APPEND envflags -x ${e})
  endforeach()
  foreach(n ${NRANKS_LIST})
    set(test ${KIND}.${NAME}${T_SUFFIX}.np${n})
    add_test(NAME ${test}
             COMMAND ${check} -- ${launcher} -n ${n} ${envflags} ${T_RUN}
                     $<TARGET_FILE:${exe}> ${T_ARGS})
    set(labels ${KIND})
    if(n GREATER RX_RANK_TEST_NCORES)
      list(APPEND labels oversubscribed)
    endif()
    if(T_TSAN)
      list(APPEND labels tsan)
    endif()
    set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT ${T_TIMEOUT}
                                            PROCESSORS ${n})
  endforeach()
endfunction()
