/* SPDX-License-Identifier: MIT
 * The floor of a shared-memory ping-pong: two threads on two cores bounce one
 * cache line; reports the round trip in microseconds. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRIALS 5

/* The flag alone on its line, so that only the bounce moves it. */
static struct {
    _Alignas(64) atomic_long flag;
    char pad[64 - sizeof(atomic_long)];
} line;

static long iters;
static int cpus[2];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* No pause instruction in the spins: it would add its own delay (tens of
 * nanoseconds on recent cores) to what is meant to be the floor. */
static void *responder(void *arg)
{
    (void)arg;
    if (pin(cpus[1]) != 0) {
        fprintf(stderr, "cacheline: cannot pin to cpu %d\n", cpus[1]);
        exit(1);
    }
    for (long i = 0; i < iters; i++) {
        while (atomic_load_explicit(&line.flag, memory_order_acquire) != 2 * i + 1)
            ;
        atomic_store_explicit(&line.flag, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

static double trial(void)
{
    pthread_t t;
    double t0, t1;

    atomic_store(&line.flag, 0);
    if (pthread_create(&t, NULL, responder, NULL) != 0) {
        fprintf(stderr, "cacheline: pthread_create failed\n");
        exit(1);
    }
    /* Let the responder start spinning before the clock runs. */
    atomic_store_explicit(&line.flag, 1, memory_order_release);
    while (atomic_load_explicit(&line.flag, memory_order_acquire) != 2)
        ;
    t0 = now();
    for (long i = 1; i < iters; i++) {
        atomic_store_explicit(&line.flag, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&line.flag, memory_order_acquire) != 2 * i + 2)
            ;
    }
    t1 = now();
    pthread_join(t, NULL);
    if (atomic_load(&line.flag) != 2 * iters) {
        fprintf(stderr, "cacheline: the bounce lost a step\n");
        exit(1);
    }
    return (t1 - t0) / (double)(iters - 1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    cpu_set_t allowed;
    double rtt[TRIALS];
    int found = 0;
    int quick = argc > 1 && (strcmp(argv[1], "-q") == 0 || strcmp(argv[1], "--quick") == 0);

    iters = quick ? 100000 : 1000000;
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
        perror("cacheline: sched_getaffinity");
        return 1;
    }
    for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
        if (CPU_ISSET(c, &allowed))
            cpus[found++] = c;
    if (found < 2) {
        fprintf(stderr, "cacheline: needs two CPUs, this process may use %d\n", found);
        return 1;
    }
    if (pin(cpus[0]) != 0) {
        fprintf(stderr, "cacheline: cannot pin to cpu %d\n", cpus[0]);
        return 1;
    }
    for (int i = 0; i < TRIALS; i++)
        rtt[i] = trial();
    qsort(rtt, TRIALS, sizeof(double), cmp_double);
    printf("# rdmx-bench suite=floor bench=cacheline np=1 unit=us better=lower quick=%d lib=none\n",
           quick);
    printf("# size rtt_us (cpus %d and %d; one-way = rtt / 2; median of %d trials of %ld)\n",
           cpus[0], cpus[1], TRIALS, iters);
    printf("64 %.4f\n", rtt[TRIALS / 2] * 1e6);
    return 0;
}
