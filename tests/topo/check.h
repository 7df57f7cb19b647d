/* SPDX-License-Identifier: MIT
 * The check macro of the rdmx-topo tests: reports a failed condition with its place and goes on,
 * counting failures (each test program exits non-zero when any). */
#ifndef RX_TOPO_TEST_CHECK_H
#define RX_TOPO_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                                         \
    do {                                                                                                         \
        if (!(cond)) {                                                                                           \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                     \
            fprintf(stderr, __VA_ARGS__);                                                                        \
            fprintf(stderr, "\n");                                                                               \
            failures++;                                                                                          \
        }                                                                                                        \
    } while (0)

#endif
