/* SPDX-License-Identifier: MIT */
#ifndef RX_TIMER_H
#define RX_TIMER_H
#include <time.h>

static inline double rx_time_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif
