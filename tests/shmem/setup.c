/* SPDX-License-Identifier: MIT
 * Setup and query routines: shmem_init_thread with every level (the level
 * asked for is provided, SHMEM_THREAD_MULTIPLE included) and a second call, which does
 * nothing; shmem_query_thread; the version and name; shmem_pe_accessible;
 * the old start_pes / _my_pe / _num_pes; shmem_sync_all and
 * shmem_barrier_all ordering puts. With the argument "exit", PE n-1 calls
 * shmem_global_exit(7) while the others wait in a barrier: the whole job
 * must end with status 7. */
#include "shtest.h"

static long flag;

int main(int argc, char **argv)
{
    signal(SIGALRM, sht_alarm);
    alarm(120);
    int want = argc > 2 ? atoi(argv[2]) : SHMEM_THREAD_MULTIPLE, prov = -1;
    if (shmem_init_thread(want, &prov) != 0) {
        fprintf(stderr, "shmem_init_thread(%d) failed\n", want);
        return 1;
    }
    sht_me = shmem_my_pe();
    sht_npes = shmem_n_pes();
    int me = sht_me, n = sht_npes;
    SHT_CHECK(prov == want, "requested %d, provided %d", want, prov);
    int q = -1;
    shmem_query_thread(&q);
    SHT_CHECK(q == prov, "query_thread %d", q);
    int again = -1;
    SHT_CHECK(shmem_init_thread(SHMEM_THREAD_SINGLE, &again) == 0 && again == prov,
              "a second init_thread does nothing (%d)", again);
    start_pes(0); /* also nothing once initialized */
    SHT_CHECK(_my_pe() == me && _num_pes() == n, "_my_pe / _num_pes");
    int major = 0, minor = 0;
    shmem_info_get_version(&major, &minor);
    SHT_CHECK(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION && major == 1 &&
                  minor == 5,
              "version %d.%d", major, minor);
    char name[SHMEM_MAX_NAME_LEN];
    memset(name, 'x', sizeof name);
    shmem_info_get_name(name);
    SHT_CHECK(memchr(name, 0, sizeof name) && !strcmp(name, SHMEM_VENDOR_STRING), "name");
    for (int p = 0; p < n; p++)
        SHT_CHECK(shmem_pe_accessible(p), "PE %d accessible", p);
    SHT_CHECK(!shmem_pe_accessible(n) && !shmem_pe_accessible(-1), "PEs outside the job");

    if (argc > 1 && !strcmp(argv[1], "exit")) {
        if (me == n - 1) {
            fprintf(stderr, "PE %d calls shmem_global_exit(7)\n", me);
            shmem_global_exit(7);
        }
        shmem_barrier_all(); /* never completes: PE n-1 left */
        fprintf(stderr, "FAIL: PE %d passed a barrier without PE %d\n", me, n - 1);
        return 1;
    }

    /* sync_all then a put the next PE reads after barrier_all */
    shmem_sync_all();
    shmem_long_p(&flag, 10 + me, (me + 1) % n);
    shmem_barrier_all();
    SHT_CHECK(flag == 10 + (me + n - 1) % n, "put before barrier_all: %ld", flag);
    return sht_finish();
}
