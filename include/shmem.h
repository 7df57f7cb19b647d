/* SPDX-License-Identifier: MIT
 * OpenSHMEM 1.5 on the rdmx runtime. What is there and what is missing:
 * docs/shmem.md. Build with rdmx-oshcc (oshcc), start with rdmx-run (oshrun). */
#ifndef RDMX_SHMEM_H
#define RDMX_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "rdmx"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

enum { SHMEM_CMP_EQ = 1, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE };
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* contexts */
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)
typedef struct rdmx_shmem_ctx *shmem_ctx_t;
extern shmem_ctx_t SHMEM_CTX_DEFAULT;
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

/* teams */
typedef struct rdmx_shmem_team *shmem_team_t;
extern shmem_team_t SHMEM_TEAM_WORLD;
extern shmem_team_t SHMEM_TEAM_SHARED;
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
typedef struct {
    int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* sizes of the deprecated active-set work arrays (accepted, not needed) */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_BCAST_SYNC_SIZE 1
#define SHMEM_SYNC_SIZE 1
#define SHMEM_REDUCE_SYNC_SIZE 1
#define SHMEM_BARRIER_SYNC_SIZE 1
#define SHMEM_COLLECT_SYNC_SIZE 1
#define SHMEM_ALLTOALL_SYNC_SIZE 1
#define SHMEM_ALLTOALLS_SYNC_SIZE 1
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 1
/* their deprecated spellings */
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_SYNC_SIZE SHMEM_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* RDMX_SHMEM_RMA_TYPES(X): X(TYPE, TYPENAME) for every standard RMA type. */
#define RDMX_SHMEM_RMA_TYPES(X)                                                     \
    X(float, float) X(double, double) X(long double, longdouble) X(char, char)      \
    X(signed char, schar) X(short, short) X(int, int) X(long, long)                 \
    X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort)        \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) \
    X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)           \
    X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64)   \
    X(size_t, size) X(ptrdiff_t, ptrdiff)
/* RMA sizes in bits: X(BITS) */
#define RDMX_SHMEM_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)
/* standard atomic types (also point-to-point synchronization minus short types) */
#define RDMX_SHMEM_AMO_TYPES(X)                                                     \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)          \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32)      \
    X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)       \
    X(ptrdiff_t, ptrdiff)
/* extended atomic types: fetch, set, swap */
#define RDMX_SHMEM_EXT_AMO_TYPES(X) RDMX_SHMEM_AMO_TYPES(X) X(float, float) X(double, double)
/* bitwise atomic types */
#define RDMX_SHMEM_BIT_AMO_TYPES(X)                                                 \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)  \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)
/* point-to-point synchronization types */
#define RDMX_SHMEM_SYNC_TYPES(X)                                                    \
    X(short, short) X(int, int) X(long, long) X(long long, longlong)                \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)         \
    X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64)            \
    X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
/* reduction types by operation class */
#define RDMX_SHMEM_BITRED_TYPES(X)                                                  \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)         \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8)        \
    X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8)         \
    X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)
#define RDMX_SHMEM_CMPRED_TYPES(X)                                                  \
    X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)   \
    X(long long, longlong) X(ptrdiff_t, ptrdiff) X(unsigned char, uchar)            \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)         \
    X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16)              \
    X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16)       \
    X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(float, float)         \
    X(double, double) X(long double, longdouble)
#ifdef __cplusplus /* C++ has no _Complex */
#define RDMX_SHMEM_ARITHRED_TYPES(X) RDMX_SHMEM_CMPRED_TYPES(X)
#else
#define RDMX_SHMEM_ARITHRED_TYPES(X)                                                \
    RDMX_SHMEM_CMPRED_TYPES(X) X(double _Complex, complexd) X(float _Complex, complexf)
#endif

/* setup, query, exit */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
/* deprecated spellings */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* symmetric heap */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);

/* contexts */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* RMA: a routine in its default-context and context forms, given the stem
 * of its name (int_put, put8, ...) */
#define RDMX_SHMEM_DECL_CONTIG(T, F)                                                         \
    void shmem_##F(T *dest, const T *source, size_t nelems, int pe);                         \
    void shmem_ctx_##F(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);
#define RDMX_SHMEM_DECL_STRIDED(T, F)                                                        \
    void shmem_##F(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,    \
                   int pe);                                                                  \
    void shmem_ctx_##F(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,             \
                       ptrdiff_t sst, size_t nelems, int pe);
#define RDMX_SHMEM_DECL_SIGNAL(T, F)                                                         \
    void shmem_##F(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,              \
                   uint64_t signal, int sig_op, int pe);                                     \
    void shmem_ctx_##F(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,             \
                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
#define RDMX_SHMEM_DECL_FORMS(T, PUT, PUTNBI, GET, GETNBI, PSIG, PSIGNBI)                    \
    RDMX_SHMEM_DECL_CONTIG(T, PUT) RDMX_SHMEM_DECL_CONTIG(T, PUTNBI)                         \
    RDMX_SHMEM_DECL_CONTIG(T, GET) RDMX_SHMEM_DECL_CONTIG(T, GETNBI)                         \
    RDMX_SHMEM_DECL_SIGNAL(T, PSIG) RDMX_SHMEM_DECL_SIGNAL(T, PSIGNBI)
