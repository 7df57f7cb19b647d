# The transport contract (test_tl_contract.c) against every transport: self
# alone (1 rank), self and shm (2 ranks on this node), and with libfabric
# also ofi, over tcp on loopback only (RDMX_OFI=all puts it between the ranks).
add_executable(test_tl_contract ${CMAKE_CURRENT_SOURCE_DIR}/test_tl_contract.c)
target_include_directories(test_tl_contract PRIVATE ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(test_tl_contract PRIVATE rdmx_static Threads::Threads rt)
set(rx_tlc_run ${CMAKE_BINARY_DIR}/bin/rdmx-run)
add_test(NAME unit.tl_contract.self COMMAND ${rx_tlc_run} -n 1 $<TARGET_FILE:test_tl_contract>)
set_tests_properties(unit.tl_contract.self PROPERTIES ENVIRONMENT "RDMX_OFI=off;TLC_EXPECT=self")
add_test(NAME unit.tl_contract.shm COMMAND ${rx_tlc_run} -n 2 $<TARGET_FILE:test_tl_contract>)
set_tests_properties(unit.tl_contract.shm PROPERTIES ENVIRONMENT "RDMX_OFI=off;TLC_EXPECT=self,shm")
set(rx_tlc_tests unit.tl_contract.self unit.tl_contract.shm)
if(LIBFABRIC_FOUND)
  add_test(NAME unit.tl_contract.ofi COMMAND ${rx_tlc_run} -n 2 $<TARGET_FILE:test_tl_contract>)
  set_tests_properties(unit.tl_contract.ofi PROPERTIES ENVIRONMENT
    "RDMX_OFI=all;FI_PROVIDER=tcp;RDMX_OFI_IFACE=lo;TLC_EXPECT=self,shm,ofi")
  list(APPEND rx_tlc_tests unit.tl_contract.ofi)
endif()
set_tests_properties(${rx_tlc_tests} PROPERTIES LABELS unit TIMEOUT 120 PROCESSORS 2
                     FAIL_REGULAR_EXPRESSION "failures")
