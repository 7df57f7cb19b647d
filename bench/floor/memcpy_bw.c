/* SPDX-License-Identifier: MIT
 * The ceiling of a single-copy transfer: single-core memcpy bandwidth from
 * in-cache to out-of-cache sizes, in MB/s (10^6 bytes per second). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRIALS 5
#define MIN_SIZE (4L << 10)
#define MAX_SIZE (256L << 20)

/* Read from the copies and stored here, so that no copy can be dropped. */
volatile unsigned long rx_memcpy_sink;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && (strcmp(argv[1], "-q") == 0 || strcmp(argv[1], "--quick") == 0);
    double min_time = quick ? 0.005 : 0.05; /* per trial */
    char *src = aligned_alloc(4096, MAX_SIZE), *dst = aligned_alloc(4096, MAX_SIZE);
    unsigned long sum = 0;

    if (src == NULL || dst == NULL) {
        fprintf(stderr, "memcpy_bw: cannot allocate 2 x %ld bytes\n", MAX_SIZE);
        return 1;
    }
    /* Distinct contents, all pages faulted in before any timing. */
    for (long i = 0; i < MAX_SIZE; i++)
        src[i] = (char)(i * 7 + 3);
    memset(dst, 0, MAX_SIZE);

    printf("# rdmx-bench suite=floor bench=memcpy np=1 unit=MB/s better=higher quick=%d lib=none\n",
           quick);
    printf("# size bandwidth_MB/s (one core, src and dst of that size; median of %d trials)\n",
           TRIALS);
    for (long s = MIN_SIZE; s <= MAX_SIZE; s *= 2) {
        double bw[TRIALS];
        for (int t = 0; t < TRIALS; t++) {
            long reps = 0;
            double t0 = now(), el;
            do {
                memcpy(dst, src, (size_t)s);
                sum += (unsigned char)dst[(reps * 4099) % s];
                reps++;
                el = now() - t0;
            } while (el < min_time);
            bw[t] = (double)s * (double)reps / el / 1e6;
        }
        qsort(bw, TRIALS, sizeof(double), cmp_double);
        printf("%ld %.0f\n", s, bw[TRIALS / 2]);
        fflush(stdout);
    }
    if (memcmp(dst, src, MAX_SIZE) != 0) {
        fprintf(stderr, "memcpy_bw: destination differs from source\n");
        return 1;
    }
    rx_memcpy_sink = sum;
    free(src);
    free(dst);
    return 0;
}
