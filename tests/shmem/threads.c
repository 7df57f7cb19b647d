/* SPDX-License-Identifier: MIT
 * SHMEM and MPI from several threads of every PE at once, under
 * SHMEM_THREAD_MULTIPLE / MPI_THREAD_MULTIPLE (argument: mpi-first or
 * shmem-first, which library starts the runtime; then the number of threads,
 * 2-4, default 3).
 *
 * Every thread t of PE p, for ITERS rounds i: puts a block into its own slot
 * of the right neighbour's heap and static data, gets both back and checks
 * them, increments the neighbour's signal word for t (an atomic on static
 * data: through the rma layer), waits for its own signal word to reach i+1
 * (shmem_wait_until) and checks the blocks its left neighbour's thread t put
 * there, takes a fetch_inc on a heap counter of PE 0 and an atomic add on
 * static data of the last PE, sends a checked message around the ring with
 * MPI (tag t) and, on thread 0, every 25 rounds a SHMEM reduction and an
 * MPI_Allreduce. Afterwards the counters must hold exactly what every thread
 * of every PE added, and every value fetched from PE 0's counter must be
 * distinct. */
#include "shtest.h"

#include <mpi.h>
#include <pthread.h>
#include <stdint.h>

#define NT_MAX 4
#define ITERS 1000
#define LEN 6

static long sdata[NT_MAX][ITERS][LEN]; /* static symmetric data */
static uint64_t sig[NT_MAX];
static long sadd;
static long (*hdata)[ITERS][LEN]; /* heap: NT_MAX x ITERS x LEN */
static long *hcount;              /* heap, used on PE 0 */
static long *red_src, *red_dst;   /* heap, thread 0's reductions */
static long *fetched;             /* private: every value fetched, per thread */
static int nt, me, npes;
static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            pthread_mutex_lock(&err_lock);                                                     \
            SHT_CHECK(cond, __VA_ARGS__);                                                      \
            pthread_mutex_unlock(&err_lock);                                                   \
        }                                                                                      \
    } while (0)

static long code(int pe, int t, int i, int k) { return ((long)(pe * NT_MAX + t) * ITERS + i) * LEN + k + 1; }

static void round_trip(int t, int i, int right, int left)
{
    long v[LEN], back[LEN];
    for (int k = 0; k < LEN; k++)
        v[k] = code(me, t, i, k);
    shmem_long_put(hdata[t][i], v, LEN, right);
    shmem_long_put_nbi(sdata[t][i], v, LEN, right);
    shmem_quiet();
    shmem_long_get(back, hdata[t][i], LEN, right);
    for (int k = 0; k < LEN; k++)
        CHECK(back[k] == v[k], "thread %d round %d: heap get %ld, put %ld", t, i, back[k], v[k]);
    memset(back, 0, sizeof back);
    shmem_getmem(back, sdata[t][i], sizeof back, right);
    for (int k = 0; k < LEN; k++)
        CHECK(back[k] == v[k], "thread %d round %d: static get %ld, put %ld", t, i, back[k], v[k]);
    CHECK(shmem_long_g(&sdata[t][i][LEN - 1], right) == v[LEN - 1], "thread %d round %d: g", t, i);
    /* the blocks are complete at the target before the signal (quiet above) */
    shmem_uint64_atomic_add(&sig[t], 1, right);
    while (!shmem_uint64_test(&sig[t], SHMEM_CMP_GE, (uint64_t)i + 1) && (i & 1))
        ; /* odd rounds: test, which polls every time, even rounds: wait */
    shmem_uint64_wait_until(&sig[t], SHMEM_CMP_GE, (uint64_t)i + 1);
    for (int k = 0; k < LEN; k++) {
        CHECK(hdata[t][i][k] == code(left, t, i, k), "thread %d round %d: heap from PE %d: %ld",
              t, i, left, hdata[t][i][k]);
        CHECK(sdata[t][i][k] == code(left, t, i, k), "thread %d round %d: static from PE %d: %ld",
              t, i, left, sdata[t][i][k]);
    }
}