#define RDMX_SHMEM_DECL_RMA(T, N)                                                            \
    RDMX_SHMEM_DECL_FORMS(T, N##_put, N##_put_nbi, N##_get, N##_get_nbi, N##_put_signal,     \
                          N##_put_signal_nbi)                                                \
    RDMX_SHMEM_DECL_STRIDED(T, N##_iput) RDMX_SHMEM_DECL_STRIDED(T, N##_iget)                \
    void shmem_##N##_p(T *dest, T value, int pe);                                            \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                       \
    T shmem_##N##_g(const T *source, int pe);                                                \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);
RDMX_SHMEM_RMA_TYPES(RDMX_SHMEM_DECL_RMA)
#define RDMX_SHMEM_DECL_SIZED(B)                                                             \
    RDMX_SHMEM_DECL_FORMS(void, put##B, put##B##_nbi, get##B, get##B##_nbi, put##B##_signal, \
                          put##B##_signal_nbi)                                               \
    RDMX_SHMEM_DECL_STRIDED(void, iput##B) RDMX_SHMEM_DECL_STRIDED(void, iget##B)
RDMX_SHMEM_RMA_SIZES(RDMX_SHMEM_DECL_SIZED)
/* bytes: shmem_putmem, shmem_getmem, their _nbi and _signal forms */
RDMX_SHMEM_DECL_FORMS(void, putmem, putmem_nbi, getmem, getmem_nbi, putmem_signal,
                      putmem_signal_nbi)
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* atomics */
#define RDMX_SHMEM_DECL_AMO(T, N)                                                            \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                         \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                    \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                            \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                       \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                                \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);           \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                   \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);              \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                     \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe); \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                        \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);   \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);               \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,   \
                                              int pe);                                       \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);    \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, \
                                                 T value, int pe);
RDMX_SHMEM_AMO_TYPES(RDMX_SHMEM_DECL_AMO)
#define RDMX_SHMEM_DECL_EXT_AMO(T, N)                                                        \
    T shmem_##N##_atomic_fetch(const T *source, int pe);                                     \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);                \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                   \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);              \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe);                                     \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);                \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                    \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe); \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);                    \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
RDMX_SHMEM_EXT_AMO_TYPES(RDMX_SHMEM_DECL_EXT_AMO)
#define RDMX_SHMEM_DECL_BIT_AMO1(T, N, OP)                                                   \
    T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe);                               \
    T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);          \
    void shmem_##N##_atomic_##OP(T *dest, T value, int pe);                                  \
    void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);             \
    void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe);            \
    void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, \
                                                 int pe);
#define RDMX_SHMEM_DECL_BIT_AMO(T, N)                                                        \
    RDMX_SHMEM_DECL_BIT_AMO1(T, N, and) RDMX_SHMEM_DECL_BIT_AMO1(T, N, or)                   \
    RDMX_SHMEM_DECL_BIT_AMO1(T, N, xor)
RDMX_SHMEM_BIT_AMO_TYPES(RDMX_SHMEM_DECL_BIT_AMO)

/* ordering and synchronization */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_barrier_all(void);
void shmem_sync_all(void);
int shmem_team_sync(shmem_team_t team);
#define RDMX_SHMEM_DECL_SYNC(T, N)                                                           \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                              \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,     \
                                    T cmp_value);                                            \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,   \
                                      T cmp_value);                                          \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,             \
                                       const int *status, int cmp, T cmp_value);             \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,       \
                                           int cmp, const T *cmp_values);                    \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,     \
                                             int cmp, const T *cmp_values);                  \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,      \
                                              const int *status, int cmp,                    \
                                              const T *cmp_values);                          \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                     \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,            \
                             T cmp_value);                                                   \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,         \
                                T cmp_value);                                                \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                 int cmp, T cmp_value);                                      \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,     \
                                    const T *cmp_values);                                    \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,  \
                                       const T *cmp_values);                                 \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,            \
                                        const int *status, int cmp, const T *cmp_values);
RDMX_SHMEM_SYNC_TYPES(RDMX_SHMEM_DECL_SYNC)

/* teams */
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);

/* collectives on teams */
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);
#define RDMX_SHMEM_DECL_COLL(T, N)                                                           \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,    \
                              int PE_root);                                                  \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);     \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);    \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);    \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,    \
                              ptrdiff_t sst, size_t nelems);
RDMX_SHMEM_RMA_TYPES(RDMX_SHMEM_DECL_COLL)
#define RDMX_SHMEM_DECL_RED(T, N, OP)                                                        \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define RDMX_SHMEM_DECL_BITRED(T, N)                                                         \
    RDMX_SHMEM_DECL_RED(T, N, and) RDMX_SHMEM_DECL_RED(T, N, or) RDMX_SHMEM_DECL_RED(T, N, xor)
#define RDMX_SHMEM_DECL_CMPRED(T, N) RDMX_SHMEM_DECL_RED(T, N, max) RDMX_SHMEM_DECL_RED(T, N, min)
#define RDMX_SHMEM_DECL_ARITHRED(T, N)                                                       \
    RDMX_SHMEM_DECL_RED(T, N, sum) RDMX_SHMEM_DECL_RED(T, N, prod)
RDMX_SHMEM_BITRED_TYPES(RDMX_SHMEM_DECL_BITRED)
RDMX_SHMEM_CMPRED_TYPES(RDMX_SHMEM_DECL_CMPRED)
RDMX_SHMEM_ARITHRED_TYPES(RDMX_SHMEM_DECL_ARITHRED)

/* distributed locks */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

/* profiling interface: levels are accepted, nothing is profiled */
void shmem_pcontrol(const int level, ...);

/* Deprecated and still specified by 1.5 (docs/shmem.md, "Deprecated routines").
 * Active-set collectives: the set is PE_start, PE_start + 2^logPE_stride, ...
 * (PE_size PEs); pSync and pWrk are accepted and left untouched. */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
