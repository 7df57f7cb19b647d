/* SPDX-License-Identifier: MIT
 * The symmetric heap: malloc / calloc / align / realloc / free give the same
 * offsets on every PE, respect alignment, survive fragmentation, return NULL
 * when the heap (SHMEM_SYMMETRIC_SIZE) is exhausted; realloc keeps the data.
 * With an argument, a misuse that must end the job with a message:
 *   mismatch  PEs pass different sizes to shmem_malloc
 *   badpe     a put to a PE that does not exist
 *   nonsym    a put to memory that is not symmetric */
#include "shtest.h"

#include <stdint.h>

int main(int argc, char **argv)
{
    sht_init();
    int me = sht_me, n = sht_npes;
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "mismatch"))
        (void)shmem_malloc(64 + (size_t)me);
    if (!strcmp(mode, "badpe")) {
        char *p = shmem_malloc(8);
        shmem_putmem(p, "x", 1, 7);
    }
    if (!strcmp(mode, "nonsym")) {
        int local = 0;
        shmem_int_p(&local, 1, (me + 1) % n);
    }

    /* offsets agree: every PE sends its offsets to PE 0 */
    void *blk[16];
    long *offs = shmem_calloc(16 * (size_t)n, sizeof(long));
    char *base = shmem_malloc(1);
    for (int i = 0; i < 16; i++) {
        size_t sz = (size_t)(i * 37 + 1) * 64;
        blk[i] = i % 3 == 0 ? shmem_malloc(sz) : i % 3 == 1 ? shmem_calloc(sz, 1)
                                                            : shmem_align(4096, sz);
        SHT_CHECK(blk[i] != NULL, "allocation %d", i);
        if (i % 3 == 1)
            for (size_t b = 0; b < sz; b++)
                if (((char *)blk[i])[b]) {
                    SHT_CHECK(0, "calloc not zero at %zu", b);
                    break;
                }
        if (i % 3 == 2)
            SHT_CHECK(((uintptr_t)blk[i] & 4095) == 0, "align 4096: %p", blk[i]);
    }
    long o[16];
    for (int i = 0; i < 16; i++)
        o[i] = (char *)blk[i] - base;
    shmem_long_put(offs + 16 * me, o, 16, 0);
    shmem_barrier_all();
    if (me == 0)
        for (int p = 1; p < n; p++)
            for (int i = 0; i < 16; i++)
                SHT_CHECK(offs[16 * p + i] == offs[i], "PE %d block %d offset differs", p, i);
    /* free every other block, allocate into the holes */
    for (int i = 0; i < 16; i += 2)
        shmem_free(blk[i]);
    for (int i = 0; i < 16; i += 2) {
        blk[i] = shmem_malloc(64);
        SHT_CHECK(blk[i] != NULL, "reuse %d", i);
    }
    /* realloc keeps content, also when it moves */
    int *r = shmem_malloc(100 * sizeof(int));
    for (int i = 0; i < 100; i++)
        r[i] = me + i;
    r = shmem_realloc(r, 100000 * sizeof(int));
    SHT_CHECK(r != NULL, "realloc grows");
    for (int i = 0; r && i < 100; i++)
        SHT_CHECK(r[i] == me + i, "realloc kept %d", i);
    if (r) {
        r[99999] = me;
        shmem_int_p(&r[99998], me, (me + 1) % n);
        shmem_barrier_all();
        SHT_CHECK(r[99998] == (me + n - 1) % n, "put into realloc'd block");
    }
    r = shmem_realloc(r, 10 * sizeof(int));
    SHT_CHECK(r && r[5] == me + 5, "realloc shrinks in place");
    /* limits: zero sizes, bad alignment, exhaustion, NULL free */
    SHT_CHECK(shmem_malloc(0) == NULL, "malloc(0)");
    SHT_CHECK(shmem_align(3, 64) == NULL, "align 3 refused");
    SHT_CHECK(shmem_calloc(SIZE_MAX / 2, 4) == NULL, "calloc overflow");
    SHT_CHECK(shmem_malloc((size_t)1 << 40) == NULL, "1 TiB is more than the heap");
    shmem_free(NULL);
    void *rest = shmem_malloc((size_t)16 << 20);
    SHT_CHECK(rest != NULL, "16 MiB fits the default heap");
    shmem_free(rest);
    for (int i = 0; i < 16; i++)
        shmem_free(blk[i]);
    shmem_free(r);
    shmem_free(base);
    shmem_free(offs);
    return sht_finish();
}