static void mpi_ring(int t, int i, int right, int left)
{
    long out[2] = {code(me, t, i, 0), -code(me, t, i, 1)}, in[2] = {0, 0};
    MPI_Status st;
    int rc = MPI_Sendrecv(out, 2, MPI_LONG, right, t, in, 2, MPI_LONG, left, t, MPI_COMM_WORLD, &st);
    CHECK(rc == MPI_SUCCESS && st.MPI_SOURCE == left && st.MPI_TAG == t, "thread %d: Sendrecv", t);
    CHECK(in[0] == code(left, t, i, 0) && in[1] == -code(left, t, i, 1),
          "thread %d round %d: MPI got %ld %ld from PE %d", t, i, in[0], in[1], left);
}

static void collectives(int i)
{
    *red_src = me + i;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, 1);
    long want = (long)npes * (npes - 1) / 2 + (long)npes * i;
    CHECK(*red_dst == want, "round %d: SHMEM sum %ld, want %ld", i, *red_dst, want);
    long x = i - me, sum = 0;
    MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == (long)npes * i - (long)npes * (npes - 1) / 2, "round %d: MPI sum %ld", i, sum);
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg, right = (me + 1) % npes, left = (me + npes - 1) % npes;
    for (int i = 0; i < ITERS; i++) {
        round_trip(t, i, right, left);
        fetched[t * ITERS + i] = shmem_long_atomic_fetch_inc(hcount, 0);
        shmem_long_atomic_add(&sadd, t + 1, npes - 1);
        mpi_ring(t, i, right, left);
        if (t == 0 && i % 25 == 0)
            collectives(i);
    }
    return NULL;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static void check_counts(void)
{
    long total = (long)npes * nt * ITERS;
    if (me == 0)
        CHECK(*hcount == total, "heap counter %ld, want %ld", *hcount, total);
    if (me == npes - 1)
        CHECK(sadd == (long)npes * ITERS * nt * (nt + 1) / 2, "static counter %ld", sadd);
    /* the values fetched by every thread of every PE: 0 .. total-1 once each */
    long *all = shmem_malloc(sizeof(long) * (size_t)total);
    long *mine = shmem_malloc(sizeof(long) * (size_t)(nt * ITERS));
    memcpy(mine, fetched, sizeof(long) * (size_t)(nt * ITERS));
    shmem_long_fcollect(SHMEM_TEAM_WORLD, all, mine, (size_t)(nt * ITERS));
    qsort(all, (size_t)total, sizeof(long), cmp_long);
    for (long k = 0; k < total; k++)
        if (all[k] != k) {
            CHECK(all[k] == k, "fetched values: position %ld holds %ld", k, all[k]);
            break;
        }
    shmem_free(mine);
    shmem_free(all);
}

int main(int argc, char **argv)
{
    int shmem_first = argc > 1 && !strcmp(argv[1], "shmem-first");
    nt = argc > 2 ? atoi(argv[2]) : 3;
    if (nt < 2 || nt > NT_MAX)
        nt = 3;
    signal(SIGALRM, sht_alarm);
    alarm(60);
    int sprov = -1, mprov = -1;
    if (shmem_first) {
        if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &sprov) != 0)
            return 2;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &mprov);
    } else {
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &mprov);
        if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &sprov) != 0)
            return 2;
    }
    sht_me = me = shmem_my_pe();
    sht_npes = npes = shmem_n_pes();
    int q = -1;
    shmem_query_thread(&q);
    SHT_CHECK(sprov == SHMEM_THREAD_MULTIPLE && q == SHMEM_THREAD_MULTIPLE,
              "SHMEM provided %d, query %d", sprov, q);
    SHT_CHECK(mprov == MPI_THREAD_MULTIPLE, "MPI provided %d", mprov);
    hdata = shmem_calloc(NT_MAX, sizeof *hdata);
    hcount = shmem_calloc(1, sizeof(long));
    red_src = shmem_malloc(sizeof(long));
    red_dst = shmem_malloc(sizeof(long));
    fetched = calloc((size_t)(nt * ITERS), sizeof(long));
    if (!hdata || !hcount || !red_src || !red_dst || !fetched)
        return 2;
    shmem_barrier_all();
    pthread_t th[NT_MAX];
    for (int t = 1; t < nt; t++)
        pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
    worker((void *)0);
    for (int t = 1; t < nt; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    check_counts();
    for (int t = 0; t < nt; t++)
        CHECK(sig[t] == ITERS, "signal word %d: %lu", t, (unsigned long)sig[t]);
    shmem_free(red_dst);
    shmem_free(red_src);
    shmem_free(hcount);
    shmem_free(hdata);
    free(fetched);
    int rc = sht_finish();
    MPI_Finalize();
    return rc;
}