/* the active-set shmem_sync (shmem_sync with four arguments) */
void rdmx_shmem_sync_active_set(int PE_start, int logPE_stride, int PE_size, long *pSync);
#define RDMX_SHMEM_DECL_ASET(B)                                                              \
    void shmem_broadcast##B(void *dest, const void *source, size_t nelems, int PE_root,      \
                            int PE_start, int logPE_stride, int PE_size, long *pSync);       \
    void shmem_collect##B(void *dest, const void *source, size_t nelems, int PE_start,       \
                          int logPE_stride, int PE_size, long *pSync);                       \
    void shmem_fcollect##B(void *dest, const void *source, size_t nelems, int PE_start,      \
                           int logPE_stride, int PE_size, long *pSync);                      \
    void shmem_alltoall##B(void *dest, const void *source, size_t nelems, int PE_start,      \
                           int logPE_stride, int PE_size, long *pSync);                      \
    void shmem_alltoalls##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                            size_t nelems, int PE_start, int logPE_stride, int PE_size,      \
                            long *pSync);
RDMX_SHMEM_DECL_ASET(32)
RDMX_SHMEM_DECL_ASET(64)
/* shmem_TYPENAME_OP_to_all: the types of 1.5's table by operation class */
#define RDMX_SHMEM_TOALL_BIT_TYPES(X)                                               \
    X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define RDMX_SHMEM_TOALL_CMP_TYPES(X)                                               \
    RDMX_SHMEM_TOALL_BIT_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)
#ifdef __cplusplus
#define RDMX_SHMEM_TOALL_ARITH_TYPES(X) RDMX_SHMEM_TOALL_CMP_TYPES(X)
#else
#define RDMX_SHMEM_TOALL_ARITH_TYPES(X)                                             \
    RDMX_SHMEM_TOALL_CMP_TYPES(X) X(double _Complex, complexd) X(float _Complex, complexf)
#endif
#define RDMX_SHMEM_DECL_TOALL(T, N, OP)                                                      \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,      \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define RDMX_SHMEM_DECL_BITTOALL(T, N)                                                       \
    RDMX_SHMEM_DECL_TOALL(T, N, and) RDMX_SHMEM_DECL_TOALL(T, N, or)                         \
    RDMX_SHMEM_DECL_TOALL(T, N, xor)
#define RDMX_SHMEM_DECL_CMPTOALL(T, N)                                                       \
    RDMX_SHMEM_DECL_TOALL(T, N, max) RDMX_SHMEM_DECL_TOALL(T, N, min)
#define RDMX_SHMEM_DECL_ARITHTOALL(T, N)                                                     \
    RDMX_SHMEM_DECL_TOALL(T, N, sum) RDMX_SHMEM_DECL_TOALL(T, N, prod)
RDMX_SHMEM_TOALL_BIT_TYPES(RDMX_SHMEM_DECL_BITTOALL)
RDMX_SHMEM_TOALL_CMP_TYPES(RDMX_SHMEM_DECL_CMPTOALL)
RDMX_SHMEM_TOALL_ARITH_TYPES(RDMX_SHMEM_DECL_ARITHTOALL)

/* the atomics' names before 1.4 (same behaviour as shmem_TYPENAME_atomic_*) */
#define RDMX_SHMEM_DECL_OLD_AMO(T, N)                                                        \
    T shmem_##N##_finc(T *dest, int pe);                                                     \
    void shmem_##N##_inc(T *dest, int pe);                                                   \
    T shmem_##N##_fadd(T *dest, T value, int pe);                                            \
    void shmem_##N##_add(T *dest, T value, int pe);                                          \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe);
RDMX_SHMEM_AMO_TYPES(RDMX_SHMEM_DECL_OLD_AMO)
#define RDMX_SHMEM_DECL_OLD_EXT(T, N)                                                        \
    T shmem_##N##_fetch(const T *source, int pe);                                            \
    void shmem_##N##_set(T *dest, T value, int pe);                                          \
    T shmem_##N##_swap(T *dest, T value, int pe);
RDMX_SHMEM_EXT_AMO_TYPES(RDMX_SHMEM_DECL_OLD_EXT)
/* waits before 1.4: shmem_wait is shmem_wait_until with SHMEM_CMP_NE; the
 * long-typed shmem_wait_until (C11 programs get the generic one) */
void shmem_wait(long *ivar, long cmp_value);
void shmem_wait_until(long *ivar, int cmp, long cmp_value);
#define RDMX_SHMEM_DECL_OLD_WAIT(T, N) void shmem_##N##_wait(T *ivar, T cmp_value);
RDMX_SHMEM_SYNC_TYPES(RDMX_SHMEM_DECL_OLD_WAIT)
/* cache management: no-ops (cache-coherent machines) */
void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);
/* heap routines before 1.2 */
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);

#ifdef __cplusplus
}
#endif

#define RDMX_SHMEM_CAT_(a, b) a##b
#define RDMX_SHMEM_CAT(a, b) RDMX_SHMEM_CAT_(a, b)
#define RDMX_SHMEM_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define RDMX_SHMEM_NARG(...) RDMX_SHMEM_NARG_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
/* shmem_sync(team), the C11 name of shmem_team_sync, and the deprecated
 * active-set shmem_sync(PE_start, logPE_stride, PE_size, pSync) */
#define shmem_sync(...) RDMX_SHMEM_CAT(rdmx_shmem_sync_, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_sync_1(team) shmem_team_sync(team)
#define rdmx_shmem_sync_4(s, l, n, p) rdmx_shmem_sync_active_set(s, l, n, p)

