# Reduction-op kernels (src/op/op.c), compiled straight into the test.
add_executable(test_op ${CMAKE_SOURCE_DIR}/tests/unit/test_op.c ${CMAKE_SOURCE_DIR}/src/op/op.c)
target_include_directories(test_op PRIVATE ${CMAKE_SOURCE_DIR}/src)
add_test(NAME unit.op COMMAND test_op)
set_tests_properties(unit.op PROPERTIES LABELS unit TIMEOUT 60)
