/* SPDX-License-Identifier: MIT
 * Registration cache against reused memory, between two ranks on different
 * hosts (rendezvous by RDMA read): rank 0 sends from a buffer, frees it,
 * allocates again (usually at the same address) with other contents and
 * sends again; the same with an explicit munmap and a new mapping at the very
 * same address (MAP_FIXED). Rank 1 checks every byte: a cache that handed out
 * the old registration would deliver the old contents (with a pinning NIC)
 * or fail the read. Also sends the same buffer repeatedly (cache hits). */
#include "../mpi/rxtest.h"

#include <sys/mman.h>

#define LEN (4u << 20)

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 12));
}

static void exchange(unsigned char *buf, unsigned seed, const char *what)
{
    if (rxt_rank == 0) {
        fill(buf, LEN, seed);
        RXT_MPI(MPI_Send(buf, LEN, MPI_BYTE, 1, (int)seed, MPI_COMM_WORLD));
    } else if (rxt_rank == 1) {
        unsigned char *want = malloc(LEN), *got = malloc(LEN);
        if (!want || !got)
            RXT_FATAL("out of memory");
        fill(want, LEN, seed);
        memset(got, 0, LEN);
        RXT_MPI(MPI_Recv(got, LEN, MPI_BYTE, 0, (int)seed, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        size_t bad = 0;
        for (size_t i = 0; i < LEN; i++)
            bad += got[i] != want[i];
        RXT_CHECK(bad == 0, "%s (seed %u): %zu of %u bytes differ", what, seed, bad, LEN);
        free(want);
        free(got);
    }
}

int main(int argc, char **argv)
{
    rxt_init(&argc, &argv, "mr_reuse");
    if (rxt_size < 2)
        RXT_FATAL("needs 2 ranks");
    unsigned seed = 1;
    /* the same buffer three times: one registration, then hits */
    unsigned char *a = malloc(LEN);
    if (!a)
        RXT_FATAL("out of memory");
    for (int i = 0; i < 3; i++)
        exchange(a, seed++, "same buffer");
    /* free and allocate again: often the same address, new contents */
    free(a);
    unsigned char *b = malloc(LEN);
    if (!b)
        RXT_FATAL("out of memory");
    exchange(b, seed++, "after free/malloc");
    free(b);
    /* munmap and map again at exactly the same address */
    unsigned char *m = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        RXT_FATAL("mmap failed");
    exchange(m, seed++, "mapping");
    munmap(m, LEN);
    unsigned char *m2 = mmap(m, LEN, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (m2 != m)
        RXT_FATAL("could not map the same address again");
    exchange(m2, seed++, "after munmap/mmap at the same address");
    munmap(m2, LEN);
    return rxt_finish();
}