/* C11 type-generic interfaces. Fixed-width and size types are typedefs of
 * the basic ones and have no generic entry (as the standard says); forms
 * with a context take it as an extra first argument. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define RDMX_SHMEM_G_RMA(X)                                                         \
    X(float, float) X(double, double) X(long double, longdouble) X(char, char)      \
    X(signed char, schar) X(short, short) X(int, int) X(long, long)                 \
    X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort)        \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)
#define RDMX_SHMEM_G_AMO(X)                                                         \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)          \
    X(unsigned long, ulong) X(unsigned long long, ulonglong)
#define RDMX_SHMEM_G_EXT(X) RDMX_SHMEM_G_AMO(X) X(float, float) X(double, double)
#define RDMX_SHMEM_G_BIT(X) X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)
#define RDMX_SHMEM_G_SYNC(X)                                                        \
    RDMX_SHMEM_G_AMO(X) X(short, short) X(unsigned short, ushort)
#define RDMX_SHMEM_G_BITRED(X)                                                      \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)         \
    X(unsigned long, ulong) X(unsigned long long, ulonglong)
#define RDMX_SHMEM_G_CMPRED(X)                                                      \
    X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)   \
    X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort)        \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)  \
    X(float, float) X(double, double) X(long double, longdouble)
#define RDMX_SHMEM_G_ARITHRED(X)                                                    \
    RDMX_SHMEM_G_CMPRED(X) X(double _Complex, complexd) X(float _Complex, complexf)
struct rdmx_shmem_no_type { char unused; }; /* ends the association lists */
/* _Generic on the element the pointer P points to (qualifiers dropped) */
#define RDMX_SHMEM_ASSOC(T, N, OP) T: shmem_##N##_##OP,
#define RDMX_SHMEM_CASSOC(T, N, OP) T: shmem_ctx_##N##_##OP,
#define RDMX_SHMEM_GEN(LIST, P, OP)                                                 \
    _Generic(*(P), LIST(RDMX_SHMEM_ASSOC_##OP) struct rdmx_shmem_no_type: 0)
#define RDMX_SHMEM_CGEN(LIST, P, OP)                                                \
    _Generic(*(P), LIST(RDMX_SHMEM_CASSOC_##OP) struct rdmx_shmem_no_type: 0)
#define RDMX_SHMEM_ASSOC_put(T, N) RDMX_SHMEM_ASSOC(T, N, put)
#define RDMX_SHMEM_CASSOC_put(T, N) RDMX_SHMEM_CASSOC(T, N, put)
#define RDMX_SHMEM_ASSOC_get(T, N) RDMX_SHMEM_ASSOC(T, N, get)
#define RDMX_SHMEM_CASSOC_get(T, N) RDMX_SHMEM_CASSOC(T, N, get)
#define RDMX_SHMEM_ASSOC_put_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, put_nbi)
#define RDMX_SHMEM_CASSOC_put_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, put_nbi)
#define RDMX_SHMEM_ASSOC_get_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, get_nbi)
#define RDMX_SHMEM_CASSOC_get_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, get_nbi)
#define RDMX_SHMEM_ASSOC_p(T, N) RDMX_SHMEM_ASSOC(T, N, p)
#define RDMX_SHMEM_CASSOC_p(T, N) RDMX_SHMEM_CASSOC(T, N, p)
#define RDMX_SHMEM_ASSOC_g(T, N) RDMX_SHMEM_ASSOC(T, N, g)
#define RDMX_SHMEM_CASSOC_g(T, N) RDMX_SHMEM_CASSOC(T, N, g)
#define RDMX_SHMEM_ASSOC_iput(T, N) RDMX_SHMEM_ASSOC(T, N, iput)
#define RDMX_SHMEM_CASSOC_iput(T, N) RDMX_SHMEM_CASSOC(T, N, iput)
#define RDMX_SHMEM_ASSOC_iget(T, N) RDMX_SHMEM_ASSOC(T, N, iget)
#define RDMX_SHMEM_CASSOC_iget(T, N) RDMX_SHMEM_CASSOC(T, N, iget)
#define RDMX_SHMEM_ASSOC_put_signal(T, N) RDMX_SHMEM_ASSOC(T, N, put_signal)
#define RDMX_SHMEM_CASSOC_put_signal(T, N) RDMX_SHMEM_CASSOC(T, N, put_signal)
#define RDMX_SHMEM_ASSOC_put_signal_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, put_signal_nbi)
#define RDMX_SHMEM_CASSOC_put_signal_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, put_signal_nbi)
#define RDMX_SHMEM_ASSOC_atomic_fetch(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch)
#define RDMX_SHMEM_CASSOC_atomic_fetch(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch)
#define RDMX_SHMEM_ASSOC_atomic_set(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_set)
#define RDMX_SHMEM_CASSOC_atomic_set(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_set)
#define RDMX_SHMEM_ASSOC_atomic_swap(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_swap)
#define RDMX_SHMEM_CASSOC_atomic_swap(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_swap)
#define RDMX_SHMEM_ASSOC_atomic_compare_swap(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_compare_swap)
#define RDMX_SHMEM_CASSOC_atomic_compare_swap(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_compare_swap)
#define RDMX_SHMEM_ASSOC_atomic_fetch_inc(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_inc)
#define RDMX_SHMEM_CASSOC_atomic_fetch_inc(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_inc)
#define RDMX_SHMEM_ASSOC_atomic_inc(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_inc)
#define RDMX_SHMEM_CASSOC_atomic_inc(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_inc)
#define RDMX_SHMEM_ASSOC_atomic_fetch_add(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_add)
#define RDMX_SHMEM_CASSOC_atomic_fetch_add(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_add)
#define RDMX_SHMEM_ASSOC_atomic_add(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_add)
#define RDMX_SHMEM_CASSOC_atomic_add(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_add)
#define RDMX_SHMEM_ASSOC_atomic_fetch_and(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_and)
#define RDMX_SHMEM_CASSOC_atomic_fetch_and(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_and)
#define RDMX_SHMEM_ASSOC_atomic_and(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_and)
#define RDMX_SHMEM_CASSOC_atomic_and(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_and)
#define RDMX_SHMEM_ASSOC_atomic_fetch_or(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_or)
#define RDMX_SHMEM_CASSOC_atomic_fetch_or(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_or)
#define RDMX_SHMEM_ASSOC_atomic_or(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_or)
#define RDMX_SHMEM_CASSOC_atomic_or(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_or)
#define RDMX_SHMEM_ASSOC_atomic_fetch_xor(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_xor)
#define RDMX_SHMEM_CASSOC_atomic_fetch_xor(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_xor)
#define RDMX_SHMEM_ASSOC_atomic_xor(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_xor)
#define RDMX_SHMEM_CASSOC_atomic_xor(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_xor)
#define RDMX_SHMEM_ASSOC_atomic_fetch_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_nbi)
#define RDMX_SHMEM_CASSOC_atomic_fetch_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_nbi)
#define RDMX_SHMEM_ASSOC_atomic_swap_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_swap_nbi)
#define RDMX_SHMEM_CASSOC_atomic_swap_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_swap_nbi)
#define RDMX_SHMEM_ASSOC_atomic_compare_swap_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_compare_swap_nbi)
#define RDMX_SHMEM_CASSOC_atomic_compare_swap_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_compare_swap_nbi)
#define RDMX_SHMEM_ASSOC_atomic_fetch_inc_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_inc_nbi)
#define RDMX_SHMEM_CASSOC_atomic_fetch_inc_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_inc_nbi)
#define RDMX_SHMEM_ASSOC_atomic_fetch_add_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_add_nbi)
#define RDMX_SHMEM_CASSOC_atomic_fetch_add_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_add_nbi)
#define RDMX_SHMEM_ASSOC_atomic_fetch_and_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_and_nbi)
#define RDMX_SHMEM_CASSOC_atomic_fetch_and_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_and_nbi)
#define RDMX_SHMEM_ASSOC_atomic_fetch_or_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_or_nbi)
#define RDMX_SHMEM_CASSOC_atomic_fetch_or_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_or_nbi)
#define RDMX_SHMEM_ASSOC_atomic_fetch_xor_nbi(T, N) RDMX_SHMEM_ASSOC(T, N, atomic_fetch_xor_nbi)
#define RDMX_SHMEM_CASSOC_atomic_fetch_xor_nbi(T, N) RDMX_SHMEM_CASSOC(T, N, atomic_fetch_xor_nbi)
#define RDMX_SHMEM_ASSOC_wait_until(T, N) RDMX_SHMEM_ASSOC(T, N, wait_until)
#define RDMX_SHMEM_CASSOC_wait_until(T, N) RDMX_SHMEM_CASSOC(T, N, wait_until)
#define RDMX_SHMEM_ASSOC_wait_until_all(T, N) RDMX_SHMEM_ASSOC(T, N, wait_until_all)
#define RDMX_SHMEM_CASSOC_wait_until_all(T, N) RDMX_SHMEM_CASSOC(T, N, wait_until_all)
#define RDMX_SHMEM_ASSOC_wait_until_any(T, N) RDMX_SHMEM_ASSOC(T, N, wait_until_any)
#define RDMX_SHMEM_CASSOC_wait_until_any(T, N) RDMX_SHMEM_CASSOC(T, N, wait_until_any)
#define RDMX_SHMEM_ASSOC_wait_until_some(T, N) RDMX_SHMEM_ASSOC(T, N, wait_until_some)
#define RDMX_SHMEM_CASSOC_wait_until_some(T, N) RDMX_SHMEM_CASSOC(T, N, wait_until_some)
#define RDMX_SHMEM_ASSOC_wait_until_all_vector(T, N) RDMX_SHMEM_ASSOC(T, N, wait_until_all_vector)
#define RDMX_SHMEM_CASSOC_wait_until_all_vector(T, N) RDMX_SHMEM_CASSOC(T, N, wait_until_all_vector)
#define RDMX_SHMEM_ASSOC_wait_until_any_vector(T, N) RDMX_SHMEM_ASSOC(T, N, wait_until_any_vector)
#define RDMX_SHMEM_CASSOC_wait_until_any_vector(T, N) RDMX_SHMEM_CASSOC(T, N, wait_until_any_vector)
#define RDMX_SHMEM_ASSOC_wait_until_some_vector(T, N) RDMX_SHMEM_ASSOC(T, N, wait_until_some_vector)
#define RDMX_SHMEM_CASSOC_wait_until_some_vector(T, N) RDMX_SHMEM_CASSOC(T, N, wait_until_some_vector)
#define RDMX_SHMEM_ASSOC_test(T, N) RDMX_SHMEM_ASSOC(T, N, test)
#define RDMX_SHMEM_CASSOC_test(T, N) RDMX_SHMEM_CASSOC(T, N, test)
#define RDMX_SHMEM_ASSOC_test_all(T, N) RDMX_SHMEM_ASSOC(T, N, test_all)
#define RDMX_SHMEM_CASSOC_test_all(T, N) RDMX_SHMEM_CASSOC(T, N, test_all)
#define RDMX_SHMEM_ASSOC_test_any(T, N) RDMX_SHMEM_ASSOC(T, N, test_any)
#define RDMX_SHMEM_CASSOC_test_any(T, N) RDMX_SHMEM_CASSOC(T, N, test_any)
#define RDMX_SHMEM_ASSOC_test_some(T, N) RDMX_SHMEM_ASSOC(T, N, test_some)
#define RDMX_SHMEM_CASSOC_test_some(T, N) RDMX_SHMEM_CASSOC(T, N, test_some)
#define RDMX_SHMEM_ASSOC_test_all_vector(T, N) RDMX_SHMEM_ASSOC(T, N, test_all_vector)
#define RDMX_SHMEM_CASSOC_test_all_vector(T, N) RDMX_SHMEM_CASSOC(T, N, test_all_vector)
#define RDMX_SHMEM_ASSOC_test_any_vector(T, N) RDMX_SHMEM_ASSOC(T, N, test_any_vector)
#define RDMX_SHMEM_CASSOC_test_any_vector(T, N) RDMX_SHMEM_CASSOC(T, N, test_any_vector)
#define RDMX_SHMEM_ASSOC_test_some_vector(T, N) RDMX_SHMEM_ASSOC(T, N, test_some_vector)
#define RDMX_SHMEM_CASSOC_test_some_vector(T, N) RDMX_SHMEM_CASSOC(T, N, test_some_vector)
#define RDMX_SHMEM_ASSOC_broadcast(T, N) RDMX_SHMEM_ASSOC(T, N, broadcast)
#define RDMX_SHMEM_CASSOC_broadcast(T, N) RDMX_SHMEM_CASSOC(T, N, broadcast)
#define RDMX_SHMEM_ASSOC_collect(T, N) RDMX_SHMEM_ASSOC(T, N, collect)
#define RDMX_SHMEM_CASSOC_collect(T, N) RDMX_SHMEM_CASSOC(T, N, collect)
#define RDMX_SHMEM_ASSOC_fcollect(T, N) RDMX_SHMEM_ASSOC(T, N, fcollect)
#define RDMX_SHMEM_CASSOC_fcollect(T, N) RDMX_SHMEM_CASSOC(T, N, fcollect)
#define RDMX_SHMEM_ASSOC_alltoall(T, N) RDMX_SHMEM_ASSOC(T, N, alltoall)
#define RDMX_SHMEM_CASSOC_alltoall(T, N) RDMX_SHMEM_CASSOC(T, N, alltoall)
#define RDMX_SHMEM_ASSOC_alltoalls(T, N) RDMX_SHMEM_ASSOC(T, N, alltoalls)
#define RDMX_SHMEM_CASSOC_alltoalls(T, N) RDMX_SHMEM_CASSOC(T, N, alltoalls)
#define RDMX_SHMEM_ASSOC_and_reduce(T, N) RDMX_SHMEM_ASSOC(T, N, and_reduce)
#define RDMX_SHMEM_CASSOC_and_reduce(T, N) RDMX_SHMEM_CASSOC(T, N, and_reduce)
#define RDMX_SHMEM_ASSOC_or_reduce(T, N) RDMX_SHMEM_ASSOC(T, N, or_reduce)
#define RDMX_SHMEM_CASSOC_or_reduce(T, N) RDMX_SHMEM_CASSOC(T, N, or_reduce)
#define RDMX_SHMEM_ASSOC_xor_reduce(T, N) RDMX_SHMEM_ASSOC(T, N, xor_reduce)
#define RDMX_SHMEM_CASSOC_xor_reduce(T, N) RDMX_SHMEM_CASSOC(T, N, xor_reduce)
#define RDMX_SHMEM_ASSOC_max_reduce(T, N) RDMX_SHMEM_ASSOC(T, N, max_reduce)
#define RDMX_SHMEM_CASSOC_max_reduce(T, N) RDMX_SHMEM_CASSOC(T, N, max_reduce)
#define RDMX_SHMEM_ASSOC_min_reduce(T, N) RDMX_SHMEM_ASSOC(T, N, min_reduce)
#define RDMX_SHMEM_CASSOC_min_reduce(T, N) RDMX_SHMEM_CASSOC(T, N, min_reduce)
#define RDMX_SHMEM_ASSOC_sum_reduce(T, N) RDMX_SHMEM_ASSOC(T, N, sum_reduce)
#define RDMX_SHMEM_CASSOC_sum_reduce(T, N) RDMX_SHMEM_CASSOC(T, N, sum_reduce)
#define RDMX_SHMEM_ASSOC_prod_reduce(T, N) RDMX_SHMEM_ASSOC(T, N, prod_reduce)
#define RDMX_SHMEM_CASSOC_prod_reduce(T, N) RDMX_SHMEM_CASSOC(T, N, prod_reduce)
#define shmem_put(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_put, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_put4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, put)(a0, a1, a2, a3)
#define rdmx_shmem_g0_put5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, put)(c, a0, a1, a2, a3)
#define shmem_get(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_get, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_get4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, get)(a0, a1, a2, a3)
#define rdmx_shmem_g0_get5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, get)(c, a0, a1, a2, a3)
#define shmem_put_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_put_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_put_nbi4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, put_nbi)(a0, a1, a2, a3)
#define rdmx_shmem_g0_put_nbi5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, put_nbi)(c, a0, a1, a2, a3)
#define shmem_get_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_get_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_get_nbi4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, get_nbi)(a0, a1, a2, a3)
#define rdmx_shmem_g0_get_nbi5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, get_nbi)(c, a0, a1, a2, a3)
#define shmem_p(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_p, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_p3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, p)(a0, a1, a2)
#define rdmx_shmem_g0_p4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, p)(c, a0, a1, a2)
#define shmem_g(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_g, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_g2(a0, a1) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, g)(a0, a1)
#define rdmx_shmem_g0_g3(c, a0, a1) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, g)(c, a0, a1)
#define shmem_iput(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_iput, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_iput6(a0, a1, a2, a3, a4, a5) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, iput)(a0, a1, a2, a3, a4, a5)
#define rdmx_shmem_g0_iput7(c, a0, a1, a2, a3, a4, a5) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, iput)(c, a0, a1, a2, a3, a4, a5)
#define shmem_iget(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_iget, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_iget6(a0, a1, a2, a3, a4, a5) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, iget)(a0, a1, a2, a3, a4, a5)
#define rdmx_shmem_g0_iget7(c, a0, a1, a2, a3, a4, a5) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, iget)(c, a0, a1, a2, a3, a4, a5)
#define shmem_put_signal(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_put_signal, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_put_signal7(a0, a1, a2, a3, a4, a5, a6) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, put_signal)(a0, a1, a2, a3, a4, a5, a6)
#define rdmx_shmem_g0_put_signal8(c, a0, a1, a2, a3, a4, a5, a6) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, put_signal)(c, a0, a1, a2, a3, a4, a5, a6)
#define shmem_put_signal_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_put_signal_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_put_signal_nbi7(a0, a1, a2, a3, a4, a5, a6) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a0, put_signal_nbi)(a0, a1, a2, a3, a4, a5, a6)
#define rdmx_shmem_g0_put_signal_nbi8(c, a0, a1, a2, a3, a4, a5, a6) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_RMA, a0, put_signal_nbi)(c, a0, a1, a2, a3, a4, a5, a6)
#define shmem_atomic_fetch(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch2(a0, a1) RDMX_SHMEM_GEN(RDMX_SHMEM_G_EXT, a0, atomic_fetch)(a0, a1)
#define rdmx_shmem_g0_atomic_fetch3(c, a0, a1) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_EXT, a0, atomic_fetch)(c, a0, a1)
#define shmem_atomic_set(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_set, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_set3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_EXT, a0, atomic_set)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_set4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_EXT, a0, atomic_set)(c, a0, a1, a2)
#define shmem_atomic_swap(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_swap, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_swap3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_EXT, a0, atomic_swap)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_swap4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_EXT, a0, atomic_swap)(c, a0, a1, a2)
#define shmem_atomic_compare_swap(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_compare_swap, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_compare_swap4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, atomic_compare_swap)(a0, a1, a2, a3)
#define rdmx_shmem_g0_atomic_compare_swap5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_AMO, a0, atomic_compare_swap)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_inc(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_inc, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_inc2(a0, a1) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, atomic_fetch_inc)(a0, a1)
#define rdmx_shmem_g0_atomic_fetch_inc3(c, a0, a1) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_AMO, a0, atomic_fetch_inc)(c, a0, a1)
#define shmem_atomic_inc(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_inc, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_inc2(a0, a1) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, atomic_inc)(a0, a1)
#define rdmx_shmem_g0_atomic_inc3(c, a0, a1) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_AMO, a0, atomic_inc)(c, a0, a1)
#define shmem_atomic_fetch_add(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_add, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_add3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, atomic_fetch_add)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_fetch_add4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_AMO, a0, atomic_fetch_add)(c, a0, a1, a2)
#define shmem_atomic_add(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_add, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_add3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, atomic_add)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_add4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_AMO, a0, atomic_add)(c, a0, a1, a2)
#define shmem_atomic_fetch_and(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_and, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_and3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_and)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_fetch_and4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_and)(c, a0, a1, a2)
#define shmem_atomic_and(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_and, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_and3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BIT, a0, atomic_and)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_and4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_BIT, a0, atomic_and)(c, a0, a1, a2)
#define shmem_atomic_fetch_or(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_or, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_or3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_or)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_fetch_or4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_or)(c, a0, a1, a2)
#define shmem_atomic_or(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_or, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_or3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BIT, a0, atomic_or)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_or4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_BIT, a0, atomic_or)(c, a0, a1, a2)
#define shmem_atomic_fetch_xor(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_xor, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_xor3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_xor)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_fetch_xor4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_xor)(c, a0, a1, a2)
#define shmem_atomic_xor(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_xor, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_xor3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BIT, a0, atomic_xor)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_xor4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_BIT, a0, atomic_xor)(c, a0, a1, a2)
#define shmem_atomic_fetch_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_nbi3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_EXT, a0, atomic_fetch_nbi)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_fetch_nbi4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_EXT, a0, atomic_fetch_nbi)(c, a0, a1, a2)
#define shmem_atomic_swap_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_swap_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_swap_nbi4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_EXT, a0, atomic_swap_nbi)(a0, a1, a2, a3)
#define rdmx_shmem_g0_atomic_swap_nbi5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_EXT, a0, atomic_swap_nbi)(c, a0, a1, a2, a3)
#define shmem_atomic_compare_swap_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_compare_swap_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_compare_swap_nbi5(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, atomic_compare_swap_nbi)(a0, a1, a2, a3, a4)
#define rdmx_shmem_g0_atomic_compare_swap_nbi6(c, a0, a1, a2, a3, a4) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_AMO, a0, atomic_compare_swap_nbi)(c, a0, a1, a2, a3, a4)
#define shmem_atomic_fetch_inc_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_inc_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_inc_nbi3(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, atomic_fetch_inc_nbi)(a0, a1, a2)
#define rdmx_shmem_g0_atomic_fetch_inc_nbi4(c, a0, a1, a2) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_AMO, a0, atomic_fetch_inc_nbi)(c, a0, a1, a2)
#define shmem_atomic_fetch_add_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_add_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_add_nbi4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, atomic_fetch_add_nbi)(a0, a1, a2, a3)
#define rdmx_shmem_g0_atomic_fetch_add_nbi5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_AMO, a0, atomic_fetch_add_nbi)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_and_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_and_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_and_nbi4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_and_nbi)(a0, a1, a2, a3)
#define rdmx_shmem_g0_atomic_fetch_and_nbi5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_and_nbi)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_or_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_or_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_or_nbi4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_or_nbi)(a0, a1, a2, a3)
#define rdmx_shmem_g0_atomic_fetch_or_nbi5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_or_nbi)(c, a0, a1, a2, a3)
#define shmem_atomic_fetch_xor_nbi(...) RDMX_SHMEM_CAT(rdmx_shmem_g0_atomic_fetch_xor_nbi, RDMX_SHMEM_NARG(__VA_ARGS__))(__VA_ARGS__)
#define rdmx_shmem_g0_atomic_fetch_xor_nbi4(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_xor_nbi)(a0, a1, a2, a3)
#define rdmx_shmem_g0_atomic_fetch_xor_nbi5(c, a0, a1, a2, a3) RDMX_SHMEM_CGEN(RDMX_SHMEM_G_BIT, a0, atomic_fetch_xor_nbi)(c, a0, a1, a2, a3)
#define shmem_wait_until(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, wait_until)(a0, a1, a2)
#define shmem_wait_until_all(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, wait_until_all)(a0, a1, a2, a3, a4)
#define shmem_wait_until_any(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, wait_until_any)(a0, a1, a2, a3, a4)
#define shmem_wait_until_some(a0, a1, a2, a3, a4, a5) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, wait_until_some)(a0, a1, a2, a3, a4, a5)
#define shmem_wait_until_all_vector(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, wait_until_all_vector)(a0, a1, a2, a3, a4)
#define shmem_wait_until_any_vector(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, wait_until_any_vector)(a0, a1, a2, a3, a4)
#define shmem_wait_until_some_vector(a0, a1, a2, a3, a4, a5) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, wait_until_some_vector)(a0, a1, a2, a3, a4, a5)
#define shmem_test(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, test)(a0, a1, a2)
#define shmem_test_all(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, test_all)(a0, a1, a2, a3, a4)
#define shmem_test_any(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, test_any)(a0, a1, a2, a3, a4)
#define shmem_test_some(a0, a1, a2, a3, a4, a5) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, test_some)(a0, a1, a2, a3, a4, a5)
#define shmem_test_all_vector(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, test_all_vector)(a0, a1, a2, a3, a4)
#define shmem_test_any_vector(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, test_any_vector)(a0, a1, a2, a3, a4)
#define shmem_test_some_vector(a0, a1, a2, a3, a4, a5) RDMX_SHMEM_GEN(RDMX_SHMEM_G_SYNC, a0, test_some_vector)(a0, a1, a2, a3, a4, a5)
#define shmem_broadcast(a0, a1, a2, a3, a4) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a1, broadcast)(a0, a1, a2, a3, a4)
#define shmem_collect(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a1, collect)(a0, a1, a2, a3)
#define shmem_fcollect(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a1, fcollect)(a0, a1, a2, a3)
#define shmem_alltoall(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a1, alltoall)(a0, a1, a2, a3)
#define shmem_alltoalls(a0, a1, a2, a3, a4, a5) RDMX_SHMEM_GEN(RDMX_SHMEM_G_RMA, a1, alltoalls)(a0, a1, a2, a3, a4, a5)
#define shmem_and_reduce(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BITRED, a1, and_reduce)(a0, a1, a2, a3)
#define shmem_or_reduce(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BITRED, a1, or_reduce)(a0, a1, a2, a3)
#define shmem_xor_reduce(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_BITRED, a1, xor_reduce)(a0, a1, a2, a3)
#define shmem_max_reduce(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_CMPRED, a1, max_reduce)(a0, a1, a2, a3)
#define shmem_min_reduce(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_CMPRED, a1, min_reduce)(a0, a1, a2, a3)
#define shmem_sum_reduce(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_ARITHRED, a1, sum_reduce)(a0, a1, a2, a3)
#define shmem_prod_reduce(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_ARITHRED, a1, prod_reduce)(a0, a1, a2, a3)
/* the deprecated generic atomics (before 1.4's shmem_atomic_*) */
#define RDMX_SHMEM_ASSOC_finc(T, N) RDMX_SHMEM_ASSOC(T, N, finc)
#define RDMX_SHMEM_ASSOC_inc(T, N) RDMX_SHMEM_ASSOC(T, N, inc)
#define RDMX_SHMEM_ASSOC_fadd(T, N) RDMX_SHMEM_ASSOC(T, N, fadd)
#define RDMX_SHMEM_ASSOC_add(T, N) RDMX_SHMEM_ASSOC(T, N, add)
#define RDMX_SHMEM_ASSOC_cswap(T, N) RDMX_SHMEM_ASSOC(T, N, cswap)
#define RDMX_SHMEM_ASSOC_fetch(T, N) RDMX_SHMEM_ASSOC(T, N, fetch)
#define RDMX_SHMEM_ASSOC_set(T, N) RDMX_SHMEM_ASSOC(T, N, set)
#define RDMX_SHMEM_ASSOC_swap(T, N) RDMX_SHMEM_ASSOC(T, N, swap)
#define shmem_finc(a0, a1) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, finc)(a0, a1)
#define shmem_inc(a0, a1) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, inc)(a0, a1)
#define shmem_fadd(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, fadd)(a0, a1, a2)
#define shmem_add(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, add)(a0, a1, a2)
#define shmem_cswap(a0, a1, a2, a3) RDMX_SHMEM_GEN(RDMX_SHMEM_G_AMO, a0, cswap)(a0, a1, a2, a3)
#define shmem_fetch(a0, a1) RDMX_SHMEM_GEN(RDMX_SHMEM_G_EXT, a0, fetch)(a0, a1)
#define shmem_set(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_EXT, a0, set)(a0, a1, a2)
#define shmem_swap(a0, a1, a2) RDMX_SHMEM_GEN(RDMX_SHMEM_G_EXT, a0, swap)(a0, a1, a2)
#endif

#endif
